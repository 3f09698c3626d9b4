/**
 * Checklist: coupon P1 on one course, coupon P2 on two courses with both switch-confirm modals
 * (the site makes coupons and promotions exclusive), each ordered and checked in the database:
 * the order's discount, each line's share, the coupon use and the coupon's counter.
 * Amounts by hand (decisions.md #3): WELCOME10 = 10% of the one course; BUNDLE2 = 15% of each of
 * the two highest-priced matching courses; the English + Japanese promotion = 1,000.00 off.
 */
import { expect, freshStudent, test } from './engine/fixtures';
import { couponUsedCount, defaultPlans, onlyOrderOf, openAs, ordersOf, payByOmiseCard, savedCart } from './scenarios-support';
import { whenTestEnds } from './engine/test-end';

test('P1 WELCOME10 on English: 10% off (199.00), ordered by bank transfer (notify later); the line, the use and the counter', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'p1');
  const used = await couponUsedCount(shop.db, 'WELCOME10');
  await openAs(page, user.username, '/course/1-english-for-communication');
  const panel = page.getByTestId('purchase-panel');
  const input = panel.getByTestId('coupon-input');
  await input.fill('WELCOME10');
  await input.press('Enter');
  await expect(panel.getByTestId('coupon-applied')).toContainText('WELCOME10');
  await expect(panel.getByTestId('cart-discount')).toContainText('199.00');
  await expect(panel.getByTestId('cart-payable')).toContainText('1,791.00');
  await panel.getByTestId('method-1').check();
  await panel.getByTestId('checkout-submit').click();
  const notice = page.getByRole('dialog', { name: 'แจ้งชำระเงิน' });
  await notice.getByTestId('notify-later').click();
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });

  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({ payment_status: 'notYetReceived', currency_code: 'THB', payment_method_id: 1, price: 199_000, discount: 19_900, total: 179_100, coupon_list_code: ['WELCOME10'], promotion_id: null });
  expect(order.lines).toEqual([{ course_id: 1, qty: 1, original_pricing_price: 199_000, discount: 19_900, price: 179_100, coupon_code: 'WELCOME10' }]);
  expect(order.payments).toEqual([]);
  expect(order.reports).toEqual([]);
  expect(order.couponUses).toEqual([{ code: 'WELCOME10', released: false }]);
  expect(await couponUsedCount(shop.db, 'WELCOME10')).toBe(used + 1);
});

test('P2 BUNDLE2 on English + Japanese in the cart: the promotion gives way only when confirmed (both modals), 15% of each, paid by Omise card', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'p2');
  const used = await couponUsedCount(shop.db, 'BUNDLE2');
  // The two courses already in the student's cart (adding to the cart is shop-cart.spec.ts's
  // subject): each course's default plan, as its page's add-to-cart button saves it.
  const [english, japanese] = await defaultPlans(shop.db, [1, 7]);
  await savedCart(shop.db, user.id, [[1, english!, 1], [7, japanese!, 1]]);
  await openAs(page, user.username, '/cart');
  const cart = page.getByTestId('cart-checkout');
  await expect(cart.getByTestId('cart-lines').locator('.cart-line')).toHaveCount(2);
  // The best promotion is chosen by itself: 1,000.00 off 8,890.00
  await expect(cart.getByTestId('promotion-1')).toBeChecked();
  await expect(cart.getByTestId('cart-payable')).toContainText('7,890.00');

  const input = cart.getByTestId('coupon-input');
  const toCoupon = page.getByRole('dialog', { name: 'เปลี่ยนไปใช้คูปอง?' });
  // Cancelled: the promotion stays, no coupon.
  await input.fill('BUNDLE2');
  await input.press('Enter');
  await toCoupon.getByRole('button', { name: 'ยกเลิก' }).click();
  await expect(toCoupon).toBeHidden();
  await expect(cart.getByTestId('promotion-1')).toBeChecked();
  await expect(cart.getByTestId('coupon-applied')).toHaveCount(0);
  await expect(cart.getByTestId('cart-payable')).toContainText('7,890.00');
  // Confirmed: the coupon replaces the promotion. 15% of 1,990.00 = 298.50, of 6,900.00 = 1,035.00.
  await input.fill('BUNDLE2');
  await input.press('Enter');
  await toCoupon.getByRole('button', { name: 'ยืนยัน' }).click();
  await expect(cart.getByTestId('coupon-applied')).toContainText('BUNDLE2');
  await expect(cart.getByTestId('promotion-none')).toBeChecked();
  await expect(cart.getByTestId('cart-discount')).toContainText('1,333.50');
  // Choosing the promotion again asks too; cancelled, the coupon stays.
  await cart.getByTestId('promotion-1').click();
  const toPromotion = page.getByRole('dialog', { name: 'เปลี่ยนไปใช้โปรโมชั่น?' });
  await toPromotion.getByRole('button', { name: 'ยกเลิก' }).click();
  await expect(toPromotion).toBeHidden();
  await expect(cart.getByTestId('promotion-none')).toBeChecked();
  await expect(cart.getByTestId('coupon-applied')).toContainText('BUNDLE2');
  await expect(cart.getByTestId('cart-payable')).toContainText('7,556.50');

  await cart.getByTestId('method-8').check();
  await cart.getByTestId('checkout-submit').click();
  await payByOmiseCard(page, '4242424242424242');
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });

  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({ status: 'approved', payment_status: 'approved', payment_method_id: 8, price: 889_000, discount: 133_350, total: 755_650, coupon_list_code: ['BUNDLE2'], promotion_id: null });
  expect(order.lines).toEqual([
    { course_id: 1, qty: 1, original_pricing_price: 199_000, discount: 29_850, price: 169_150, coupon_code: 'BUNDLE2' },
    { course_id: 7, qty: 1, original_pricing_price: 690_000, discount: 103_500, price: 586_500, coupon_code: 'BUNDLE2' },
  ]);
  expect(order.payments).toEqual([{ provider: 'omise', method_id: 8, status: 'successful', amount: 755_650, currency: 'THB' }]);
  expect(order.reports).toEqual([{ payment: 'Omise', status: 'approved', transfer_amount: 755_650, payment_method_id: 8 }]);
  expect(order.couponUses).toEqual([{ code: 'BUNDLE2', released: false }]);
  expect(await couponUsedCount(shop.db, 'BUNDLE2')).toBe(used + 1);
});

test("a coupon brings the total under the Omise card's 20-baht minimum after the card was chosen: pay says so in the spec's words and orders nothing; by bank transfer the same cart is ordered", async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'minimum');
  // a 22-baht plan of English for this test (hidden when it ends: the order keeps pointing at it)
  const plan = (await shop.db.query<{ id: number }>("INSERT INTO pricing_plans (course_id, name, plan_type, price, pricing_type, status_show, sort) VALUES (1, 'ทดลอง 22 บาท (trial)', 'One-Time Payment', 2200, 'default', 1, 99) RETURNING id")).rows[0]!.id;
  whenTestEnds(() => shop.db.query('UPDATE pricing_plans SET status_show = 0 WHERE id = $1', [plan]).then(() => undefined));
  await openAs(page, user.username, '/course/1-english-for-communication');
  const panel = page.getByTestId('purchase-panel');
  await panel.getByRole('radio', { name: /ทดลอง 22 บาท/ }).check();
  await expect(panel.getByTestId('cart-payable')).toContainText('22.00');
  await panel.getByTestId('method-8').check();
  const input = panel.getByTestId('coupon-input');
  await input.fill('WELCOME10');
  await input.press('Enter');
  await expect(panel.getByTestId('coupon-applied')).toContainText('WELCOME10');
  await expect(panel.getByTestId('cart-payable')).toContainText('19.80');
  const below = 'ไม่สามารถเลือกช่องทางชำระเงินนี้ได้ เนื่องจากยอดรวมต่ำกว่าขั้นต่ำ (20 บาท)';
  await expect(panel.locator('#method-8-reason')).toHaveText(below);
  await panel.getByTestId('checkout-submit').click();
  await expect(page.getByTestId('toast').filter({ hasText: below })).toBeVisible();
  await expect(panel.getByTestId('checkout-submit')).toBeEnabled();
  expect(await ordersOf(shop.db, user.id)).toEqual([]);

  await panel.getByTestId('method-1').check();
  await panel.getByTestId('checkout-submit').click();
  await page.getByRole('dialog', { name: 'แจ้งชำระเงิน' }).getByTestId('notify-later').click();
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({ payment_method_id: 1, price: 2_200, discount: 220, total: 1_980, coupon_list_code: ['WELCOME10'] });
});
