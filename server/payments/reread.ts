/**
 * The scheduled re-read of pending attempts (run with housekeeping, server/housekeeping.ts): a
 * payment the provider reported as pending — a PayPal capture left PENDING, a 3-D Secure page
 * left open, a QR not paid yet — is asked about again through the one provider interface
 * (`getPaymentStatus`) and the answer applied once through `applyOutcome`, in case the provider's
 * notification never arrives. Bounded: at most `limit` attempts a round, each asked at most once
 * every `everyMs`, the least recently asked first, and only attempts older than `graceMs` (the
 * buyer's own return does the first read). A provider that fails is skipped this round.
 */
import type { PaymentsContext } from '../context';
import { applyOutcome } from './apply';
import type { PaymentRow } from './repository';

export interface RereadOptions {
  limit?: number;
  everyMs?: number;
  graceMs?: number;
}

export interface RereadResult {
  asked: number;
  settled: number;
  failed: number;
}

export async function rereadPendingAttempts(ctx: PaymentsContext, now: Date, o: RereadOptions = {}): Promise<RereadResult> {
  const providers = ctx.providers;
  const wired = providers.wired();
  const limit = o.limit ?? 20;
  const everyMs = o.everyMs ?? 5 * 60_000;
  const graceMs = o.graceMs ?? 2 * 60_000;
  // Claim the batch: stamping reread_at first keeps two processes from asking about the same attempts.
  const rows = await ctx.db.tx(async (q) => {
    const r = await q.query<PaymentRow>(
      `SELECT * FROM payments
        WHERE status = 'pending' AND provider = ANY($1::text[]) AND created_at <= $2 AND (reread_at IS NULL OR reread_at <= $3)
        ORDER BY reread_at NULLS FIRST, id LIMIT $4 FOR UPDATE SKIP LOCKED`,
      [wired, new Date(now.getTime() - graceMs), new Date(now.getTime() - everyMs), limit],
    );
    if (r.rows.length > 0) await q.query('UPDATE payments SET reread_at = $2 WHERE id = ANY($1::int[])', [r.rows.map((p) => p.id), now]);
    return r.rows;
  });
  const out: RereadResult = { asked: rows.length, settled: 0, failed: 0 };
  for (const p of rows) {
    try {
      const status = await providers.get(p.provider).getPaymentStatus({
        ref: p.provider_ref,
        providerRef: p.provider_ref,
        amount: p.amount,
        currency: p.currency,
        details: { ...p.details, created_at: new Date(p.created_at).toISOString() },
      });
      if (status.kind === 'pending') continue;
      const r = await applyOutcome(ctx, { provider: p.provider, ref: p.provider_ref, eventId: null, eventKind: 'reread', outcome: status });
      if (r.payment && r.payment.status !== 'pending') out.settled++;
    } catch (err) {
      out.failed++;
      ctx.log.warn({ provider: p.provider, ref: p.provider_ref, err: err instanceof Error ? err.message : String(err) }, 'scheduled re-read of a pending attempt failed');
    }
  }
  return out;
}
