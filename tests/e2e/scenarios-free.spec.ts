/**
 * Checklist: a free order with approval, to its end. checkout-scenarios.spec.ts makes both free
 * orders (auto approved / waiting); here the one that waits is approved by the shop (the back
 * office approves its NeedApprovedFree report) and the buyer's order list follows. The database:
 * a zero order with its zero line, the report approved, no provider attempt.
 */
import { ADMIN_TOKEN, expect, test } from './engine/fixtures';
import { freshBuyerPays, onlyOrderOf } from './scenarios-support';

test('a free course that needs approval: waiting on the thank-you page, approved in the back office, paid on the order list', async ({ page, shop }) => {
  const user = await freshBuyerPays(page, shop.db, 'freeok', 1, '/course/10-study-guidance-free');
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
  await expect(page.getByTestId('thankyou-title')).toHaveAttribute('data-state', 'awaitingApproval');
  const waiting = await onlyOrderOf(shop.db, user.id);
  expect(waiting).toMatchObject({ status: 'pendingApproved', payment_status: 'pendingApproved', price: 0, discount: 0, total: 0 });
  expect(waiting.reports).toEqual([{ payment: 'NeedApprovedFree', status: 'pending', transfer_amount: 0, payment_method_id: expect.any(Number) }]);

  const report = await shop.db.query<{ id: number }>('SELECT id FROM payment_reports WHERE order_id = $1', [waiting.id]);
  const r = await page.request.post(`/admin/api/reports/${report.rows[0]!.id}/approve`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, data: {} });
  expect(r.ok(), await r.text()).toBe(true);

  await page.goto('/myaccount/student/order');
  await expect(page.getByTestId('order-row').filter({ hasText: `#${waiting.id}` }).getByTestId('order-outcome')).toHaveAttribute('data-state', 'paid');
  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({ id: waiting.id, status: 'approved', payment_status: 'approved', price: 0, discount: 0, total: 0, coupon_list_code: [] });
  expect(order.lines).toEqual([{ course_id: 10, qty: 1, original_pricing_price: 0, discount: 0, price: 0, coupon_code: null }]);
  expect(order.payments).toEqual([]);
  expect(order.reports.map((x) => [x.payment, x.status, x.transfer_amount])).toEqual([['NeedApprovedFree', 'approved', 0]]);
  expect(order.couponUses).toEqual([]);
});
