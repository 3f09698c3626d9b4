/**
 * Checklist: USD. English has a USD price (59.00 USD = 5900 cents, seed); the buyer switches the
 * course page to USD and pays by Omise card (a method that takes USD; the THB-only ones say why
 * they cannot be chosen). The order's currency, total, the charge and the report are checked.
 */
import { expect, freshStudent, test } from './engine/fixtures';
import { onlyOrderOf, openAs, payByOmiseCard } from './scenarios-support';
import { whenTestEnds } from './engine/test-end';

test('USD: English at 59.00 USD, paid by Omise card in USD; order, line, charge and report in cents', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'usd');
  await openAs(page, user.username, '/course/1-english-for-communication');
  const panel = page.getByTestId('purchase-panel');
  await expect(panel.getByTestId('cart-payable')).toContainText('1,990.00');
  await panel.getByRole('radio', { name: 'USD' }).check();
  await expect(panel.getByTestId('cart-payable')).toContainText('59.00');
  await expect(panel.getByTestId('cart-payable')).not.toContainText('1,990.00');
  // PromptPay takes THB only: it stays listed with the reason; chosen all the same, the page says why
  // and keeps no method chosen
  await expect(panel.locator('#method-9-reason')).toBeVisible();
  await panel.getByTestId('method-9').click();
  await expect(page.locator('[data-testid="toast"][data-topic="paymentMethod"]')).toContainText('ช่องทางชำระเงินนี้ไม่รองรับสกุลเงินที่เลือก');
  await expect(panel.getByTestId('method-9')).not.toBeChecked();
  await panel.getByTestId('method-8').check();
  await panel.getByTestId('checkout-submit').click();
  await payByOmiseCard(page, '4242424242424242');
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });

  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({ status: 'approved', payment_status: 'approved', currency_code: 'USD', payment_method_id: 8, price: 5_900, discount: 0, shipping_fee: 0, withholding_price: 0, total: 5_900 });
  expect(order.lines).toEqual([{ course_id: 1, qty: 1, original_pricing_price: 5_900, discount: 0, price: 5_900, coupon_code: null }]);
  expect(order.payments).toEqual([{ provider: 'omise', method_id: 8, status: 'successful', amount: 5_900, currency: 'USD' }]);
  expect(order.reports).toEqual([{ payment: 'Omise', status: 'approved', transfer_amount: 5_900, payment_method_id: 8 }]);
  expect(order.couponUses).toEqual([]);
});

test("a shop selling in USD: the course list shows each course's USD price, THB where it has none", async ({ page, shop }) => {
  // The site's currency is a back-office setting. The shop's cache of public answers hears a change
  // made on another connection through PostgreSQL's NOTIFY, a moment later: the page is opened once
  // the shop answers with the new setting (opened before, it showed the THB prices for good).
  const currencyIs = (code: string) =>
    expect
      .poll(async () => ((await (await page.request.get('/api/setting/site/into/1')).json()) as { data: { currency?: string } }).data.currency, {
        message: `the shop's site settings say ${code}`,
        timeout: 10_000,
      })
      .toBe(code);
  await shop.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{currency}', '"USD"') WHERE id = 1`);
  try {
    await currencyIs('USD');
    await page.goto('/');
    const list = page.getByTestId('course-list');
    const english = list.locator('li', { has: page.locator('a[href="/course/1-english-for-communication"]') });
    await expect(english.locator('.ui-price')).toContainText('59.00');
    await expect(english.locator('.ui-price')).toContainText('$');
    // No USD price: the card shows THB, as the course's page would.
    const live = list.locator('li', { has: page.locator('a[href*="investing-live"]') });
    await expect(live.locator('.ui-price')).toContainText('฿590.00');
  } finally {
    // the next tests of this worker's shop see THB again
    await shop.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{currency}', '"THB"') WHERE id = 1`);
    await currencyIs('THB');
  }
});

test('a coupon with a baht amount only, in a USD cart: refused in the page\'s words (not in the chosen currency) and nothing taken off; back in THB the same code takes its 100.00 off', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'usdcoupon');
  const code = `BAHT${Date.now().toString(36).toUpperCase()}`;
  // a fixed amount in baht and none in dollars (the server's lookup answers it: it knows no currency)
  const made = await shop.db.query<{ id: number }>(
    "INSERT INTO coupons (code, name, coupon_type, number_of_course, courses, payment_method, discount_type, discount_amont) VALUES ($1, 'ลด 100 บาท', 'P1', 1, '{1}', '{1,2,8}', 'amount', 10000) RETURNING id",
    [code],
  );
  whenTestEnds(() => shop.db.query('DELETE FROM coupons WHERE id = $1', [made.rows[0]!.id]).then(() => undefined));
  await openAs(page, user.username, '/course/1-english-for-communication');
  const panel = page.getByTestId('purchase-panel');
  await panel.getByRole('radio', { name: 'USD' }).check();
  await expect(panel.getByTestId('cart-payable')).toContainText('59.00');
  await panel.getByTestId('method-1').check();
  const input = panel.getByTestId('coupon-input');
  await input.fill(code);
  await input.press('Enter');
  await expect(panel.getByTestId('coupon-error')).toHaveText('คูปองนี้ใช้กับสกุลเงินที่เลือกไม่ได้');
  await expect(panel.getByTestId('coupon-applied')).toHaveCount(0);
  await expect(panel.getByTestId('cart-payable')).toContainText('59.00');

  await panel.getByRole('radio', { name: 'THB' }).check();
  await expect(panel.getByTestId('cart-payable')).toContainText('1,990.00');
  await input.fill(code);
  await input.press('Enter');
  await expect(panel.getByTestId('coupon-applied')).toContainText(code);
  await expect(panel.getByTestId('coupon-error')).toHaveCount(0);
  await expect(panel.getByTestId('cart-discount')).toContainText('100.00');
  await expect(panel.getByTestId('cart-payable')).toContainText('1,890.00');
});
