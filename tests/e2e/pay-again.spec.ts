import type { Page } from '@playwright/test';
import { expect, loginFast, test } from './engine/fixtures';
import { courseOrdersOf, orderFromCoursePage, payByOmiseCard } from './scenarios-support';
import { PNG } from './support';

async function seatsOf(page: Page, courseId: number): Promise<number | null> {
  const r = await page.request.get(`/public/courses/${courseId}/0`);
  const body = (await r.json()) as { data?: { seats_available?: number | null } };
  return body.data?.seats_available ?? null;
}

test('a declined Omise card, then pay again by bank transfer on the same order: waiting for approval, one order', async ({ page }) => {
  await loginFast(page, 'student');
  await orderFromCoursePage(page, '/course/3-ux-ui-workshop', 8);

  await payByOmiseCard(page, '4111111111140011');

  // The order list tells why, in the buyer's language, and offers to pay again.
  await expect(page).toHaveURL(/\/myaccount\/student\/order/, { timeout: 20_000 });
  const [order] = await courseOrdersOf(page, 3);
  expect(order?.outcome).toEqual({ state: 'failed', reason: 'insufficientFunds', method_id: 8 });
  const row = page.getByTestId('order-row').filter({ hasText: `#${order!.id}` });
  await expect(row.getByTestId('order-outcome')).toHaveAttribute('data-state', 'failed');
  await expect(row.getByTestId('order-outcome-reason')).toHaveText('ยอดเงินในบัตรไม่เพียงพอ');

  // The course page is not a dead end: it continues this order.
  await page.goto('/course/3-ux-ui-workshop');
  const cont = page.getByTestId('continue-paying');
  await expect(cont).toHaveText(`ชำระเงินคำสั่งซื้อ #${order!.id} ต่อ`);
  await cont.click();

  const pay = page.getByTestId('order-pay-modal');
  await expect(pay).toBeVisible({ timeout: 20_000 });
  await pay.getByRole('radio', { name: 'โอนเงินผ่านธนาคาร' }).check();
  await pay.getByTestId('order-pay-start').click();

  const notice = page.getByRole('dialog', { name: 'แจ้งชำระเงิน' });
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await notice.getByTestId('slip-input').setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: PNG });
  await expect(notice.getByRole('list', { name: 'ไฟล์ที่เลือก' })).toBeVisible();
  // The notice opens with the order's amount in it, not a placeholder to copy.
  await expect(notice.getByTestId('transfer-amount')).toHaveValue(((order as unknown as { total_amount: number }).total_amount / 100).toFixed(2));
  await notice.getByTestId('origin-bank').selectOption('KBANK');
  await notice.getByRole('radio', { name: /123-4-56789-0/ }).check();
  await notice.getByTestId('notify-submit').click();
  await expect(notice).toBeHidden({ timeout: 20_000 });

  // Handed over: as from the checkout, this order's thank-you page, which reads the order — waiting for approval, not "paid".
  await expect(page).toHaveURL(`/thankyou?orderId=${order!.order_token}`, { timeout: 20_000 });
  await expect(page.getByTestId('thankyou-title')).toHaveAttribute('data-state', 'awaitingApproval');
  await page.goto('/myaccount/student/order');
  await expect(page.getByTestId('order-row').filter({ hasText: `#${order!.id}` }).getByTestId('order-outcome')).toHaveAttribute('data-state', 'awaitingApproval', { timeout: 20_000 });
  const after = await courseOrdersOf(page, 3);
  expect(after.map((o) => [o.id, o.payment_status, o.outcome?.state])).toEqual([[order!.id, 'pendingApproved', 'awaitingApproval']]);
});

test('an unpaid order is cancelled from the order list: its seat is given back, it reads as cancelled', async ({ page }) => {
  await loginFast(page, 'student2');
  const before = await seatsOf(page, 3);
  await orderFromCoursePage(page, '/course/3-ux-ui-workshop', 4);
  const qr = page.getByTestId('scb-qr-modal');
  await expect(qr.getByTestId('qr-image')).toBeVisible({ timeout: 20_000 });
  expect(before).not.toBeNull();
  expect(await seatsOf(page, 3)).toBe(before! - 1);
  // Leaving the QR (Escape) keeps the order payable: the order list.
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/myaccount\/student\/order/, { timeout: 20_000 });
  const [order] = await courseOrdersOf(page, 3);
  expect(order?.outcome?.state).toBe('awaitingPayment');
  const row = page.getByTestId('order-row').filter({ hasText: `#${order!.id}` });
  await row.getByTestId('order-cancel').click();
  const confirm = page.getByTestId('order-cancel-modal');
  await confirm.getByRole('button', { name: 'ยกเลิกคำสั่งซื้อ' }).click();
  await expect(page.getByTestId('order-row').filter({ hasText: `#${order!.id}` }).getByTestId('order-outcome')).toHaveAttribute('data-state', 'cancelled', { timeout: 20_000 });
  expect(await seatsOf(page, 3)).toBe(before);
  // Other tests may have left cancelled orders of this course: only this one matters, and nothing is left unpaid.
  const mine = await courseOrdersOf(page, 3);
  expect(mine.find((o) => o.id === order!.id)?.outcome?.state).toBe('cancelled');
  expect(mine.filter((o) => o.outcome?.state !== 'cancelled')).toEqual([]);
});

test('/thankyou?orderId=bogus never says thank you', async ({ page }) => {
  await loginFast(page, 'student');
  await page.goto('/thankyou?orderId=bogus');
  await expect(page.getByTestId('thankyou-title')).toHaveAttribute('data-state', 'notFound');
  await expect(page.getByTestId('thankyou-page')).not.toContainText('ขอบคุณ');
});
