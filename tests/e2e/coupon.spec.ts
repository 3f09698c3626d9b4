import { expect, test } from './engine/fixtures';

test('a coupon is applied with Enter and lowers the total; a full coupon is refused with the codes', async ({ page }) => {
  await page.goto('/course/1');
  const panel = page.getByTestId('purchase-panel');
  await expect(panel.getByTestId('cart-payable')).toContainText('1,990.00');

  const input = panel.getByTestId('coupon-input');
  await input.fill('SOLDOUT');
  await input.press('Enter');
  await expect(panel.getByTestId('coupon-error')).toContainText('คูปองถูกใช้ครบจำนวนแล้ว');

  await input.fill('WELCOME10');
  await input.press('Enter');
  await expect(panel.getByTestId('coupon-applied')).toContainText('WELCOME10');
  await expect(panel.getByTestId('cart-discount')).toContainText('199.00');
  await expect(panel.getByTestId('cart-payable')).toContainText('1,791.00');
  await expect(input).toHaveValue('');

  await panel.getByRole('button', { name: 'นำคูปอง WELCOME10 ออก' }).click();
  await expect(panel.getByTestId('cart-payable')).toContainText('1,990.00');
});
