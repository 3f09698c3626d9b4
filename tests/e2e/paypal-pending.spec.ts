import { expect, loginFast, test } from './engine/fixtures';
import { courseOrdersOf, openPaypalApproval, orderFromCoursePage } from './scenarios-support';

test('PayPal: a capture PayPal leaves pending keeps the order awaiting payment with a message; PayPal completing it later pays it', async ({ page }) => {
  await loginFast(page, 'student2');
  await orderFromCoursePage(page, '/course/3-ux-ui-workshop', 2);

  const { modal, popup } = await openPaypalApproval(page);
  await popup.getByTestId('pp-approve-pending').click({ timeout: 20_000 });

  // Pending is not failed: the buyer is told, the order is kept awaiting payment (not deleted).
  await expect(modal.getByTestId('paypal-capture-pending')).toContainText('PayPal กำลังตรวจสอบการชำระเงินนี้', { timeout: 20_000 });
  await expect(page.locator('body')).not.toContainText('ชำระเงินไม่สำเร็จ');
  const [order] = await courseOrdersOf(page, 3);
  expect(order).toMatchObject({ payment_status: 'notYetReceived', outcome: { state: 'awaitingPayment' } });
  await modal.getByTestId('paypal-pending-close').click();
  await expect(page).toHaveURL(/\/thankyou\?orderId=|\/myaccount\/student\/order/, { timeout: 20_000 });

  // PayPal completes the capture later (the sandbox sends the verified webhook).
  const caps = (await (await page.request.get('/sandbox/paypal/control/captures')).json()) as { captures: { id: string; status: string }[] };
  const pending = caps.captures.filter((c) => c.status === 'PENDING');
  expect(pending.length).toBeGreaterThan(0);
  for (const c of pending) expect((await page.request.post(`/sandbox/paypal/control/captures/${c.id}/complete`)).ok()).toBe(true);
  await expect.poll(async () => (await courseOrdersOf(page, 3)).find((o) => o.id === order!.id)?.payment_status, { timeout: 20_000 }).toBe('approved');
  expect((await courseOrdersOf(page, 3)).find((o) => o.id === order!.id)?.outcome).toMatchObject({ state: 'paid', method_id: 2 });
});
