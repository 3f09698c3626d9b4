/**
 * Checkout paths around the payment machines, each with a fresh student and the database checked:
 * free orders (auto approved, and waiting for the shop's approval) and a double click on pay.
 */
import type { Pool } from 'pg';
import { expect, freshStudent, loginFast, test } from './engine/fixtures';

async function ordersOf(db: Pool, userId: number) {
  const r = await db.query<{ id: number; total: string; payment_status: string }>('SELECT id, total, payment_status FROM orders WHERE user_id = $1 ORDER BY id', [userId]);
  return r.rows;
}

async function reportsOf(db: Pool, orderId: number) {
  const r = await db.query<{ payment: string; status: string }>('SELECT payment, status FROM payment_reports WHERE order_id = $1 ORDER BY id', [orderId]);
  return r.rows;
}

for (const free of [
  { path: '/course/9-excel-basics-free', report: 'AutoFree', reportStatus: 'approved', paymentStatus: 'approved' },
  { path: '/course/10-study-guidance-free', report: 'NeedApprovedFree', reportStatus: 'pending', paymentStatus: 'pendingApproved' },
]) {
  test(`free order ${free.report}: thank-you page, a zero order and its ${free.report} report`, async ({ page, shop }) => {
    const user = await freshStudent(shop.db, 'free');
    await loginFast(page, user.username);
    await page.goto(free.path);
    await page.getByTestId('purchase-panel').getByTestId('checkout-submit').click();
    await expect(page).toHaveURL(/\/thankyou\?orderId=/);
    const orders = await ordersOf(shop.db, user.id);
    expect(orders.map((o) => ({ total: Number(o.total), payment_status: o.payment_status }))).toEqual([{ total: 0, payment_status: free.paymentStatus }]);
    expect(await reportsOf(shop.db, orders[0]!.id)).toEqual([{ payment: free.report, status: free.reportStatus }]);
  });
}

test('a double click on pay makes one order (bank transfer)', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'dbl');
  await loginFast(page, user.username);
  await page.goto('/course/1-english-for-communication');
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('method-1').check();
  await panel.getByTestId('checkout-submit').dblclick();
  await expect(page.getByRole('dialog', { name: 'แจ้งชำระเงิน' })).toBeVisible();
  // a second click once the order exists does not make another one either
  await expect.poll(async () => (await ordersOf(shop.db, user.id)).length).toBe(1);
  const orders = await ordersOf(shop.db, user.id);
  expect(orders.map((o) => o.payment_status)).toEqual(['notYetReceived']);
});

test('the purchase panel\'s prices could not be read (the connection dropped): said, and "try again" shows the panel; nothing ordered', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'panelretry');
  await loginFast(page, user.username);
  await page.route('**/public/cart/getallpriecingplan', (route) => route.abort('internetdisconnected'), { times: 1 });
  await page.goto('/course/1-english-for-communication');
  const failed = page.getByRole('complementary').getByRole('alert');
  await expect(failed).toContainText('เกิดข้อผิดพลาด กรุณาลองใหม่อีกครั้ง');
  await failed.getByRole('button', { name: 'ลองอีกครั้ง' }).click();
  await expect(page.getByTestId('purchase-panel').getByTestId('method-1')).toBeVisible();
  expect(await ordersOf(shop.db, user.id)).toEqual([]);
});
