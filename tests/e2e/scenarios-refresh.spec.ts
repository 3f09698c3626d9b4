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
import { expectPaidOnce, freshBuyerPays, onlyOrderOf, payByOmiseCard } from './scenarios-support';

// A provider's page reloaded, then paid there: one order, one successful attempt, the provider's report.
const RELOADED = [
  { title: 'Omise card: the 3-D Secure page is reloaded, then passed: one order, one successful charge of 1,990.00', name: 'r3ds', methodId: 8, provider: 'omise', report: 'Omise', card: '4111111111111111', away: /\/sandbox\/omise\/payments\/.+\/authorize/, pay: '3ds-pass' },
  { title: "PaySolutions: the hosted page is reloaded, then paid: one order, one successful attempt, the provider's report", name: 'rhosted', methodId: 13, provider: 'paysolutions', report: 'PaySolutions', card: null, away: /\/sandbox\//, pay: 'ps-pay' },
];

for (const r of RELOADED) {
  test(r.title, async ({ page, shop }) => {
    const user = await freshBuyerPays(page, shop.db, r.name, r.methodId);
    if (r.card) await payByOmiseCard(page, r.card);
    await expect(page).toHaveURL(r.away, { timeout: 20_000 });
    await page.reload();
    await page.getByTestId(r.pay).click();
    await expectPaidOnce(page, shop.db, user.id, r);
  });
}

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
