/**
 * Checklist: a refresh in the middle of a payment on the provider's side — the Omise 3-D Secure
 * page and PaySolutions' hosted page are reloaded before the buyer answers them. The payment then
 * goes through once: one order, one provider attempt, paid by the provider, in the database.
 * The back button from a hosted page: back on the course page the buyer is told the order is not
 * paid yet (what the server knows), with the order list as the way on; nothing is paid twice.
 * (A refresh on our page while a QR is shown is an engine path: `payment.resume` in
 * tests/e2e/engine/maps/promptpay.ts and scb-qr.ts; redirects.ts walks the back button too.)
 */
import { expect, test } from './engine/fixtures';
import { freshBuyerPays, onlyOrderOf, payByOmiseCard } from './scenarios-support';

test('Omise card: the 3-D Secure page is reloaded, then passed: one order, one successful charge of 1,990.00', async ({ page, shop }) => {
  const user = await freshBuyerPays(page, shop.db, 'r3ds', 8);
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
  const user = await freshBuyerPays(page, shop.db, 'rhosted', 13);
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

test('PaySolutions: the back button from the hosted page: "not paid yet" on the course page, the order list as the way on; the order unpaid, one pending attempt', async ({ page, shop }) => {
  const user = await freshBuyerPays(page, shop.db, 'rback', 13);
  await expect(page).toHaveURL(/\/sandbox\//, { timeout: 20_000 });
  await page.goBack();
  await expect(page).toHaveURL(/\/course\/1-english-for-communication$/);
  const modal = page.getByTestId('redirect-modal');
  await expect(modal.getByTestId('redirect-returned')).toHaveAttribute('data-state', 'unpaid');
  await expect(modal.getByTestId('redirect-returned')).toContainText('ยังไม่ได้รับการชำระเงิน');

  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({ status: 'notYetReceived', payment_status: 'notYetReceived', payment_method_id: 13, total: 199_000 });
  expect(order.payments).toEqual([{ provider: 'paysolutions', method_id: 13, status: 'pending', amount: 199_000, currency: 'THB' }]);
  expect(order.reports).toEqual([]);

  await modal.getByRole('button', { name: 'คำสั่งซื้อของฉัน' }).click();
  await expect(page).toHaveURL(/\/myaccount\/student\/order/, { timeout: 20_000 });
  await expect(page.getByTestId('order-row').filter({ hasText: `#${order.id}` }).getByTestId('order-outcome')).toHaveAttribute('data-state', 'awaitingPayment');
  expect((await onlyOrderOf(shop.db, user.id)).payment_status).toBe('notYetReceived');
});
