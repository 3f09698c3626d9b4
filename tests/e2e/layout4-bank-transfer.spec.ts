import { expect, test } from './engine/fixtures';
import { PNG, uniqueEmail } from './support';

test('a visitor buys in layout 4 without an account by bank transfer and notifies with a slip', async ({ page }) => {
  await page.goto('/course/5');
  // canonical path
  await expect(page).toHaveURL(/\/course\/5-private-math-tutoring$/);
  const bar = page.getByTestId('sticky-bar');
  await expect(bar).toBeVisible();
  await expect(page.getByTestId('sticky-price')).toContainText('8,900.00');

  await page.getByTestId('sticky-register').click();
  const panel = page.getByTestId('purchase-panel');
  const firstname = panel.locator('input[name="firstname"]');
  await expect(firstname).toBeFocused();

  await firstname.fill('สมหญิง');
  await panel.getByLabel(/^นามสกุล/).fill('ทดสอบ');
  await panel.getByLabel(/^อีเมล/).fill(uniqueEmail('visitor'));
  await panel.getByLabel(/^เบอร์โทรศัพท์/).fill('0812345678');
  await panel.getByLabel(/School/).fill('โรงเรียนทดสอบ');
  await panel.getByLabel(/Level/).selectOption({ index: 1 });
  await panel.getByRole('group', { name: /How did you find us/ }).getByRole('radio').first().check();

  // bank transfer is preselected and lists the shop's accounts
  await expect(panel.getByTestId('method-1')).toBeChecked();
  await expect(panel.getByTestId('bank-list')).toContainText('123-4-56789-0');

  await panel.getByTestId('checkout-submit').click();

  const modal = page.getByRole('dialog', { name: 'แจ้งชำระเงิน' });
  await expect(modal).toBeVisible({ timeout: 20_000 });
  // a buyer without registration in layout 4 cannot leave it for later
  await expect(modal.getByRole('button', { name: 'ไว้แจ้งทีหลัง' })).toHaveCount(0);

  await modal.getByTestId('slip-input').setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: PNG });
  await expect(modal.getByRole('list', { name: 'ไฟล์ที่เลือก' })).toBeVisible();
  await expect(modal.getByRole('button', { name: /อัพโหลดรูปภาพ/ })).toHaveCount(0);
  await modal.getByTestId('transfer-amount').fill('8900');
  await modal.getByTestId('origin-bank').selectOption('KBANK');
  await modal.getByRole('radio', { name: /123-4-56789-0/ }).check();
  await modal.getByTestId('notify-submit').click();

  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
  // A bank transfer waits for the shop: the page says so and thanks no one yet.
  await expect(page.getByTestId('thankyou-title')).toHaveAttribute('data-state', 'awaitingApproval');
  await expect(page.getByTestId('order-number')).toHaveText(/^#\d+$/u);
});
