import { expect, loginFast, test } from './engine/fixtures';

test('Omise PromptPay paid from the sandbox control: the page moves on by itself', async ({ page, request }) => {
  await loginFast(page, 'student2');
  await page.goto('/course/2-python-for-beginners');
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('method-9').check();
  const created = page.waitForResponse((r) => r.url().endsWith('/api/omise/promptpay') && r.request().method() === 'POST');
  await panel.getByTestId('checkout-submit').click();
  const answer = (await (await created).json()) as { charge_id: string };

  const modal = page.getByRole('dialog', { name: 'ชำระเงินด้วยพร้อมเพย์' });
  await expect(modal.getByRole('img', { name: 'QR Code สำหรับชำระเงิน' })).toBeVisible();

  const paid = await request.post(`/sandbox/omise/control/charges/${answer.charge_id}/paid`);
  expect(paid.ok()).toBe(true);

  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
});
