/**
 * Payment rows (one per provider attempt), payment reports and provider events. Every function
 * takes the Queryable of the caller's transaction. Money in minor units, times UTC.
 */
import type { Queryable } from '../db/index';

export type ProviderName = 'omise' | 'scb' | '2c2p' | 'gbprime' | 'paysolutions' | 'paypal';
export type PaymentStatus = 'pending' | 'successful' | 'failed' | 'expired' | 'cancelled';
export type Attention = 'amount_mismatch' | 'late_payment' | 'order_closed' | 'duplicate_payment';

export interface PaymentRow {
  id: number;
  order_id: number;
  provider: ProviderName;
  method_id: number;
  provider_ref: string;
  status: PaymentStatus;
  amount: number;
  currency: 'THB' | 'USD';
  paid_amount: number | null;
  provider_txn_id: string | null;
  failure_code: string | null;
  failure_message: string | null;
  authorize_uri: string | null;
  expires_at: Date | null;
  attention: Attention | null;
  order_payment_id: number | null;
  details: Record<string, unknown>;
  /** When the scheduled re-read last asked the provider about this pending attempt. */
  reread_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type RefundStatus = 'requested' | 'refunded' | 'failed';

/** One refund (migration 310_refunds.sql): of a provider payment, or of a bank-transfer notice. */
export interface RefundRow {
  id: number;
  order_id: number;
  payment_id: number | null;
  report_id: number | null;
  provider: string;
  kind: 'api' | 'manual';
  status: RefundStatus;
  amount: number;
  currency: 'THB' | 'USD';
  reason: string;
  idempotency_key: string;
  provider_refund_id: string | null;
  requested_by: string;
  note: string | null;
  failure: string | null;
  created_at: Date;
  updated_at: Date;
}

export type NewRefund = Pick<RefundRow, 'order_id' | 'payment_id' | 'report_id' | 'provider' | 'kind' | 'status' | 'amount' | 'currency' | 'reason' | 'idempotency_key' | 'requested_by' | 'note'> & { provider_refund_id?: string | null };

/** Inserts a refund unless a live one exists for the same payment / report or key (null then). */
export async function insertRefund(q: Queryable, r: NewRefund, now: Date): Promise<RefundRow | null> {
  const res = await q.query<RefundRow>(
    `INSERT INTO refunds (order_id, payment_id, report_id, provider, kind, status, amount, currency, reason, idempotency_key, provider_refund_id, requested_by, note, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)
     ON CONFLICT DO NOTHING RETURNING *`,
    [r.order_id, r.payment_id, r.report_id, r.provider, r.kind, r.status, r.amount, r.currency, r.reason, r.idempotency_key, r.provider_refund_id ?? null, r.requested_by, r.note, now],
  );
  return res.rows[0] ?? null;
}

/** The live (requested or refunded) refund of a payment or report. */
export async function liveRefund(q: Queryable, by: { paymentId?: number; reportId?: number }): Promise<RefundRow | null> {
  const col = by.paymentId !== undefined ? 'payment_id' : 'report_id';
  const r = await q.query<RefundRow>(`SELECT * FROM refunds WHERE ${col} = $1 AND status <> 'failed' ORDER BY id DESC LIMIT 1`, [by.paymentId ?? by.reportId]);
  return r.rows[0] ?? null;
}

export async function refundsOfOrder(q: Queryable, orderId: number): Promise<RefundRow[]> {
  const r = await q.query<RefundRow>('SELECT * FROM refunds WHERE order_id = $1 ORDER BY id', [orderId]);
  return r.rows;
}

export async function countFailedRefunds(q: Queryable, by: { paymentId?: number; reportId?: number }): Promise<number> {
  const col = by.paymentId !== undefined ? 'payment_id' : 'report_id';
  const r = await q.query<{ n: string | number }>(`SELECT count(*) AS n FROM refunds WHERE ${col} = $1 AND status = 'failed'`, [by.paymentId ?? by.reportId]);
  return Number(r.rows[0]?.n ?? 0);
}

export async function updateRefund(q: Queryable, id: number, set: Partial<Pick<RefundRow, 'status' | 'provider_refund_id' | 'failure'>>, now: Date): Promise<RefundRow> {
  const cols = Object.keys(set) as (keyof typeof set)[];
  const sql = `UPDATE refunds SET ${[...cols.map((c, i) => `${c} = $${i + 2}`), `updated_at = $${cols.length + 2}`].join(', ')} WHERE id = $1 RETURNING *`;
  const r = await q.query<RefundRow>(sql, [id, ...cols.map((c) => set[c]), now]);
  return r.rows[0]!;
}

export type ReportStatus = 'pending' | 'approved' | 'rejected';

export interface ReportRow {
  id: number;
  order_id: number;
  user_id: number | null;
  payment_method_id: number | null;
  payment: string;
  status: ReportStatus;
  contact_name: string | null;
  email: string | null;
  tel: string | null;
  bank_code: string | null;
  bank_account: string | null;
  transfer_at: Date | null;
  transfer_amount: number;
  description: string | null;
  address: string | null;
  slip: string | null;
  payment_id: number | null;
  decided_by: string | null;
  decided_at: Date | null;
  reject_reason: string | null;
  created_at: Date;
}

export interface NewPayment {
  order_id: number;
  provider: ProviderName;
  method_id: number;
  provider_ref: string;
  amount: number;
  currency: 'THB' | 'USD';
  authorize_uri?: string | null;
  expires_at?: Date | null;
  details?: Record<string, unknown>;
  status?: PaymentStatus;
}

/** Inserts the attempt; an existing (provider, provider_ref) row is returned unchanged. */
export async function insertPayment(q: Queryable, p: NewPayment, now: Date): Promise<PaymentRow> {
  const r = await q.query<PaymentRow>(
    `INSERT INTO payments (order_id, provider, method_id, provider_ref, amount, currency, authorize_uri, expires_at, details, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
     ON CONFLICT (provider, provider_ref) DO NOTHING
     RETURNING *`,
    [p.order_id, p.provider, p.method_id, p.provider_ref, p.amount, p.currency, p.authorize_uri ?? null, p.expires_at ?? null, JSON.stringify(p.details ?? {}), p.status ?? 'pending', now],
  );
  if (r.rows[0]) return r.rows[0];
  const existing = await findPaymentByRef(q, p.provider, p.provider_ref);
  if (!existing) throw new Error('payment row vanished');
  return existing;
}

export async function findPaymentByRef(q: Queryable, provider: ProviderName, ref: string, forUpdate = false): Promise<PaymentRow | null> {
  const r = await q.query<PaymentRow>(`SELECT * FROM payments WHERE provider = $1 AND provider_ref = $2${forUpdate ? ' FOR UPDATE' : ''}`, [provider, ref]);
  return r.rows[0] ?? null;
}

export async function findPayment(q: Queryable, id: number): Promise<PaymentRow | null> {
  const r = await q.query<PaymentRow>('SELECT * FROM payments WHERE id = $1', [id]);
  return r.rows[0] ?? null;
}

export async function paymentsOfOrder(q: Queryable, orderId: number): Promise<PaymentRow[]> {
  const r = await q.query<PaymentRow>('SELECT * FROM payments WHERE order_id = $1 ORDER BY id', [orderId]);
  return r.rows;
}

/** The newest attempt of a provider + method for an order that is still pending (and not past its expiry). */
export async function openPayment(q: Queryable, orderId: number, provider: ProviderName, methodId: number, now: Date): Promise<PaymentRow | null> {
  const r = await q.query<PaymentRow>(
    `SELECT * FROM payments WHERE order_id = $1 AND provider = $2 AND method_id = $3 AND status = 'pending'
       AND (expires_at IS NULL OR expires_at > $4) ORDER BY id DESC LIMIT 1`,
    [orderId, provider, methodId, now],
  );
  return r.rows[0] ?? null;
}

export async function successfulPayment(q: Queryable, orderId: number): Promise<PaymentRow | null> {
  const r = await q.query<PaymentRow>(`SELECT * FROM payments WHERE order_id = $1 AND status = 'successful' AND attention IS NULL ORDER BY id LIMIT 1`, [orderId]);
  return r.rows[0] ?? null;
}

export async function updatePayment(q: Queryable, id: number, set: Partial<Omit<PaymentRow, 'id' | 'created_at'>>, now: Date): Promise<PaymentRow> {
  const cols = Object.keys(set) as (keyof typeof set)[];
  const values = cols.map((c) => (c === 'details' ? JSON.stringify(set[c]) : set[c]));
  const sql = `UPDATE payments SET ${[...cols.map((c, i) => `${c} = $${i + 2}`), `updated_at = $${cols.length + 2}`].join(', ')} WHERE id = $1 RETURNING *`;
  const r = await q.query<PaymentRow>(sql, [id, ...values, now]);
  return r.rows[0]!;
}

/** Records a provider event id; false when it was already recorded (a replay). */
export async function recordEvent(q: Queryable, e: { provider: string; eventId: string; kind: string; orderId?: number | null; paymentId?: number | null; outcome?: string | null }): Promise<boolean> {
  const r = await q.query<{ event_id: string }>(
    `INSERT INTO provider_events (provider, event_id, kind, order_id, payment_id, outcome) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id`,
    [e.provider, e.eventId, e.kind, e.orderId ?? null, e.paymentId ?? null, e.outcome ?? null],
  );
  return r.rows.length === 1;
}

export type NewReport = Omit<ReportRow, 'id' | 'created_at' | 'decided_by' | 'decided_at' | 'reject_reason' | 'status'> & { status?: ReportStatus; decided_by?: string | null; decided_at?: Date | null };

export async function insertReport(q: Queryable, r: NewReport, now: Date): Promise<ReportRow> {
  const cols = ['order_id', 'user_id', 'payment_method_id', 'payment', 'status', 'contact_name', 'email', 'tel', 'bank_code', 'bank_account', 'transfer_at', 'transfer_amount', 'description', 'address', 'slip', 'payment_id', 'decided_by', 'decided_at', 'created_at'] as const;
  const row: Record<string, unknown> = { status: 'pending', decided_by: null, decided_at: null, ...r, created_at: now };
  const res = await q.query<ReportRow>(`INSERT INTO payment_reports (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`, cols.map((c) => row[c] ?? null));
  return res.rows[0]!;
}

export async function findReport(q: Queryable, id: number, forUpdate = false): Promise<ReportRow | null> {
  const r = await q.query<ReportRow>(`SELECT * FROM payment_reports WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return r.rows[0] ?? null;
}

export async function reportsOfOrder(q: Queryable, orderId: number): Promise<ReportRow[]> {
  const r = await q.query<ReportRow>('SELECT * FROM payment_reports WHERE order_id = $1 ORDER BY id', [orderId]);
  return r.rows;
}

export async function decideReport(q: Queryable, id: number, status: 'approved' | 'rejected', by: string, now: Date, reason: string | null = null): Promise<ReportRow> {
  const r = await q.query<ReportRow>(`UPDATE payment_reports SET status = $2, decided_by = $3, decided_at = $4, reject_reason = $5 WHERE id = $1 RETURNING *`, [id, status, by, now, reason]);
  return r.rows[0]!;
}

/** The account is one of the shop's bank accounts. */
export async function bankAccountExists(q: Queryable, accountId: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM bank_accounts WHERE account_id = $1', [accountId])).rows.length > 0;
}
