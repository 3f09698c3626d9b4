/**
 * The order service: state changes of an order, each emitting `order.statusChanged` after the
 * transaction commits. The payments plugin calls these through `ctx.orders` with the Queryable of
 * its own transaction (or `ctx.db` for a one-statement change):
 *
 *   await ctx.db.tx((q) => ctx.orders.approveOrderPayment(q, { orderId, approveBy: 'omise', paymentMethodId: 8 }));
 */
import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/index';
import { afterCommit } from '../db/index';
import type { EventBus } from '../events';
import type { Clock } from '../clock';
import type { AbuseLimits } from '../config';
import { releaseLapsedHolds, sweepOrders } from './holds';
import { issueForPaidOrder } from '../documents/service';
import {
  findOrder,
  orderCourses,
  releaseResources,
  retakeResources,
  type OrderCourseRow,
  type OrderRow,
  type OrderStatus,
  type PaymentStatus,
} from './repository';

export type { OrderRow, OrderCourseRow, OrderStatus, PaymentStatus } from './repository';

/** What a payment flow needs to know about an order. Money in minor units. */
export interface OrderForPayment extends OrderRow {
  /** Amount to pay: price − discount + shipping_fee − withholding_price. */
  total: number;
  courses: OrderCourseRow[];
  user: { id: number; email: string; firstname: string; lastname: string; tel: string | null };
}

export interface ApproveArgs {
  orderId: number;
  /** The payments side's report / payment row, kept on the order for reference. */
  orderPaymentId?: number | null;
  /** Who or what approved: 'system', 'admin:<id>', a provider name… */
  approveBy: string;
  paymentMethodId: number;
}

/** An order cannot make the asked change (already approved, cancelled and unavailable, …). */
export class OrderStateError extends Error {
  readonly code: 'ORDER_NOT_FOUND' | 'ORDER_ALREADY_APPROVED' | 'ORDER_CANCELLED' | 'ORDER_REJECTED';
  constructor(code: OrderStateError['code'], message: string) {
    super(message);
    this.name = 'OrderStateError';
    this.code = code;
  }
}

export interface OrderService {
  /** The order with lines and buyer; with userId only when it belongs to that user. null when absent. */
  getOrderForPayment(q: Queryable, orderId: number, userId?: number): Promise<OrderForPayment | null>;
  /** Marks the order paid (status approved, payment_status approved). Idempotent. */
  approveOrderPayment(q: Queryable, args: ApproveArgs): Promise<OrderForPayment>;
  /** A payment was reported and waits for an admin (status pendingApproved). */
  markOrderPendingApproval(q: Queryable, orderId: number, orderPaymentId?: number | null): Promise<OrderForPayment>;
  /**
   * A pending report was refused: a pendingApproved order waits for payment again (notYetReceived,
   * its seats still held until its cancel_at). Any other status is left as it is.
   */
  reopenOrder(q: Queryable, orderId: number): Promise<OrderForPayment>;
  /** Rejects the order (payment refused); gives seats, stock and coupon uses back. */
  rejectOrder(q: Queryable, orderId: number, reason: string): Promise<OrderForPayment>;
  /** Cancels an unpaid order; gives seats, stock and coupon uses back. Idempotent. */
  cancelOrder(q: Queryable, orderId: number): Promise<OrderForPayment>;
  /** Cancels every unpaid order whose cancel_at has passed; returns how many. */
  cancelExpiredOrders(now?: Date): Promise<number>;
}

/** How long a pending payment report holds an unpaid order past its cancel_at (default 72 h). */
export function pendingReportHoldMs(env: NodeJS.ProcessEnv = process.env): number {
  const h = Number(env.PENDING_REPORT_HOLD_HOURS);
  return (Number.isFinite(h) && h >= 0 ? h : 72) * 3_600_000;
}

/** SQL: order `o` has reports, and none of them is pending and newer than $2 (the hold's start). */
const STALE_PENDING = `EXISTS (SELECT 1 FROM payment_reports r WHERE r.order_id = o.id)
  AND NOT EXISTS (SELECT 1 FROM payment_reports r WHERE r.order_id = o.id AND r.status = 'pending' AND r.created_at > $2)`;

/** A random url-safe order token (used by /thankyou?orderId=…). */
export function newOrderToken(): string {
  return randomBytes(18).toString('base64url');
}

export function createOrderService(deps: { db: Db; events: EventBus; clock: Clock; abuse?: AbuseLimits }): OrderService {
  const { db, events, clock, abuse } = deps;

  function emitAfterCommit(q: Queryable, o: OrderRow): void {
    const payload = { orderId: o.id, userId: o.user_id, status: o.status, paymentStatus: o.payment_status };
    afterCommit(q, () => events.emit('order.statusChanged', payload));
  }

  async function full(q: Queryable, o: OrderRow): Promise<OrderForPayment> {
    const courses = await orderCourses(q, o.id);
    const u = await q.query<OrderForPayment['user']>('SELECT id, email, firstname, lastname, tel FROM users WHERE id = $1', [o.user_id]);
    const user = u.rows[0] ?? { id: o.user_id, email: o.email ?? '', firstname: '', lastname: '', tel: o.tel };
    return { ...o, courses, user };
  }

  async function lockOrThrow(q: Queryable, orderId: number): Promise<OrderRow> {
    const o = await findOrder(q, orderId, { forUpdate: true });
    if (!o) throw new OrderStateError('ORDER_NOT_FOUND', `order ${orderId} not found`);
    return o;
  }

  async function setStatus(q: Queryable, o: OrderRow, status: OrderStatus, paymentStatus: PaymentStatus, extra: Record<string, unknown> = {}): Promise<OrderRow> {
    const cols = Object.keys(extra);
    const sets = ['status = $2', 'payment_status = $3', 'updated_at = $4', ...cols.map((c, i) => `${c} = $${i + 5}`)];
    const r = await q.query<OrderRow>(`UPDATE orders SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, [o.id, status, paymentStatus, clock.now(), ...cols.map((c) => extra[c])]);
    const next = r.rows[0]!;
    if (o.status !== next.status || o.payment_status !== next.payment_status) emitAfterCommit(q, next);
    return next;
  }

  async function cancelLocked(q: Queryable, o: OrderRow): Promise<OrderRow> {
    if (o.status === 'cancelled') return o;
    if (o.status === 'approved') throw new OrderStateError('ORDER_ALREADY_APPROVED', `order ${o.id} is already paid`);
    await releaseResources(q, o);
    return setStatus(q, o, 'cancelled', 'rejected', { cancelled_at: clock.now() });
  }

  const service: OrderService = {
    async getOrderForPayment(q, orderId, userId) {
      const o = await findOrder(q, orderId, userId === undefined ? {} : { userId });
      return o ? full(q, o) : null;
    },

    async approveOrderPayment(q, args) {
      const o = await lockOrThrow(q, args.orderId);
      if (o.status === 'approved') return full(q, o);
      if (o.resources_released) {
        const ok = await retakeResources(q, o);
        if (!ok) throw new OrderStateError('ORDER_CANCELLED', `order ${o.id} was cancelled and its seats, stock or coupon are no longer available`);
      }
      const next = await setStatus(q, o, 'approved', 'approved', {
        approved_at: clock.now(),
        approve_by: args.approveBy,
        payment_method_id: args.paymentMethodId,
        order_payment_id: args.orderPaymentId ?? o.order_payment_id,
        cancelled_at: null,
        is_deleted: false,
      });
      // Its receipt (and tax invoice), numbered in this same transaction (server/documents/service.ts).
      await issueForPaidOrder(q, next.id, clock.now());
      return full(q, next);
    },

    async markOrderPendingApproval(q, orderId, orderPaymentId) {
      const o = await lockOrThrow(q, orderId);
      if (o.status === 'approved') return full(q, o);
      if (o.status === 'cancelled') throw new OrderStateError('ORDER_CANCELLED', `order ${o.id} is cancelled`);
      if (o.status === 'rejected') throw new OrderStateError('ORDER_REJECTED', `order ${o.id} is rejected`);
      // A reported payment waits for the admin; the sweep only cancels notYetReceived orders.
      const next = await setStatus(q, o, 'pendingApproved', 'pendingApproved', { order_payment_id: orderPaymentId ?? o.order_payment_id });
      return full(q, next);
    },

    async reopenOrder(q, orderId) {
      const o = await lockOrThrow(q, orderId);
      if (o.status !== 'pendingApproved') return full(q, o);
      return full(q, await setStatus(q, o, 'notYetReceived', 'notYetReceived'));
    },

    async rejectOrder(q, orderId, reason) {
      const o = await lockOrThrow(q, orderId);
      if (o.status === 'rejected') return full(q, o);
      if (o.status === 'approved') throw new OrderStateError('ORDER_ALREADY_APPROVED', `order ${o.id} is already paid`);
      await releaseResources(q, o);
      const next = await setStatus(q, o, 'rejected', 'rejected', { reject_reason: reason });
      return full(q, next);
    },

    async cancelOrder(q, orderId) {
      const o = await lockOrThrow(q, orderId);
      return full(q, await cancelLocked(q, o));
    },

    async cancelExpiredOrders(now = clock.now()) {
      // First the short hold on scarce things (server/orders/holds.ts): lapsed holds go back on sale.
      if (abuse) await releaseLapsedHolds(db, now, abuse);
      // Unpaid orders past cancel_at; and pendingApproved ones whose buyer's reports have all waited
      // longer than the hold (PENDING_REPORT_HOLD_HOURS) without an admin deciding — a report of any
      // amount must not hold seats, stock and coupon uses forever. An order an admin put on hold by
      // hand (pendingApproved without any report) is left to the admin.
      const holdFrom = new Date(now.getTime() - pendingReportHoldMs());
      const due = await db.query<{ id: number }>(
        `SELECT o.id FROM orders o WHERE o.cancel_at IS NOT NULL AND o.cancel_at <= $1 AND (o.status = 'notYetReceived' OR (o.status = 'pendingApproved' AND ${STALE_PENDING})) ORDER BY o.id LIMIT 500`,
        [now, holdFrom],
      );
      return sweepOrders(db, due.rows, async (q, o) => {
        // Re-check under the lock: a payment or a new report may have arrived meanwhile.
        if (!o.cancel_at || o.cancel_at.getTime() > now.getTime()) return false;
        if (o.status === 'pendingApproved') {
          const stale = await q.query(`SELECT 1 FROM orders o WHERE o.id = $1 AND ${STALE_PENDING}`, [o.id, holdFrom]);
          if (stale.rows.length === 0) return false;
        } else if (o.status !== 'notYetReceived') return false;
        await cancelLocked(q, o);
        return true;
      });
    },
  };
  return service;
}
