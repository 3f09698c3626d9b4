/**
 * What the database holds for a path's order: the order, its lines, the provider attempts
 * (payments), the payment reports and the coupon uses, checked exactly after each path.
 */
import { expect } from '@playwright/test';
import { ADMIN_TOKEN } from './fixtures';
import { orderOf, type PathContext } from './runner';
import { DB_POLL } from './waits';

export interface OrderFacts {
  order: { id: number; status: string; payment_status: string; total: number; payment_method_id: number; currency_code: string; discount: number; withholding_price: number; shipping_fee: number; coupon_ids: number[] };
  lines: { course_id: number; price: number; qty: number }[];
  payments: { provider: string; status: string; amount: number }[];
  reports: { payment: string; status: string; transfer_amount: number; payment_id: number | null }[];
  couponUses: { coupon_id: number; released: boolean }[];
}

export async function orderFacts(ctx: PathContext, id?: number): Promise<OrderFacts> {
  const orderId = id ?? (await orderOf(ctx));
  const q = <T>(sql: string) => ctx.shop.db.query(sql, [orderId]).then((r) => r.rows as T[]);
  const [order] = await q<OrderFacts['order']>(
    'SELECT id, status, payment_status, total::int, payment_method_id, currency_code, discount::int, withholding_price::int, shipping_fee::int, coupon_ids FROM orders WHERE id = $1',
  );
  return {
    order: order!,
    lines: await q('SELECT course_id, price::int, qty FROM order_courses WHERE order_id = $1 ORDER BY id'),
    payments: await q('SELECT provider, status, amount::int FROM payments WHERE order_id = $1 ORDER BY id'),
    reports: await q('SELECT payment, status, transfer_amount::int, payment_id FROM payment_reports WHERE order_id = $1 ORDER BY id'),
    couponUses: await q('SELECT coupon_id, released FROM coupon_uses WHERE order_id = $1 ORDER BY id'),
  };
}

/** The user's orders (how many the path made). */
export async function ordersOfUser(ctx: PathContext): Promise<number> {
  const r = await ctx.shop.db.query('SELECT count(*)::int AS n FROM orders WHERE user_id = $1', [ctx.user.id]);
  return (r.rows[0] as { n: number }).n;
}

/** Paid through a provider: approved, one successful attempt of the order's total, one approved report tied to it. */
export async function expectPaidBy(ctx: PathContext, provider: string, label: string): Promise<void> {
  await expect.poll(async () => (await orderFacts(ctx)).order.payment_status, { timeout: 15_000, intervals: DB_POLL }).toBe('approved');
  const f = await orderFacts(ctx);
  expect(f.order.status).toBe('approved');
  expect(await ordersOfUser(ctx)).toBe(1);
  expect(f.lines.length).toBeGreaterThan(0);
  expect(f.payments.filter((p) => p.status === 'successful')).toEqual([{ provider, status: 'successful', amount: f.order.total }]);
  expect(f.reports.map((r) => ({ payment: r.payment, status: r.status }))).toEqual([{ payment: label, status: 'approved' }]);
  expect(f.reports[0]!.payment_id).not.toBeNull();
}

/** Not paid: one order still waiting for its payment, no successful attempt, no approved report. */
export async function expectUnpaid(ctx: PathContext, paymentStatus = 'notYetReceived'): Promise<OrderFacts> {
  const f = await orderFacts(ctx);
  expect(await ordersOfUser(ctx)).toBe(1);
  expect(f.order.payment_status).toBe(paymentStatus);
  expect(f.payments.filter((p) => p.status === 'successful')).toEqual([]);
  expect(f.reports.filter((r) => r.status === 'approved')).toEqual([]);
  return f;
}

/** The shop rejects the order in the back office (POST /admin/api/orders/:id/reject). */
export async function rejectInBackOffice(ctx: PathContext): Promise<void> {
  const id = await orderOf(ctx);
  const r = await ctx.request.post(`/admin/api/orders/${id}/reject`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, data: { reason: 'e2e: rejected by the shop' } });
  expect(r.ok(), await r.text()).toBe(true);
}

/** The shop approves the order in the back office (POST /admin/api/orders/:id/approve). */
export async function approveInBackOffice(ctx: PathContext): Promise<void> {
  const id = await orderOf(ctx);
  const r = await ctx.request.post(`/admin/api/orders/${id}/approve`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, data: {} });
  expect(r.ok(), await r.text()).toBe(true);
}

/** Approved by the shop, not by a provider: approved, and no successful provider attempt. */
export async function expectApprovedByShop(ctx: PathContext): Promise<void> {
  const f = await orderFacts(ctx);
  expect(await ordersOfUser(ctx)).toBe(1);
  expect(f.order.payment_status).toBe('approved');
  expect(f.payments.filter((p) => p.status === 'successful')).toEqual([]);
}
