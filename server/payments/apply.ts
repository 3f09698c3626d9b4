/**
 * Applying a verified provider result to an order, exactly once.
 *
 * Callers verify first (signature, or a re-read from the provider's API) outside any transaction;
 * then `applyOutcome` runs one transaction: record the provider event id (a replay stops here),
 * lock the payment row, move it forward (pending -> successful | failed | expired | cancelled;
 * nothing ever leaves successful), and for a payment that really paid OUR amount file the report
 * and approve the order through the order service. A late failure, an old event, a return URL
 * opened by hand: none can undo a paid order. The order's own transitions are the order service's.
 */
import type { Queryable } from '../db/index';
import type { AppContext } from '../context';
import { OrderStateError, type OrderForPayment } from '../orders/service';
import { ProviderError } from '../providers/http';
import {
  findPaymentByRef,
  insertPayment,
  insertReport,
  recordEvent,
  updatePayment,
  type NewPayment,
  type PaymentRow,
  type ProviderName,
} from './repository';

export type Outcome =
  | { kind: 'paid'; paidAmount: number; currency: 'THB' | 'USD'; txnId?: string | null }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'expired' }
  | { kind: 'cancelled' }
  | { kind: 'pending' };

export const REPORT_LABEL: Record<ProviderName, string> = {
  omise: 'Omise',
  scb: 'SCB',
  '2c2p': '2C2P',
  gbprime: 'GBPrimePay',
  paysolutions: 'PaySolutions',
  paypal: 'Paypal',
};

/** Providers whose QR has no expiry of its own: we enforce it, a payment after it is "late". */
const WE_ENFORCE_EXPIRY = new Set<ProviderName>(['scb', 'gbprime']);

export interface ApplyArgs {
  provider: ProviderName;
  ref: string;
  /** The provider's event / delivery id; null when the result comes from our own re-read. */
  eventId: string | null;
  eventKind: string;
  outcome: Outcome;
  /** Creates the payment row when the result arrives before our own insert committed. */
  ensure?: Omit<NewPayment, 'provider' | 'provider_ref'>;
  details?: Record<string, unknown>;
}

export interface ApplyResult {
  duplicate: boolean;
  unknown: boolean;
  /** The order changed (status or payment status). */
  changed: boolean;
  payment: PaymentRow | null;
  order: OrderForPayment | null;
}

/** The provider answered 404 for an attempt we stored (its record is gone, e.g. a sandbox restarted). */
export function isGoneAtProvider(err: unknown): boolean {
  return err instanceof ProviderError && err.status === 404;
}

/**
 * Closes a pending attempt the provider no longer knows (failed, code `not_found`), so the caller
 * starts a new one instead of answering 422 until the old one would have expired. Never touches a
 * successful attempt (applyIn keeps successful final).
 */
export async function closeGoneAttempt(ctx: AppContext, p: Pick<PaymentRow, 'provider' | 'provider_ref' | 'order_id'>): Promise<void> {
  ctx.log.warn({ provider: p.provider, ref: p.provider_ref, orderId: p.order_id }, 'provider no longer knows this attempt: a new one replaces it');
  await applyOutcome(ctx, { provider: p.provider, ref: p.provider_ref, eventId: null, eventKind: 'attempt.gone', outcome: { kind: 'failed', code: 'not_found', message: 'the provider no longer knows this attempt' } });
}

export async function applyOutcome(ctx: AppContext, args: ApplyArgs): Promise<ApplyResult> {
  return ctx.db.tx((q) => applyIn(q, ctx, args));
}

/**
 * Our own record that an attempt is pending at the provider: the row is created (`ensure`) when we
 * start it, or marked while the provider holds the money; no provider event stands behind it.
 */
export async function recordPending(ctx: AppContext, args: Omit<ApplyArgs, 'eventId' | 'outcome'>): Promise<ApplyResult> {
  return applyOutcome(ctx, { ...args, eventId: null, outcome: { kind: 'pending' } });
}

export async function applyIn(q: Queryable, ctx: AppContext, args: ApplyArgs): Promise<ApplyResult> {
  const now = ctx.clock.now();
  let p = await findPaymentByRef(q, args.provider, args.ref, true);
  if (!p && args.ensure) {
    await insertPayment(q, { ...args.ensure, provider: args.provider, provider_ref: args.ref }, now);
    p = await findPaymentByRef(q, args.provider, args.ref, true);
  } else if (p && args.ensure) {
    // A callback may have created the row first (it raced our own insert): add what it lacked.
    const e = args.ensure;
    const fill: Partial<PaymentRow> = {};
    if (!p.authorize_uri && e.authorize_uri) fill.authorize_uri = e.authorize_uri;
    if (!p.expires_at && e.expires_at) fill.expires_at = e.expires_at;
    if (e.details && Object.keys(e.details).some((k) => !(k in p!.details))) fill.details = { ...e.details, ...p.details };
    if (Object.keys(fill).length > 0) p = await updatePayment(q, p.id, fill, now);
  }
  if (!p) return { duplicate: false, unknown: true, changed: false, payment: null, order: null };
  if (args.eventId) {
    const fresh = await recordEvent(q, { provider: args.provider, eventId: args.eventId, kind: args.eventKind, orderId: p.order_id, paymentId: p.id, outcome: args.outcome.kind });
    if (!fresh) return { duplicate: true, unknown: false, changed: false, payment: p, order: null };
  }
  const before = await ctx.orders.getOrderForPayment(q, p.order_id);
  if (!before) return { duplicate: false, unknown: true, changed: false, payment: p, order: null };
  const details = args.details ? { ...p.details, ...args.details } : p.details;

  // Successful is final.
  if (p.status === 'successful') return { duplicate: false, unknown: false, changed: false, payment: p, order: before };

  const o = args.outcome;
  if (o.kind === 'pending') {
    if (args.details) p = await updatePayment(q, p.id, { details }, now);
    return { duplicate: false, unknown: false, changed: false, payment: p, order: before };
  }
  if (o.kind !== 'paid') {
    if (p.status !== 'pending') return { duplicate: false, unknown: false, changed: false, payment: p, order: before };
    p = await updatePayment(
      q,
      p.id,
      {
        status: o.kind === 'failed' ? 'failed' : o.kind,
        failure_code: o.kind === 'failed' ? o.code : o.kind,
        failure_message: o.kind === 'failed' ? o.message : o.kind === 'expired' ? 'expired' : 'cancelled by the payer',
        details,
      },
      now,
    );
    return { duplicate: false, unknown: false, changed: false, payment: p, order: before };
  }

  // Paid: the money moved. Approve only when it is OUR amount for a payable order.
  const late = WE_ENFORCE_EXPIRY.has(p.provider) && (p.status === 'expired' || (p.expires_at !== null && p.expires_at.getTime() < now.getTime()));
  const amountOk = o.paidAmount === p.amount && o.currency === p.currency && p.amount === before.total && p.currency === before.currency_code;
  // Another payment already paid this order (an earlier attempt succeeding late after a later
  // one, or the other way round): applied once, this money is kept for a refund by a person.
  const duplicate = before.status === 'approved';
  const attention = duplicate ? 'duplicate_payment' : !amountOk ? 'amount_mismatch' : late ? 'late_payment' : null;
  p = await updatePayment(q, p.id, { status: 'successful', paid_amount: o.paidAmount, provider_txn_id: o.txnId ?? p.provider_txn_id, attention, details }, now);
  const report = await insertReport(
    q,
    {
      order_id: p.order_id,
      user_id: before.user_id,
      payment_method_id: p.method_id,
      payment: REPORT_LABEL[p.provider],
      status: attention ? 'pending' : 'approved',
      contact_name: `${before.user.firstname} ${before.user.lastname}`.trim() || null,
      email: before.email ?? before.user.email,
      tel: before.tel,
      bank_code: null,
      bank_account: null,
      transfer_at: now,
      transfer_amount: o.paidAmount,
      description: `${REPORT_LABEL[p.provider]} ${p.provider_ref}${o.txnId ? ` / ${o.txnId}` : ''}`,
      address: null,
      slip: null,
      payment_id: p.id,
      decided_by: attention ? null : p.provider,
      decided_at: attention ? null : now,
    },
    now,
  );
  p = await updatePayment(q, p.id, { order_payment_id: report.id }, now);
  if (attention) return { duplicate: false, unknown: false, changed: false, payment: p, order: before };
  try {
    const after = await ctx.orders.approveOrderPayment(q, { orderId: p.order_id, orderPaymentId: report.id, approveBy: p.provider, paymentMethodId: p.method_id });
    const changed = after.status !== before.status || after.payment_status !== before.payment_status;
    return { duplicate: false, unknown: false, changed, payment: p, order: after };
  } catch (err) {
    if (!(err instanceof OrderStateError)) throw err;
    // Paid, but the order was cancelled and its seats / stock / coupon are gone: a person refunds or re-opens.
    p = await updatePayment(q, p.id, { attention: 'order_closed' }, now);
    await q.query(`UPDATE payment_reports SET status = 'pending', decided_by = NULL, decided_at = NULL WHERE id = $1`, [report.id]);
    ctx.log.warn({ orderId: p.order_id, paymentId: p.id, code: err.code }, 'payment received for an order that cannot be approved');
    return { duplicate: false, unknown: false, changed: false, payment: p, order: before };
  }
}
