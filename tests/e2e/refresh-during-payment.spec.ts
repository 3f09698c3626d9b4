import { expect, freshStudent, loginFast, test } from './engine/fixtures';
import { approvedOrder, ordersOf } from './scenarios-support';

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

test('access bought for good reads "no time limit"; access that has run out reads so, and the owner renews it with the renewal plan, the only one offered (bank transfer, notify later)', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'renew');
  await approvedOrder(shop.db, user.id, 2, 'จ่ายครั้งเดียว เรียนได้ตลอด (one-time, lifetime)', 5);
  const old = await approvedOrder(shop.db, user.id, 1, 'เรียนได้ 90 วัน (90 days)', 100);
  await loginFast(page, user.username);
  await page.goto('/course/2-python-for-beginners');
  await expect(page.getByTestId('access-countdown')).toHaveText('เวลาเรียนคงเหลือ: ไม่จำกัดเวลา');

  await page.goto('/course/1-english-for-communication');
  await expect(page.getByTestId('access-countdown')).toHaveText('เวลาเรียนคงเหลือ: หมดเวลาเรียนแล้ว');
  const panel = page.getByTestId('purchase-panel');
  // an owner is offered the renewal plan only, chosen, and may buy it (never "you have this course")
  const plans = await shop.db.query<{ id: number; pricing_type: string | null }>('SELECT id, pricing_type FROM pricing_plans WHERE course_id = 1 AND status_show <> 0');
  const renewal = plans.rows.find((p) => p.pricing_type === 'renew')!.id;
  await expect(panel.getByTestId(`plan-${renewal}`)).toBeChecked();
  for (const p of plans.rows.filter((x) => x.id !== renewal)) await expect(panel.getByTestId(`plan-${p.id}`)).toHaveCount(0);
  await expect(panel.getByTestId('buy-blocked')).toHaveCount(0);
  await expect(panel.getByTestId('cart-payable')).toContainText('590.00');
  await panel.getByTestId('method-1').check();
  await panel.getByTestId('checkout-submit').click();
  await page.getByRole('dialog', { name: 'แจ้งชำระเงิน' }).getByTestId('notify-later').click();
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });

  const orders = await ordersOf(shop.db, user.id);
  const made = orders.filter((o) => o.status === 'notYetReceived');
  expect(made).toHaveLength(1);
  expect(made[0]).toMatchObject({ payment_method_id: 1, price: 59_000, total: 59_000 });
  expect(made[0]!.lines).toEqual([{ course_id: 1, qty: 1, original_pricing_price: 59_000, discount: 0, price: 59_000, coupon_code: null }]);
  expect(orders.map((o) => o.id)).toContain(old);
});
