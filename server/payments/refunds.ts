/**
 * Refunds: money the shop keeps no order for goes back to the payer, once.
 *
 * Refundable: a successful provider payment flagged for a person (`attention` duplicate_payment —
 * a second success on an already paid order —, order_closed, amount_mismatch, late_payment), or
 * one whose order was cancelled or rejected after the money arrived; a bank-transfer notice whose
 * money arrived (approved) for an order later cancelled or rejected, or a second notice for an
 * order already paid. Through the provider's refund call where its adapter says
 * `capabilities.refund = 'api'` (Omise, PayPal), else a recorded manual refund (bank transfer,
 * SCB, PaySolutions: a person transfers the money back).
 *
 * Once: step 1 claims the refund in one transaction under the payment's row lock (table refunds,
 * one live refund per payment or report, unique idempotency key), so a repeated or raced request
 * finds the first one's row and does not call the provider; step 2, outside the transaction, calls
 * the provider with the row's idempotency key (PayPal-Request-Id; Omise refund metadata, read back
 * before creating), so even a retry after a crash between the two steps refunds once.
 */
import type { Db, Queryable } from '../db/index';
import type { Clock } from '../clock';
import type { Providers } from '../providers/index';
import { ProviderError } from '../providers/http';
import { creditNoteForRefund } from '../documents/service';
import { countFailedRefunds, findPayment, insertRefund, liveRefund, updateRefund, type PaymentRow, type RefundRow, type ReportRow } from './repository';

export interface RefundDeps {
  db: Db;
  clock: Clock;
  /** Absent (a command line without provider settings): every refund is recorded as manual. */
  providers?: Providers | null;
}

export class RefundRefused extends Error {
  readonly status: 404 | 409 | 502;
  constructor(status: 404 | 409 | 502, message: string) {
    super(message);
    this.status = status;
    this.name = 'RefundRefused';
  }
}

export interface RefundAnswer {
  refund: RefundRow;
  /** True when this request found a refund an earlier (or concurrent) request made. */
  repeated: boolean;
}

/** A `requested` provider refund older than this is driven again (the first request died between the steps). */
export const STALE_REQUEST_MS = 120_000;

const FLAGGED = new Set(['duplicate_payment', 'order_closed', 'amount_mismatch', 'late_payment']);
const CLOSED_ORDER = new Set(['cancelled', 'rejected']);

async function orderStatus(q: Queryable, orderId: number): Promise<string | null> {
  const r = await q.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [orderId]);
  return r.rows[0]?.status ?? null;
}

/** The payment's report leaves the back office's pending list: it was answered with a refund. */
async function closeReport(q: Queryable, reportId: number | null, by: string, now: Date): Promise<void> {
  if (!reportId) return;
  await q.query(`UPDATE payment_reports SET status = 'rejected', decided_by = $2, decided_at = $3, reject_reason = 'refunded' WHERE id = $1 AND status = 'pending'`, [reportId, by, now]);
}

/** Why this payment may be refunded, or null when it pays a live order (unless the back office refunds that paid order). */
function reasonFor(p: PaymentRow, order: string | null, paidOrder: boolean): string | null {
  if (p.attention && FLAGGED.has(p.attention)) return p.attention;
  if (order && CLOSED_ORDER.has(order)) return 'order_cancelled';
  if (paidOrder && order === 'approved') return 'order_refunded';
  return null;
}

export interface RefundOptions {
  /**
   * The back office refunds the money that paid a paid order (`refundPaidOrder`): reason
   * `order_refunded`, and the refund's transaction issues a credit note against the order's tax
   * invoice (else its receipt). Without it a payment of a live order is refused.
   */
  paidOrder?: boolean;
}

/** Refunds one provider payment (payments row), through the provider or as a recorded manual refund. */
export async function refundPayment(deps: RefundDeps, paymentId: number, by: string, note: string | null = null, opts: RefundOptions = {}): Promise<RefundAnswer> {
  const claimed = await deps.db.tx(async (q) => {
    const now = deps.clock.now();
    const p = (await q.query<PaymentRow>('SELECT * FROM payments WHERE id = $1 FOR UPDATE', [paymentId])).rows[0];
    if (!p) throw new RefundRefused(404, `payment ${paymentId} not found`);
    const live = await liveRefund(q, { paymentId });
    if (live) {
      // A provider refund left `requested` by a request that died: drive it again with the same key.
      const stale = live.status === 'requested' && now.getTime() - new Date(live.updated_at).getTime() > STALE_REQUEST_MS;
      if (stale) return { refund: await updateRefund(q, live.id, { status: 'requested' }, now), drive: true, repeated: true };
      return { refund: live, drive: false, repeated: true };
    }
    if (p.status !== 'successful' || p.paid_amount === null) throw new RefundRefused(409, `payment ${paymentId} is ${p.status}: no money to refund`);
    const reason = reasonFor(p, await orderStatus(q, p.order_id), opts.paidOrder === true);
    if (!reason) throw new RefundRefused(409, `payment ${paymentId} pays order ${p.order_id}: cancel or reject the order first, or refund the paid order`);
    const provider = deps.providers?.wired().includes(p.provider) ? deps.providers.get(p.provider) : null;
    const kind = provider?.capabilities.refund === 'api' ? 'api' : 'manual';
    const n = await countFailedRefunds(q, { paymentId });
    const row = await insertRefund(
      q,
      {
        order_id: p.order_id, payment_id: p.id, report_id: null, provider: p.provider, kind, status: kind === 'api' ? 'requested' : 'refunded',
        amount: p.paid_amount, currency: p.currency, reason, idempotency_key: `refund-payment-${p.id}-${n + 1}`, requested_by: by, note,
      },
      now,
    );
    if (!row) {
      const again = await liveRefund(q, { paymentId });
      if (!again) throw new RefundRefused(409, `payment ${paymentId}: refund could not be recorded`);
      return { refund: again, drive: false, repeated: true };
    }
    if (kind === 'manual') {
      await closeReport(q, p.order_payment_id, by, now);
      await creditNoteForRefund(q, row, now);
    }
    return { refund: row, drive: kind === 'api', repeated: false };
  });
  if (!claimed.drive) return { refund: claimed.refund, repeated: claimed.repeated };

  const p = (await findPayment(deps.db, paymentId))!;
  const refund = claimed.refund;
  try {
    const r = await deps.providers!.get(p.provider).refundPayment(
      { ref: p.provider_ref, providerRef: p.provider_ref, amount: p.amount, currency: p.currency, details: p.details, txnId: p.provider_txn_id },
      refund.amount,
      refund.idempotency_key,
    );
    const done = await deps.db.tx(async (q) => {
      const now = deps.clock.now();
      const row = await updateRefund(q, refund.id, { status: 'refunded', provider_refund_id: r.kind === 'refunded' ? r.refundId : null }, now);
      await closeReport(q, p.order_payment_id, by, now);
      await creditNoteForRefund(q, row, now);
      return row;
    });
    return { refund: done, repeated: claimed.repeated };
  } catch (err) {
    const msg = err instanceof ProviderError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
    await updateRefund(deps.db, refund.id, { status: 'failed', failure: msg.slice(0, 500) }, deps.clock.now());
    throw new RefundRefused(502, `the provider refused the refund (${msg})`);
  }
}

/**
 * Records the manual refund of a bank-transfer notice: money that arrived (approved) for an order
 * later cancelled or rejected, or a second notice for an order already paid.
 */
export async function refundReport(deps: RefundDeps, reportId: number, by: string, note: string | null = null, opts: RefundOptions = {}): Promise<RefundAnswer> {
  return deps.db.tx(async (q) => {
    const now = deps.clock.now();
    const r = (await q.query<ReportRow>('SELECT * FROM payment_reports WHERE id = $1 FOR UPDATE', [reportId])).rows[0];
    if (!r) throw new RefundRefused(404, `report ${reportId} not found`);
    const live = await liveRefund(q, { reportId });
    if (live) return { refund: live, repeated: true };
    if (r.payment_id) throw new RefundRefused(409, `report ${reportId} is a provider payment: refund payment ${r.payment_id}`);
    if (r.transfer_amount <= 0) throw new RefundRefused(409, `report ${reportId} carries no money`);
    const order = await orderStatus(q, r.order_id);
    const reason =
      r.status === 'approved' && order && CLOSED_ORDER.has(order)
        ? 'order_cancelled'
        : r.status === 'pending' && order === 'approved'
          ? 'duplicate_payment'
          : opts.paidOrder && r.status === 'approved' && order === 'approved'
            ? 'order_refunded'
            : null;
    if (!reason) throw new RefundRefused(409, `report ${reportId} (${r.status}) pays order ${r.order_id} (${order ?? 'gone'}): nothing to refund`);
    const cur = await q.query<{ currency_code: 'THB' | 'USD' }>('SELECT currency_code FROM orders WHERE id = $1', [r.order_id]);
    const row = await insertRefund(
      q,
      {
        order_id: r.order_id, payment_id: null, report_id: r.id, provider: 'bank_transfer', kind: 'manual', status: 'refunded', amount: r.transfer_amount,
        currency: cur.rows[0]?.currency_code ?? 'THB', reason, idempotency_key: `refund-report-${r.id}`, requested_by: by, note,
      },
      now,
    );
    if (!row) return { refund: (await liveRefund(q, { reportId }))!, repeated: true };
    await closeReport(q, r.id, by, now);
    await creditNoteForRefund(q, row, now);
    return { refund: row, repeated: false };
  });
}

/**
 * The back office refunds a paid order: the money of the payment that paid it (`orders.order_payment_id`
 * names its report; a provider payment goes back through the provider's refund call where it has
 * one, anything else is recorded as a manual refund). The credit note is issued in the transaction
 * that records the refund as refunded (for a provider refund: when the provider has answered).
 * The order itself stays paid: the shop has no "refunded" order state; access is not withdrawn here.
 */
export async function refundPaidOrder(deps: RefundDeps, orderId: number, by: string, note: string | null = null): Promise<RefundAnswer> {
  const o = (await deps.db.query<{ status: string; order_payment_id: number | null }>('SELECT status, order_payment_id FROM orders WHERE id = $1', [orderId])).rows[0];
  if (!o) throw new RefundRefused(404, `order ${orderId} not found`);
  if (o.status !== 'approved') throw new RefundRefused(409, `order ${orderId} is ${o.status}: only a paid order is refunded this way`);
  const report = o.order_payment_id ? (await deps.db.query<ReportRow>('SELECT * FROM payment_reports WHERE id = $1', [o.order_payment_id])).rows[0] : undefined;
  if (!report) throw new RefundRefused(409, `order ${orderId} names no payment that paid it`);
  if (report.payment_id) return refundPayment(deps, report.payment_id, by, note, { paidOrder: true });
  return refundReport(deps, report.id, by, note, { paidOrder: true });
}
