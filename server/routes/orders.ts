/** Order creation (idempotent), delete, read, owned courses (tag orders; approval is the payments plugin's). */
import type { Handlers } from '../openapi/router';
import type { components } from '../../generated/api';
import { ApiError, requestLocale } from '../errors';
import { createOrder } from '../orders/create';
import { findOrder, findOrderByToken, lastAttempt, markOrderDeleted, orderCourses, ordersOfUser, type OrderRow } from '../orders/repository';
import type { Queryable } from '../db/index';
import { orderOutcome } from '../../domain/order-outcome';
import { orderedCourses } from '../orders/status';
import { accessPeriods } from '../orders/access';
import { MSG } from '../../domain/messages';

type S = components['schemas'];

export function orderForApi(o: OrderRow, lines: Awaited<ReturnType<typeof orderCourses>>, attempt: Awaited<ReturnType<typeof lastAttempt>> = null): S['Order'] {
  const outcome = orderOutcome({
    status: o.status,
    cancelledByBuyer: o.is_deleted,
    lastAttempt: attempt ? { provider: attempt.provider, methodId: attempt.method_id, status: attempt.status, code: attempt.failure_code } : null,
  });
  return {
    id: o.id,
    price: o.price,
    discount: o.discount,
    shipping_fee: o.shipping_fee,
    withholding_price: o.withholding_price,
    total_amount: o.total,
    email: o.email ?? '',
    tel: o.tel,
    order_token: o.order_token,
    payment_status: o.payment_status,
    currency_code: o.currency_code,
    payment_method_id: (o.payment_method_id ?? 1) as S['PaymentMethodId'],
    created_at: o.created_at.toISOString(),
    cancel_at: o.cancel_at ? o.cancel_at.toISOString() : null,
    hold_until: o.hold_until ? o.hold_until.toISOString() : null,
    hold_released: o.status === 'notYetReceived' && !!o.hold_until && o.resources_released,
    courses: lines.map((l) => ({
      course_id: l.course_id,
      course_name: l.course_name,
      ...(l.pricing_plan_id ? { pricingplan_id: l.pricing_plan_id } : {}),
      pricingplan_name: l.pricingplan_name ?? null,
      discount: l.discount,
      original_pricing_price: l.original_pricing_price,
      qty: l.qty,
      coupon_code: l.coupon_code,
    })),
    outcome: { ...outcome, method_id: outcome.method_id as S['OrderOutcome']['method_id'] },
  };
}

/** The order as the contract answers it, with what the buyer is told (its latest attempt read). */
async function readOrder(q: Queryable, o: OrderRow): Promise<S['Order']> {
  return orderForApi(o, await orderCourses(q, o.id), await lastAttempt(q, o.id));
}

export const orderHandlers: Handlers = {
  async createOrder(req, reply, ctx) {
    if (req.body.user_id !== req.user!.id) throw new ApiError(403, 'FORBIDDEN', 'user_id is not the logged-in student');
    const key = String(req.headers['idempotency-key']);
    const r = await createOrder(ctx, req.user!.id, req.body, key, req.ip, requestLocale(req));
    if (r.replayed) reply.header('idempotent-replayed', 'true');
    reply.code(r.status);
    return r.body;
  },

  async deleteOrder(req, _reply, ctx) {
    const orderId = req.body.order_id;
    await ctx.db.tx(async (q) => {
      const o = await findOrder(q, orderId, { forUpdate: true });
      if (!o || o.is_deleted) throw new ApiError(404, 'NOT_FOUND', MSG.ORDER_NOT_FOUND);
      if (!req.user || req.user.role !== 'student' || req.user.id !== o.user_id) throw new ApiError(403, 'FORBIDDEN', 'Not your order');
      if (o.status !== 'notYetReceived' && o.status !== 'cancelled') throw new ApiError(409, 'ORDER_NOT_PAYABLE', MSG.ORDER_KEPT);
      await ctx.orders.cancelOrder(q, o.id);
      await markOrderDeleted(q, o.id, ctx.clock.now());
    });
    return { success: true };
  },

  async getOrder(req, _reply, ctx) {
    const o = await findOrder(ctx.db, req.params.orderId);
    if (!o || o.is_deleted) throw new ApiError(404, 'NOT_FOUND', MSG.ORDER_NOT_FOUND);
    if (o.user_id !== req.user!.id) throw new ApiError(403, 'FORBIDDEN', 'Not your order');
    return { success: true, data: await readOrder(ctx.db, o) };
  },

  async getOrderByToken(req, _reply, ctx) {
    const o = await findOrderByToken(ctx.db, req.params.orderToken);
    // Someone else's token reads as unknown: the page thanks no one and reveals nothing.
    if (!o || o.user_id !== req.user!.id || (o.is_deleted && o.status !== 'cancelled')) throw new ApiError(404, 'NOT_FOUND', MSG.ORDER_NOT_FOUND);
    return { success: true, data: await readOrder(ctx.db, o) };
  },

  async listMyOrders(req, _reply, ctx) {
    const limit = req.query.limit ?? 50;
    // Orders the buyer cancelled stay listed as cancelled (other deleted orders do not show).
    const data: S['Order'][] = [];
    for (const o of await ordersOfUser(ctx.db, req.user!.id, limit)) data.push(await readOrder(ctx.db, o));
    return { success: true, data };
  },

  async listOrderedCourses(req, _reply, ctx) {
    const userId = req.user!.id;
    const rows = await orderedCourses(ctx.db, userId);
    const data: S['OrderedCourse'][] = [];
    for (const r of rows) {
      let expires: string | null = null;
      if (r.status === 'approved') {
        const end = (await accessPeriods(ctx.db, userId, r.course_id)).at(-1)?.end ?? null;
        expires = end === null ? null : new Date(end).toISOString();
      }
      data.push({ courseID: r.course_id, order_id: r.order_id, status: r.status, pricingplan_id: r.pricing_plan_id, expires_at: expires });
    }
    return { success: true, data };
  },
};
