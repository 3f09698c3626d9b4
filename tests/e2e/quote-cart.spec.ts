/**
 * One quote: what /cart shows is what the order is. A USD cart with a book shows the shipping fee
 * and the total in USD (the fee's USD price, not its THB number with a US$ sign), and the order
 * created from it stores the same numbers. Two tabs: tab 2 removes a line, tab 1 pays without a
 * reload: the order is refused (QUOTE_STALE, said in the page's language) and the page shows the
 * server's cart.
 */
import type { Pool } from 'pg';
import { expect, freshStudent, loginFast, test } from './engine/fixtures';
import { ordersOf, savedCart } from './scenarios-support';

const BOOK = 12; // Complete English Grammar: ฿450.00 / US$13.00, plan 22
const JAPANESE = 7; // plan 15: ฿6,900.00 / US$199.00
const UX = 3; // plan 9: ฿3,500.00

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
