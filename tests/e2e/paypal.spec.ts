import { expect, loginFast, test } from './engine/fixtures';
import { courseOrdersOf, openPaypalApproval, orderFromCoursePage } from './scenarios-support';

test('PayPal: cancel in the approval window returns to a payable order; approving again pays it (same order)', async ({ page, machines }) => {
  await loginFast(page, 'student2');
  await orderFromCoursePage(page, '/course/3-ux-ui-workshop', 2);

  const { popup } = await openPaypalApproval(page);
  // The approval window stays open on PayPal's page until the buyer decides.
  await expect(popup.getByTestId('pp-approve')).toBeVisible({ timeout: 20_000 });
  // no pause: once the page's PayPal machine has settled waiting for the approval (the window's
  // order created, nothing more to do until the buyer decides), the window must still be open
  await expect.poll(() => machines.values('paypal').at(-1), { timeout: 30_000, message: 'the PayPal machine waits for the approval (after the server created the PayPal order)' }).toBe('"awaitingApproval"');
  await popup.waitForLoadState('load');
  expect(popup.isClosed()).toBe(false);
  // the page's window watcher closes the window once it is back on our origin without a PayerID:
  // waited for from before the click (the window may be gone before the click returns)
  const closed = popup.waitForEvent('close', { timeout: 20_000 });
  await popup.getByTestId('pp-cancel').click();
  await closed;

  // Cancelled: the order list (or the page again) with a payable order, never a thank-you.
  await expect(page.locator('body')).not.toContainText('ขอบคุณสำหรับการสั่งซื้อ');
  await page.goto('/myaccount/student/order');
  const [order] = await courseOrdersOf(page, 3);
  // The order was kept, payable: pay it again with PayPal from the list.
  expect(['awaitingPayment', 'failed']).toContain(order?.outcome?.state);
  const row = page.getByTestId('order-row').filter({ hasText: `#${order!.id}` });
  await row.getByTestId('order-pay').click();
  await page.getByTestId('order-pay-modal').getByRole('radio', { name: 'PayPal' }).check();
  await page.getByTestId('order-pay-start').click();
  const again = page.getByRole('dialog', { name: 'ชำระเงินด้วย PayPal' });
  await expect(again).toBeVisible({ timeout: 20_000 });
  const [popup2] = await Promise.all([page.waitForEvent('popup'), again.getByTestId('paypal-button').click()]);
  await popup2.getByTestId('pp-approve').click({ timeout: 20_000 });
  await expect.poll(async () => (await courseOrdersOf(page, 3)).map((o) => o.outcome?.state), { timeout: 20_000 }).toContain('paid');
  // One order, the same one, paid by PayPal.
  expect((await courseOrdersOf(page, 3)).filter((o) => o.outcome?.state !== 'cancelled').map((o) => [o.id, o.outcome?.state, o.outcome?.method_id])).toEqual([[order!.id, 'paid', 2]]);
});
