/**
 * Back office: list what waits for a person and move orders by hand. Used by the protected
 * /admin pages and JSON API (server/admin/routes.ts) and by `npm run admin` (scripts/admin.ts).
 * Every order status can be reached: notYetReceived (a new order), pendingApproved (a report
 * waits), approved, rejected, cancelled.
 */
import type { Db, Queryable } from '../db/index';
import type { Clock } from '../clock';
import type { OrderService } from '../orders/service';
import { decideReport, findReport, insertReport, paymentsOfOrder, refundsOfOrder, reportsOfOrder, type PaymentRow, type RefundRow, type ReportRow } from '../payments/repository';
import { RefundRefused, refundPaidOrder, refundPayment, refundReport, type RefundAnswer } from '../payments/refunds';
import type { Providers } from '../providers/index';

export interface AdminDeps {
  db: Db;
  orders: OrderService;
  clock: Clock;
  /** The provider interface (refunds through the provider); absent: refunds are recorded as manual. */
  providers?: Providers | null;
}

export class AdminError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
    this.name = 'AdminError';
  }
}

export interface PendingItem {
  report_id: number;
  order_id: number;
  order_status: string;
  payment: string;
  payment_method_id: number | null;
  contact_name: string | null;
  email: string | null;
  transfer_amount: number;
  order_total: number;
  currency: string;
  bank_code: string | null;
  bank_account: string | null;
  slip: string | null;
  transfer_at: Date | null;
  description: string | null;
  attention: string | null;
  payment_id: number | null;
  created_at: Date;
}

export async function listPending(q: Queryable): Promise<PendingItem[]> {
  const r = await q.query<PendingItem>(
    `SELECT r.id AS report_id, r.order_id, o.status AS order_status, r.payment, r.payment_method_id, r.contact_name, r.email,
            r.transfer_amount, o.total AS order_total, o.currency_code AS currency, r.bank_code, r.bank_account, r.slip, r.transfer_at,
            r.description, p.attention, r.payment_id, r.created_at
       FROM payment_reports r JOIN orders o ON o.id = r.order_id LEFT JOIN payments p ON p.id = r.payment_id
      WHERE r.status = 'pending'
      ORDER BY r.created_at, r.id`,
  );
  return r.rows;
}

export interface OrderListItem {
  id: number;
  order_token: string;
  user_id: number;
  email: string | null;
  status: string;
  payment_status: string;
  payment_method_id: number | null;
  total: number;
  currency_code: string;
  created_at: Date;
}

export async function listOrders(q: Queryable, status?: string, limit = 50): Promise<OrderListItem[]> {
  const params: unknown[] = [Math.min(Math.max(limit, 1), 500)];
  let where = '';
  if (status) {
    params.push(status);
    where = 'WHERE o.status = $2';
  }
  const r = await q.query<OrderListItem>(
    `SELECT o.id, o.order_token, o.user_id, coalesce(o.email, u.email) AS email, o.status, o.payment_status, o.payment_method_id, o.total, o.currency_code, o.created_at
       FROM orders o JOIN users u ON u.id = o.user_id ${where} ORDER BY o.id DESC LIMIT $1`,
    params,
  );
  return r.rows;
}

export async function orderDetail(q: Queryable, deps: AdminDeps, orderId: number): Promise<{ order: unknown; payments: PaymentRow[]; reports: ReportRow[]; refunds: RefundRow[] }> {
  const order = await deps.orders.getOrderForPayment(q, orderId);
  if (!order) throw new AdminError(404, `order ${orderId} not found`);
  return { order, payments: await paymentsOfOrder(q, orderId), reports: await reportsOfOrder(q, orderId), refunds: await refundsOfOrder(q, orderId) };
}

/** Recent refunds (back office page). */
export async function listRefunds(q: Queryable, limit = 30): Promise<RefundRow[]> {
  const r = await q.query<RefundRow>('SELECT * FROM refunds ORDER BY id DESC LIMIT $1', [Math.min(Math.max(limit, 1), 500)]);
  return r.rows;
}

function refundRefused(err: unknown): never {
  if (err instanceof RefundRefused) throw new AdminError(err.status, err.message);
  throw err;
}

/**
 * Refunds a provider payment (a duplicate payment, a payment for a cancelled order...): through
 * the provider where it offers a refund call, else recorded as a manual refund. Repeated or raced
 * requests answer the same refund (server/payments/refunds.ts).
 */
export async function refundPaymentAction(deps: AdminDeps, paymentId: number, admin: string, note: string): Promise<RefundAnswer> {
  return refundPayment(deps, paymentId, by(admin), note || null).catch(refundRefused);
}

/** Refunds a paid order (the payment that paid it) and issues its credit note in the same transaction. */
export async function refundOrderAction(deps: AdminDeps, orderId: number, admin: string, note: string): Promise<RefundAnswer> {
  return refundPaidOrder(deps, orderId, by(admin), note || null).catch(refundRefused);
}

/** Records the manual refund of a bank-transfer notice. */
export async function refundReportAction(deps: AdminDeps, reportId: number, admin: string, note: string): Promise<RefundAnswer> {
  return refundReport(deps, reportId, by(admin), note || null).catch(refundRefused);
}

function by(admin: string): string {
  return `admin:${admin || 'cli'}`.slice(0, 100);
}

/** A pending report, locked, and its order (404 when either is gone, 409 when the report is decided). */
async function pendingReport(deps: AdminDeps, q: Queryable, reportId: number) {
  const r = await findReport(q, reportId, true);
  if (!r) throw new AdminError(404, `report ${reportId} not found`);
  if (r.status !== 'pending') throw new AdminError(409, `report ${reportId} is already ${r.status}`);
  const o = await deps.orders.getOrderForPayment(q, r.order_id);
  if (!o) throw new AdminError(404, `order ${r.order_id} not found`);
  return { r, o };
}

/** Approves a pending report (bank transfer, NeedApprovedFree, a flagged provider payment) and its order. */
export async function approveReport(deps: AdminDeps, reportId: number, admin: string): Promise<ReportRow> {
  return deps.db.tx(async (q) => {
    const { r, o } = await pendingReport(deps, q, reportId);
    await deps.orders.approveOrderPayment(q, { orderId: o.id, orderPaymentId: r.id, approveBy: by(admin), paymentMethodId: r.payment_method_id ?? o.payment_method_id ?? 1 });
    if (r.payment_id) await q.query('UPDATE payments SET attention = NULL, updated_at = $2 WHERE id = $1', [r.payment_id, deps.clock.now()]);
    return decideReport(q, r.id, 'approved', by(admin), deps.clock.now());
  });
}

/**
 * Rejects a pending report — that report only. A pendingApproved order with no
 * other pending report waits for payment again (its auto-cancel applies); rejecting the order
 * itself is the explicit order action `reject`.
 */
export async function rejectReport(deps: AdminDeps, reportId: number, admin: string, reason: string): Promise<ReportRow> {
  return deps.db.tx(async (q) => {
    const { r, o } = await pendingReport(deps, q, reportId);
    const decided = await decideReport(q, r.id, 'rejected', by(admin), deps.clock.now(), reason || null);
    const others = (await reportsOfOrder(q, o.id)).filter((x) => x.id !== r.id && x.status === 'pending');
    if (others.length === 0) await deps.orders.reopenOrder(q, o.id);
    return decided;
  });
}

export type OrderAction = 'approve' | 'reject' | 'cancel' | 'pending';

/**
 * The shop's whitelist (spec section 6): a student taken off it may not log in, and the sessions
 * they hold are refused on every student operation (WHITELIST_USER_DENIED; the page shows the
 * sign-out modal and logs out); put back, the same sessions work again.
 */
export async function setOnWhitelist(deps: AdminDeps, userId: number, on: boolean): Promise<{ id: number; on_whitelist: boolean }> {
  const r = await deps.db.query<{ id: number; off_whitelist_at: Date | null }>(
    `UPDATE users SET off_whitelist_at = CASE WHEN $2 THEN NULL ELSE coalesce(off_whitelist_at, $3) END WHERE id = $1 AND role = 'student' RETURNING id, off_whitelist_at`,
    [userId, on, deps.clock.now()],
  );
  const row = r.rows[0];
  if (!row) throw new AdminError(404, `student ${userId} not found`);
  return { id: row.id, on_whitelist: row.off_whitelist_at === null };
}

/** Moves an order by hand. `approve` files an approved manual report for the record. */
export async function orderAction(deps: AdminDeps, orderId: number, action: OrderAction, admin: string, reason = ''): Promise<{ id: number; status: string; payment_status: string }> {
  return deps.db.tx(async (q) => {
    const o = await deps.orders.getOrderForPayment(q, orderId);
    if (!o) throw new AdminError(404, `order ${orderId} not found`);
    try {
      if (action === 'approve') {
        if (o.status === 'approved') return o;
        const now = deps.clock.now();
        const r = await insertReport(
          q,
          {
            order_id: o.id, user_id: o.user_id, payment_method_id: o.payment_method_id, payment: 'Manual', status: 'approved', contact_name: null, email: o.email, tel: o.tel,
            bank_code: null, bank_account: null, transfer_at: now, transfer_amount: o.total, description: reason || 'Approved by admin', address: null, slip: null, payment_id: null, decided_by: by(admin), decided_at: now,
          },
          now,
        );
        return await deps.orders.approveOrderPayment(q, { orderId: o.id, orderPaymentId: r.id, approveBy: by(admin), paymentMethodId: o.payment_method_id ?? 1 });
      }
      if (action === 'reject') {
        const after = await deps.orders.rejectOrder(q, o.id, reason || 'Rejected by admin');
        await q.query(`UPDATE payment_reports SET status = 'rejected', decided_by = $2, decided_at = $3, reject_reason = $4 WHERE order_id = $1 AND status = 'pending'`, [o.id, by(admin), deps.clock.now(), reason || null]);
        return after;
      }
      if (action === 'cancel') return await deps.orders.cancelOrder(q, o.id);
      return await deps.orders.markOrderPendingApproval(q, o.id);
    } catch (err) {
      if (err instanceof Error && err.name === 'OrderStateError') throw new AdminError(409, err.message);
      throw err;
    }
  });
}
