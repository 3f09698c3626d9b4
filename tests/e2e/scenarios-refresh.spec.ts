/**
 * Checklist: a refresh in the middle of a payment on the provider's side — the Omise 3-D Secure
 * page and PaySolutions' hosted page are reloaded before the buyer answers them. The payment then
 * goes through once: one order, one provider attempt, paid by the provider, in the database.
 * (A refresh on our page while a QR is shown, and the back button from a hosted page, are engine
 * paths: `payment.resume` in tests/e2e/engine/maps/promptpay.ts, scb-qr.ts and redirects.ts.)
 */
import { expect, freshStudent, loginAs, test } from './engine/fixtures';
import { onlyOrderOf, payByOmiseCard } from './scenarios-support';

test('Omise card: the 3-D Secure page is reloaded, then passed: one order, one successful charge of 1,990.00', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'r3ds');
  await loginAs(page, user.username);
  await page.goto('/course/1-english-for-communication');
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('method-8').check();
  await panel.getByTestId('checkout-submit').click();
  await payByOmiseCard(page, '4111111111111111');
  await expect(page).toHaveURL(/\/sandbox\/omise\/payments\/.+\/authorize/, { timeout: 20_000 });
  await page.reload();
  await page.getByTestId('3ds-pass').click();
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
  await expect(page.getByTestId('thankyou-title')).toHaveAttribute('data-state', 'paid');

  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({ status: 'approved', payment_status: 'approved', payment_method_id: 8, total: 199_000 });
  expect(order.lines).toEqual([{ course_id: 1, qty: 1, original_pricing_price: 199_000, discount: 0, price: 199_000, coupon_code: null }]);
  expect(order.payments).toEqual([{ provider: 'omise', method_id: 8, status: 'successful', amount: 199_000, currency: 'THB' }]);
  expect(order.reports).toEqual([{ payment: 'Omise', status: 'approved', transfer_amount: 199_000, payment_method_id: 8 }]);
});

test("PaySolutions: the hosted page is reloaded, then paid: one order, one successful attempt, the provider's report", async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'rhosted');
  await loginAs(page, user.username);
  await page.goto('/course/1-english-for-communication');
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('method-13').check();
  await panel.getByTestId('checkout-submit').click();
  await expect(page).toHaveURL(/\/sandbox\//, { timeout: 20_000 });
  await page.reload();
  await page.getByTestId('ps-pay').click();
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
  await expect(page.getByTestId('thankyou-title')).toHaveAttribute('data-state', 'paid');

  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({ status: 'approved', payment_status: 'approved', payment_method_id: 13, total: 199_000 });
  expect(order.lines).toEqual([{ course_id: 1, qty: 1, original_pricing_price: 199_000, discount: 0, price: 199_000, coupon_code: null }]);
  expect(order.payments).toEqual([{ provider: 'paysolutions', method_id: 13, status: 'successful', amount: 199_000, currency: 'THB' }]);
  expect(order.reports).toEqual([{ payment: 'PaySolutions', status: 'approved', transfer_amount: 199_000, payment_method_id: 13 }]);
});
