/**
 * One quote: what /cart shows is what the order is. A USD cart with a book shows the shipping fee
 * and the total in USD (the fee's USD price, not its THB number with a US$ sign), and the order
 * created from it stores the same numbers. Two tabs: tab 2 removes a line, tab 1 pays without a
 * reload: the order is refused (QUOTE_STALE, said in the page's language) and the page shows the
 * server's cart. The cart's choices one after another (promotion, coupon, their exclusive switches,
 * a method a coupon excludes, a plan), with one quote failing: the order stores the last choices.
 */
import type { Pool } from 'pg';
import { expect, freshStudent, loginFast, test } from './engine/fixtures';
import { defaultPlans, ordersOf, savedCart, serverError } from './scenarios-support';

const BOOK = 12; // Complete English Grammar: ฿450.00 / US$13.00, plan 22
const JAPANESE = 7; // plan 15: ฿6,900.00 / US$199.00
const UX = 3; // plan 9: ฿3,500.00
const ENGLISH = 1; // default plan ฿1,990.00; 90 days ฿990.00

async function address(db: Pool, userId: number) {
  await db.query(
    `INSERT INTO shipping_addresses (user_id, name, tel, address, sub_district, district, province, postcode, is_default)
     VALUES ($1, 'ผู้ซื้อ ทดสอบ', '0812345678', '1 ถนนสุขุมวิท', 'คลองเตย', 'คลองเตย', 'กรุงเทพมหานคร', '10110', true)`,
    [userId],
  );
}

test('a USD cart with a book: the shipping fee and total shown are the order created (US$2.00 EMS, not ฿50 with a US$ sign)', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'quoteusd');
  await savedCart(shop.db, user.id, [[BOOK, 22, 1]]);
  await address(shop.db, user.id);
  // Logged in through the API only: the browser keeps no student id, and the pages read the
  // student's cart because they ask the server who is signed in (src/api/signed-in.ts).
  await loginFast(page, user.username);
  await page.goto('/cart');
  const cart = page.getByTestId('cart-checkout');
  await cart.getByTestId('currency-USD').check();
  await cart.locator('input[name="shipping-address"]').first().check();
  // Kerry has no USD price: not offered in a USD cart.
  await expect(cart.getByTestId('shipping')).not.toContainText('Kerry');
  await cart.getByTestId('shipping').getByRole('radio', { name: /EMS/ }).check();
  await expect(cart.getByTestId('shipping')).toContainText('2.00');
  await expect(cart.getByTestId('cart-shipping')).toContainText('2.00');
  await expect(cart.getByTestId('cart-payable')).toContainText('15.00');
  const shownShipping = (await cart.getByTestId('cart-shipping').textContent())?.trim();
  const shownTotal = (await cart.getByTestId('cart-payable').textContent())?.trim();
  await cart.getByTestId('checkout-submit').click();
  await expect(page.getByRole('dialog', { name: 'แจ้งชำระเงิน' })).toBeVisible({ timeout: 30_000 });
  const orders = await ordersOf(shop.db, user.id);
  expect(orders).toHaveLength(1);
  expect(orders[0]).toMatchObject({ currency_code: 'USD', price: 1_300, shipping_fee: 200, total: 1_500 });
  // What the page showed, formatted: the order's own numbers.
  expect(shownShipping).toContain('2.00');
  expect(shownTotal).toContain('15.00');
});

test('two tabs: tab 2 removes a line, tab 1 pays without a reload -> refused, and tab 1 shows the server cart', async ({ page, shop, context }) => {
  const user = await freshStudent(shop.db, 'quotetabs');
  await savedCart(shop.db, user.id, [[UX, 9, 1], [JAPANESE, 15, 1]]);
  // Logged in through the API only: the browser keeps no student id, and the pages read the
  // student's cart because they ask the server who is signed in (src/api/signed-in.ts).
  await loginFast(page, user.username);
  await page.goto('/cart');
  const tab1 = page.getByTestId('cart-checkout');
  await expect(tab1.getByTestId('cart-lines').locator('.cart-line')).toHaveCount(2);
  await expect(tab1.getByTestId('cart-payable')).toContainText('10,400.00');

  const page2 = await context.newPage();
  await page2.goto('/cart');
  const tab2 = page2.getByTestId('cart-checkout');
  await expect(tab2.getByTestId('cart-lines').locator('.cart-line')).toHaveCount(2);
  await tab2.getByTestId(`remove-${UX}`).click();
  await expect(tab2.getByTestId('cart-lines').locator('.cart-line')).toHaveCount(1);
  await expect
    .poll(async () => (await shop.db.query('SELECT count(*)::int AS n FROM cart_lines l JOIN carts c ON c.id = l.cart_id WHERE c.owner = $1', [`u:${user.id}`])).rows[0].n)
    .toBe(1);
  await page2.close();

  // Tab 1 still shows both lines and pays.
  await tab1.getByTestId('checkout-submit').click();
  await expect(page.getByText('ตะกร้าของคุณมีการเปลี่ยนแปลง').first()).toBeVisible({ timeout: 30_000 });
  expect(await ordersOf(shop.db, user.id)).toHaveLength(0);
  // The page shows the server's cart: one line, its total.
  await expect(tab1.getByTestId('cart-lines').locator('.cart-line')).toHaveCount(1, { timeout: 20_000 });
  await expect(tab1.getByTestId('cart-payable')).toContainText('6,900.00');
});

test("a visitor's USD choice survives the login: the cart read again at login stays in USD (not back to ฿ silently)", async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'usdlogin');
  await page.goto('/product/12');
  await page.getByTestId(`add-to-cart-${BOOK}`).click();
  await expect(page.getByTestId(`add-to-cart-status-${BOOK}`)).toContainText('แล้ว');
  await page.goto('/cart');
  const cart = page.getByTestId('cart-checkout');
  await cart.getByTestId('currency-USD').check();
  await expect(cart.getByTestId('cart-payable')).toContainText('US$13.00');
  await page.getByLabel('ชื่อผู้ใช้').fill(user.username);
  await page.getByLabel('รหัสผ่าน').fill('student123');
  await page.getByLabel('รหัสผ่าน').press('Enter');
  await expect(page.getByTestId('header-user')).toBeVisible();
  // The student's checkout (read again, the visitor's cart merged): it offers the address book.
  await expect(cart.getByTestId('address-new')).toBeVisible({ timeout: 30_000 });
  await expect(cart.getByTestId('currency-USD')).toBeChecked();
  await expect(cart.getByTestId('cart-payable')).toContainText('US$13.00');
});

test('the choices on /cart: the promotion off and on, a coupon and the promotion swapped both ways, a method that drops the coupon, another plan, a quote that fails, the promotion required; the order is what the page showed', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'cartchoices');
  const [english, japanese] = await defaultPlans(shop.db, [ENGLISH, JAPANESE]);
  await savedCart(shop.db, user.id, [[ENGLISH, english!, 1], [JAPANESE, japanese!, 1]]);
  const promotion = (await shop.db.query<{ id: number }>("SELECT id FROM promotions WHERE title LIKE 'ซื้อคู่ภาษาอังกฤษ%'")).rows[0]!.id;
  const days90 = (await shop.db.query<{ id: number }>("SELECT id FROM pricing_plans WHERE course_id = $1 AND name LIKE 'เรียนได้ 90 วัน%'", [ENGLISH])).rows[0]!.id;
  await loginFast(page, user.username);
  await page.goto('/cart');
  const cart = page.getByTestId('cart-checkout');
  const payable = cart.getByTestId('cart-payable');
  // 1,990.00 + 6,900.00, the pair's promotion (1,000.00 off) chosen for the buyer
  await expect(cart.getByTestId(`promotion-${promotion}`)).toBeChecked();
  await expect(payable).toContainText('7,890.00');
  await cart.getByTestId('promotion-none').check();
  await expect(payable).toContainText('8,890.00');
  await cart.getByTestId(`promotion-${promotion}`).check();
  await expect(payable).toContainText('7,890.00');

  // SAVE500 (bank transfer or Omise card only) replaces the promotion, then the promotion the coupon
  const applySave500 = async () => {
    await cart.getByTestId('coupon-input').fill('SAVE500');
    await cart.getByTestId('coupon-input').press('Enter');
    await page.getByRole('dialog', { name: 'เปลี่ยนไปใช้คูปอง?' }).getByRole('button', { name: 'ยืนยัน' }).click();
    await expect(cart.getByTestId('coupon-applied')).toContainText('SAVE500');
    await expect(payable).toContainText('8,390.00');
  };
  await applySave500();
  // (a click, not a check: the radio stays off until the switch is confirmed)
  await cart.getByTestId(`promotion-${promotion}`).click();
  await page.getByRole('dialog', { name: 'เปลี่ยนไปใช้โปรโมชั่น?' }).getByRole('button', { name: 'ยืนยัน' }).click();
  await expect(cart.getByTestId('coupon-applied')).toHaveCount(0);
  await expect(payable).toContainText('7,890.00');
  // the coupon again, then Omise PromptPay, which SAVE500 excludes: the coupon is dropped and the buyer told
  await applySave500();
  await cart.getByTestId('method-9').check();
  await expect(page.getByText(/SAVE500/).first()).toBeVisible();
  await expect(cart.getByTestId('coupon-applied')).toHaveCount(0);
  await expect(payable).toContainText('8,890.00');
  // English for 90 days (990.00)
  await cart.getByTestId(`plan-${days90}`).check();
  await expect(payable).toContainText('7,890.00');

  // The quote of the next choice fails (the server answers 500): the page keeps the domain's numbers.
  let failedQuotes = 0;
  await page.route('**/public/cart/quote', (route) => {
    failedQuotes += 1;
    return route.fulfill(serverError('e2e: no quote'));
  });
  await cart.getByTestId('method-1').check();
  await expect.poll(() => failedQuotes).toBeGreaterThan(0);
  await page.unroute('**/public/cart/quote');
  await expect(payable).toContainText('7,890.00');

  // The pair's promotion is still usable: the order waits until the buyer chooses it.
  await cart.getByTestId('checkout-submit').click();
  await expect(page.getByRole('alert').filter({ hasText: 'กรุณาเลือกโปรโมชั่น' })).toBeVisible();
  await cart.getByTestId(`promotion-${promotion}`).check();
  await expect(payable).toContainText('6,890.00');
  await cart.getByTestId('checkout-submit').click();
  const notice = page.getByRole('dialog', { name: 'แจ้งชำระเงิน' });
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await notice.getByTestId('notify-later').click();
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
  const [order] = await ordersOf(shop.db, user.id);
  expect(order).toMatchObject({ payment_method_id: 1, price: 789_000, discount: 100_000, promotion_id: promotion, coupon_list_code: [], total: 689_000 });
  expect(order!.lines.map((l) => [l.course_id, l.original_pricing_price, l.coupon_code])).toEqual([[ENGLISH, 99_000, null], [JAPANESE, 690_000, null]]);
  expect(order!.couponUses).toEqual([]);
});
