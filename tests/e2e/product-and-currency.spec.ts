import { expect, test } from './engine/fixtures';

const BOOK = 'หนังสือไวยากรณ์อังกฤษฉบับสมบูรณ์'; // 450.00 / US$13.00, stock 25, three gallery pictures

for (const width of [375, 1280]) {
  test(`the book page at ${width} px: product wording, a gallery that shows each picture, a quantity within stock going to the cart`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/product/12');
    await expect(page.getByRole('heading', { level: 1, name: BOOK })).toBeVisible();
    await expect(page.getByRole('tab')).toHaveText('รายละเอียดสินค้า');
    await expect(page.getByTestId('product-facts')).toContainText('หนังสือ / สินค้า');
    await expect(page.getByTestId('product-price')).toHaveText('฿450.00');
    await expect(page.getByTestId('product-stock')).toHaveText('เหลือ 25 ชิ้น');
    await expect(page.locator('body')).not.toContainText('รายละเอียดคอร์ส');
    await expect(page.locator('body')).not.toContainText('ชำระครั้งเดียว');
    // The gallery: one picture in view at a time; a thumbnail brings its picture into view.
    const strip = page.locator('.product-gallery__strip');
    const third = strip.locator('img').nth(2);
    await expect(third).not.toBeInViewport({ ratio: 0.9 });
    await page.getByTestId('gallery-thumb-2').click();
    await expect.poll(() => strip.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await expect(third).toBeInViewport({ ratio: 0.9 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // Quantity 1..25, priced by the cart machine; add-to-cart takes the chosen quantity.
    const qty = page.getByTestId('qty-12');
    await expect(qty.locator('option')).toHaveCount(25);
    await qty.selectOption('2');
    await expect(page.getByTestId('cart-payable')).toHaveText('฿900.00');
    await page.getByTestId('add-to-cart-12').click();
    await expect(page.getByTestId('add-to-cart-status-12')).toContainText('แล้ว');
    await page.goto('/cart');
    await expect(page.getByTestId('qty-12')).toHaveValue('2');
  });
}

test('USD chosen: the hero, the sticky bar and the plans of a layout-4 course follow; a plan without a USD price is not offered', async ({ page }) => {
  await page.goto('/course/5');
  await expect(page.getByTestId('hero-price')).toContainText('฿8,900.00');
  await expect(page.getByTestId('sticky-price')).toContainText('฿8,900.00');
  await expect(page.getByText('ติว 10 ชั่วโมง (10 hours)')).toBeVisible();
  await page.getByTestId('currency-USD').check();
  await expect(page.getByTestId('hero-price')).toContainText('US$260.00');
  await expect(page.getByTestId('sticky-price')).toContainText('US$260.00');
  await expect(page.getByText('ติว 10 ชั่วโมง (10 hours)')).toHaveCount(0);
  await expect(page.getByTestId('cart-payable')).toHaveText('US$260.00');
  await expect(page.locator('body')).not.toContainText('US$0.00');
});
