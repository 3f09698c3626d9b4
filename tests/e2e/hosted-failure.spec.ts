import { expect, loginFast, test } from './engine/fixtures';
import { orderFromCoursePage } from './scenarios-support';

const SHOTS = process.env.I9_SHOTS;

test('PaySolutions declined: the return page never thanks, shows the failure notice in Thai, the order can be paid again or cancelled', async ({ page }) => {
  await loginFast(page, 'student2');
  await orderFromCoursePage(page, '/course/3-ux-ui-workshop', 13);
  await page.getByTestId('ps-decline').click({ timeout: 20_000 });

  // Back on our site: the order's real status, read from the server.
  const title = page.getByTestId('thankyou-title').or(page.getByTestId('orders-page'));
  await expect(title.first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('body')).not.toContainText('ขอบคุณสำหรับการสั่งซื้อ');
  if (SHOTS) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SHOTS}/return-1280.png`, fullPage: true });
  }
  await page.goto('/myaccount/student/order');
  await expect(page.getByTestId('payment-failed')).toContainText('ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง', { timeout: 20_000 });
  await expect(page.getByTestId('payment-failed')).toContainText('ธนาคารปฏิเสธการชำระเงิน');
  const r = await page.request.get('/private/orders');
  const orders = ((await r.json()) as { data: { id: number; outcome: { state: string; reason: string | null }; courses: { course_id: number }[] }[] }).data.filter((o) => o.courses.some((c) => c.course_id === 3));
  expect(orders.filter((o) => o.outcome.state !== 'cancelled').map((o) => o.outcome)).toEqual([{ state: 'failed', reason: 'declined', method_id: 13 }]);
  orders.splice(0, orders.length, ...orders.filter((o) => o.outcome.state !== 'cancelled'));

  const row = page.getByTestId('order-row').filter({ hasText: `#${orders[0]!.id}` });
  await row.getByTestId('order-pay').click();
  await expect(page.getByTestId('order-pay-modal')).toBeVisible();
  await expect(page.getByTestId('order-pay-methods')).toBeVisible({ timeout: 20_000 });
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/orders-pay-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: `${SHOTS}/orders-pay-375.png`, fullPage: true });
  }
  // Escape leaves the panel; the order is still payable; cancel it (gives the seat back).
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('order-pay-modal')).toBeHidden();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/orders-375.png`, fullPage: true });
  await row.getByTestId('order-cancel').click();
  await page.getByTestId('order-cancel-modal').getByRole('button', { name: 'ยกเลิกคำสั่งซื้อ' }).click();
  await expect(row.getByTestId('order-outcome')).toHaveAttribute('data-state', 'cancelled', { timeout: 20_000 });
});
