import type { Page } from '@playwright/test';
import { expect, freshStudent, loginFast, test } from './engine/fixtures';
import { payByOmiseCard } from './scenarios-support';

const COURSE = '/course/1-english-for-communication';

async function cardThrough3ds(page: Page): Promise<string[]> {
  await page.goto(COURSE);
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('method-8').check();
  await expect(panel.getByTestId('method-8')).toBeChecked();
  await panel.getByTestId('checkout-submit').click();

  // the card goes to the vault (Omise.js), never to our API
  const ours: string[] = [];
  page.on('request', (r) => {
    if (/\/(api|public|private)\//.test(new URL(r.url()).pathname) && (r.postData() ?? '').includes('4111111111111111')) ours.push(r.url());
  });
  await payByOmiseCard(page, '4111111111111111');
  await expect(page).toHaveURL(/\/sandbox\/omise\/payments\/.+\/authorize/, { timeout: 20_000 });
  return ours;
}

test('a student logs in and pays by Omise card through 3-D Secure in the sandbox', async ({ page }) => {
  await loginFast(page, 'student');
  const ours = await cardThrough3ds(page);
  await page.getByTestId('3ds-pass').click();
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
  expect(ours).toEqual([]);

  await page.goto('/myaccount/student/order');
  await expect(page.getByTestId('order-row').first()).toHaveAttribute('data-status', 'approved');
});

test('3-D Secure failed: the order list shows the order failed, the attempt is failed, one order, and the course page offers to continue paying it', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'o3f');
  await loginFast(page, user.username);
  await cardThrough3ds(page);
  await page.getByTestId('3ds-fail').click();

  // Omise's return sends the buyer to the order list, which reads the order: failed, and a way on
  await expect(page).toHaveURL(/\/myaccount\/student\/order/, { timeout: 20_000 });
  const orders = await shop.db.query<{ id: number; payment_status: string }>('SELECT id, payment_status FROM orders WHERE user_id = $1', [user.id]);
  expect(orders.rows).toEqual([{ id: expect.any(Number), payment_status: 'notYetReceived' }]);
  const orderId = orders.rows[0]!.id;
  const row = page.getByTestId('order-row').filter({ hasText: `#${orderId}` });
  await expect(row.getByTestId('order-outcome')).toHaveAttribute('data-state', 'failed');
  await expect(page.getByTestId('payment-failed')).toContainText('ชำระเงินไม่สำเร็จ');
  await expect(row.getByTestId('order-pay')).toBeVisible();
  const attempts = await shop.db.query<{ provider: string; status: string }>('SELECT provider, status FROM payments WHERE order_id = $1', [orderId]);
  expect(attempts.rows).toEqual([{ provider: 'omise', status: 'failed' }]);

  // the course page does not refuse the buyer: it offers to continue paying the same order
  await page.goto(COURSE);
  await page.getByTestId('continue-paying').click();
  await expect(page.getByTestId('order-pay-modal')).toBeVisible({ timeout: 20_000 });
  const after = await shop.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE user_id = $1', [user.id]);
  expect(after.rows[0]!.n).toBe(1);
});
