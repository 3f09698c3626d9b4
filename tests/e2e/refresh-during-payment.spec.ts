import { expect, loginFast, test } from './engine/fixtures';

test('a refresh while the PromptPay QR is shown restores the same order and payment (no second order)', async ({ page, request }) => {
  await loginFast(page, 'student2');
  const orders: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/private/cart/order') orders.push(r.url());
  });
  await page.goto('/course/7-japanese-n5-live');
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('method-9').check();
  const created = page.waitForResponse((r) => r.url().endsWith('/api/omise/promptpay') && r.request().method() === 'POST');
  await panel.getByTestId('checkout-submit').click();
  const { charge_id } = (await (await created).json()) as { charge_id: string };
  const qr = page.getByRole('dialog', { name: 'ชำระเงินด้วยพร้อมเพย์' }).getByRole('img', { name: 'QR Code สำหรับชำระเงิน' });
  await expect(qr).toBeVisible();
  const src = await qr.getAttribute('src');

  await page.reload();
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toBe(src);
  expect(orders.length).toBe(1);

  expect((await request.post(`/sandbox/omise/control/charges/${charge_id}/paid`)).ok()).toBe(true);
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
  expect(orders.length).toBe(1);
});

test('an owned course shows its access countdown', async ({ page }) => {
  await loginFast(page, 'student'); // an API-only login: the course page asks the server who is signed in, and reads the student's purchase data
  await page.goto('/course/2-python-for-beginners');
  await expect(page.getByTestId('access-countdown')).toContainText(/เวลาเรียนคงเหลือ: (\d+ วัน \d\d:\d\d:\d\d|ไม่จำกัดเวลา)/);
});
