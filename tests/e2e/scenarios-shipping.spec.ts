/**
 * Checklist: a book with a shipping address and fee. The buyer adds the Python workbook (320.00,
 * stock 3 in the seed; no other spec buys it, so the stock of the grammar book that shop-cart.spec.ts
 * counts is left alone) from its product page, chooses a saved address and registered mail
 * (30.00), and notifies a bank transfer of 350.00. Before that, the address book: the saved address
 * edited (a new address and the edit each refused once by the server). The order's shipping
 * address and fee, the line, the report, the stock (one less) and the address book are checked in
 * the database.
 */
import { expect, freshStudent, test } from './engine/fixtures';
import { notifyTransfer, onlyOrderOf, openAs, resourcesOf, serverError } from './scenarios-support';

const BOOK = 13;

test('a book shipped by registered mail to a saved address: 320.00 + 30.00 by bank transfer; order, line, report, stock', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'book');
  const address = await shop.db.query<{ id: number }>(
    `INSERT INTO shipping_addresses (user_id, name, tel, address, sub_district, district, province, postcode)
     VALUES ($1, 'สมชาย ใจดี', '0812345678', '99 ถนนทดสอบส่งหนังสือ', 'ลุมพินี', 'ปทุมวัน', 'กรุงเทพมหานคร', '10330') RETURNING id`,
    [user.id],
  );
  const fee = await shop.db.query<{ id: number; fee: string }>("SELECT id, fee FROM shipping_fees WHERE name LIKE 'ไปรษณีย์ลงทะเบียน%'");
  expect(Number(fee.rows[0]!.fee)).toBe(3_000);
  const stock = (await resourcesOf(shop.db, BOOK)).stock!;

  await openAs(page, user.username, `/product/${BOOK}`);
  await page.getByTestId(`add-to-cart-${BOOK}`).click();
  await expect(page.getByTestId(`add-to-cart-status-${BOOK}`)).toContainText('แล้ว');
  await page.goto('/cart');
  const cart = page.getByTestId('cart-checkout');
  const shipping = cart.getByTestId('shipping');
  // The address book before the order: the saved address opened for editing and left; a new
  // address and then the edit each refused once by the server (500: the form stays, with the
  // reason and the values typed); the edit saved the second time, and chosen.
  const form = shipping.getByTestId('address-form');
  const edit = () => shipping.getByRole('button', { name: 'แก้ไขที่อยู่: สมชาย ใจดี' }).click();
  await edit();
  await form.getByRole('button', { name: 'ยกเลิก' }).click();
  await expect(form).toHaveCount(0);
  let refused = 0;
  await page.route('**/private/shipping/addresses**', (route) => {
    if (route.request().method() === 'GET') return route.continue();
    refused += 1;
    return route.fulfill(serverError('e2e: not stored'));
  });
  await shipping.getByTestId('address-new').click();
  for (const [label, value] of [['ชื่อผู้รับ', 'สมหญิง ใจดี'], ['เบอร์โทรศัพท์', '0812345670'], ['ที่อยู่', '7 ถนนที่ไม่ถูกบันทึก'], ['แขวง/ตำบล', 'สีลม'], ['เขต/อำเภอ', 'บางรัก'], ['จังหวัด', 'กรุงเทพมหานคร'], ['รหัสไปรษณีย์', '10500']] as const) {
    await form.getByLabel(label, { exact: true }).fill(value);
  }
  await form.getByTestId('address-save').click();
  await expect(form.getByText('เกิดข้อผิดพลาดในระบบ กรุณาลองใหม่อีกครั้ง')).toBeVisible({ timeout: 20_000 });
  await expect(form.getByLabel('ที่อยู่', { exact: true })).toHaveValue('7 ถนนที่ไม่ถูกบันทึก');
  await form.getByRole('button', { name: 'ยกเลิก' }).click();
  await edit();
  await form.getByLabel('ชื่อผู้รับ', { exact: true }).fill('สมชาย ใจดี (บ้าน)');
  await form.getByTestId('address-save').click();
  await expect(form.getByText('เกิดข้อผิดพลาดในระบบ กรุณาลองใหม่อีกครั้ง')).toBeVisible({ timeout: 20_000 });
  expect(refused).toBe(2);
  await page.unroute('**/private/shipping/addresses**');
  await form.getByTestId('address-save').click();
  await expect(form).toHaveCount(0, { timeout: 20_000 });
  await expect(shipping.getByRole('radio', { name: /สมชาย ใจดี \(บ้าน\)/ })).toBeChecked();
  await shipping.getByRole('radio', { name: /ถนนทดสอบส่งหนังสือ/ }).check();
  await shipping.getByRole('radio', { name: /ไปรษณีย์ลงทะเบียน/ }).check();
  await expect(cart.getByTestId('cart-shipping')).toContainText('30.00');
  await expect(cart.getByTestId('cart-payable')).toContainText('350.00');
  await cart.getByTestId('method-1').check();
  await cart.getByTestId('checkout-submit').click();
  await notifyTransfer(page, '350');

  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({
    payment_status: 'pendingApproved',
    payment_method_id: 1,
    price: 32_000,
    discount: 0,
    shipping_fee: 3_000,
    shipping_fee_id: fee.rows[0]!.id,
    shipping_address_id: address.rows[0]!.id,
    total: 35_000,
  });
  expect(order.lines).toEqual([{ course_id: BOOK, qty: 1, original_pricing_price: 32_000, discount: 0, price: 32_000, coupon_code: null }]);
  expect(order.payments).toEqual([]);
  expect(order.reports).toEqual([{ payment: 'BankTransfer', status: 'pending', transfer_amount: 35_000, payment_method_id: 1 }]);
  expect(order.couponUses).toEqual([]);
  expect(await resourcesOf(shop.db, BOOK)).toEqual({ seats: null, stock: stock - 1 });
  // the address book holds the edited address only (the refused new one was not stored)
  const book = await shop.db.query('SELECT id, name, address FROM shipping_addresses WHERE user_id = $1', [user.id]);
  expect(book.rows).toEqual([{ id: address.rows[0]!.id, name: 'สมชาย ใจดี (บ้าน)', address: '99 ถนนทดสอบส่งหนังสือ' }]);
});
