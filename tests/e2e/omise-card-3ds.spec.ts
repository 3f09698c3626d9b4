import { expect, test } from './engine/fixtures';
import { login } from './support';

test('a student logs in and pays by Omise card through 3-D Secure in the sandbox', async ({ page }) => {
  await login(page, 'student', 'student123');
  await page.goto('/course/1-english-for-communication');
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('method-8').check();
  await expect(panel.getByTestId('method-8')).toBeChecked();
  await panel.getByTestId('checkout-submit').click();

  const modal = page.getByRole('dialog', { name: 'ชำระเงินด้วยบัตรเครดิต/เดบิต' });
  await expect(modal).toBeVisible({ timeout: 20_000 });
  await modal.getByLabel(/ชื่อบนบัตร/).fill('SOMCHAI JAIDEE');
  await modal.getByLabel(/หมายเลขบัตร/).fill('4111111111111111');
  await modal.getByLabel(/เดือนหมดอายุ/).fill('12');
  await modal.getByLabel(/ปีหมดอายุ/).fill(String(new Date().getFullYear() + 2));
  await modal.getByLabel(/CVV/).fill('123');

  // the card goes to the vault (Omise.js), never to our API
  const ours: string[] = [];
  page.on('request', (r) => {
    if (/\/(api|public|private)\//.test(new URL(r.url()).pathname) && (r.postData() ?? '').includes('4111111111111111')) ours.push(r.url());
  });
  await modal.getByTestId('omise-pay').click();

  await expect(page).toHaveURL(/\/sandbox\/omise\/payments\/.+\/authorize/, { timeout: 20_000 });
  await page.getByTestId('3ds-pass').click();
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
  expect(ours).toEqual([]);

  await page.goto('/myaccount/student/order');
  await expect(page.getByTestId('order-row').first()).toHaveAttribute('data-status', 'approved');
});
