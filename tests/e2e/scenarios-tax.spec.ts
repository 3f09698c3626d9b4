/**
 * Checklist: a tax invoice with 3% and 1% withholding. A juristic buyer (tax data on file) chooses
 * withholding on the course page; the order, its payment and the seats are checked in the database.
 * A company buyer whose tax data on file is incomplete fills the tax-invoice form first (its
 * failures each once: the profile read, the certificate's upload, the save); a natural person's
 * withholding is refused by the server's quote.
 * Amounts: domain/tax.ts (decisions.md #2: prices include 7% VAT; withholding on the pre-VAT
 * amount, half up), and by hand in each test.
 */
import { amountBeforeVat, withholdingAmount } from '../../domain/tax';
import type { Route } from '@playwright/test';
import { expect, freshStudent, test } from './engine/fixtures';
import { makeJuristic, notifyTransfer, onlyOrderOf, openAs, ordersOf, payByOmiseCard, resourcesOf, serverError } from './scenarios-support';
import { PNG } from './support';

const SITE_TAX = { is_enable_vat: true, vat_value: 7, is_enable_tax_invoice: true, is_enable_withholding_tax: true };

test('withholding 3% on the UX workshop (3,500.00): bank transfer of 3,401.87 with a slip; the order, the report and a seat', async ({ page, shop }) => {
  // 350000 ÷ 1.07 = 327102.80… → 327103 before VAT; 3% = 9813.09 → 9813; payable 350000 − 9813 = 340187
  const before = amountBeforeVat(350_000, SITE_TAX);
  const withheld = withholdingAmount(before, 3);
  expect([before, withheld]).toEqual([327_103, 9_813]);
  const payable = 350_000 - withheld;

  const user = await freshStudent(shop.db, 'wht3');
  await makeJuristic(shop.db, user.id);
  const seats = (await resourcesOf(shop.db, 3)).seats!;
  await openAs(page, user.username, '/course/3-ux-ui-workshop');
  const panel = page.getByTestId('purchase-panel');
  const withholding = panel.getByTestId('withholding');
  await withholding.getByRole('checkbox', { name: 'หักภาษี ณ ที่จ่าย' }).check();
  // 3% is the default; the tax invoice is locked on while withholding is chosen
  await expect(withholding.getByRole('radio', { name: '3%' })).toBeChecked();
  await expect(withholding.getByRole('checkbox', { name: 'ต้องการใบกำกับภาษี' })).toBeChecked();
  await expect(withholding.getByRole('checkbox', { name: 'ต้องการใบกำกับภาษี' })).toBeDisabled();
  await expect(panel.getByTestId('cart-totals')).toContainText('98.13');
  await expect(panel.getByTestId('cart-payable')).toContainText('3,401.87');
  await panel.getByTestId('method-1').check();
  await panel.getByTestId('checkout-submit').click();
  await notifyTransfer(page, '3401.87');

  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({
    status: 'pendingApproved',
    payment_status: 'pendingApproved',
    currency_code: 'THB',
    payment_method_id: 1,
    price: 350_000,
    discount: 0,
    shipping_fee: 0,
    is_withholding: true,
    withholding_percent: 3,
    withholding_price: withheld,
    is_require_tax_invoice: true,
    total: payable,
    coupon_list_code: [],
  });
  expect(order.total).toBe(340_187);
  expect(order.lines).toEqual([{ course_id: 3, qty: 1, original_pricing_price: 350_000, discount: 0, price: 350_000, coupon_code: null }]);
  expect(order.payments).toEqual([]);
  expect(order.reports).toEqual([{ payment: 'BankTransfer', status: 'pending', transfer_amount: 340_187, payment_method_id: 1 }]);
  expect(order.couponUses).toEqual([]);
  expect(await resourcesOf(shop.db, 3)).toEqual({ seats: seats - 1, stock: null });
});

test('withholding 1% on English (1,990.00): Omise card pays 1,971.40; the charge is of the withheld total', async ({ page, shop }) => {
  // 199000 ÷ 1.07 = 185981.30… → 185981 before VAT; 1% = 1859.81 → 1860; payable 199000 − 1860 = 197140
  const withheld = withholdingAmount(amountBeforeVat(199_000, SITE_TAX), 1);
  expect(withheld).toBe(1_860);

  const user = await freshStudent(shop.db, 'wht1');
  await makeJuristic(shop.db, user.id);
  await openAs(page, user.username, '/course/1-english-for-communication');
  const panel = page.getByTestId('purchase-panel');
  const withholding = panel.getByTestId('withholding');
  await withholding.getByRole('checkbox', { name: 'หักภาษี ณ ที่จ่าย' }).check();
  await withholding.getByRole('radio', { name: '1%' }).check();
  await expect(panel.getByTestId('cart-totals')).toContainText('18.60');
  await expect(panel.getByTestId('cart-payable')).toContainText('1,971.40');
  await panel.getByTestId('method-8').check();
  await panel.getByTestId('checkout-submit').click();
  await payByOmiseCard(page, '4242424242424242');
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });

  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({
    status: 'approved',
    payment_status: 'approved',
    currency_code: 'THB',
    payment_method_id: 8,
    price: 199_000,
    discount: 0,
    is_withholding: true,
    withholding_percent: 1,
    withholding_price: 1_860,
    is_require_tax_invoice: true,
    total: 197_140,
  });
  expect(order.lines).toEqual([{ course_id: 1, qty: 1, original_pricing_price: 199_000, discount: 0, price: 199_000, coupon_code: null }]);
  expect(order.payments).toEqual([{ provider: 'omise', method_id: 8, status: 'successful', amount: 197_140, currency: 'THB' }]);
  expect(order.reports).toEqual([{ payment: 'Omise', status: 'approved', transfer_amount: 197_140, payment_method_id: 8 }]);
  expect(order.couponUses).toEqual([]);
});

test('a logged-in natural person is not offered withholding (the juristic one is, same page); the order is made without it', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'whtnat');
  const person = await shop.db.query<{ tax_person_type: string | null }>('SELECT tax_person_type FROM users WHERE id = $1', [user.id]);
  expect(person.rows[0]!.tax_person_type ?? 'normal_person').toBe('normal_person');
  // The server's quotes are held until the buyer has chosen withholding, which the browser's own
  // numbers offer before the server answers (3,500.00 is over the threshold, the site offers it):
  // the answer to the cart with withholding then refuses it, the choice is dropped and the cart
  // quoted again. Held on purpose, so the refusal is walked in every run, not when timing allows.
  const held: Route[] = [];
  let holding = true;
  await page.route('**/public/cart/quote', (route) => (holding ? void held.push(route) : route.continue()));
  await openAs(page, user.username, '/course/3-ux-ui-workshop');
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('withholding').getByRole('checkbox', { name: 'หักภาษี ณ ที่จ่าย' }).check();
  await expect(panel.getByTestId('cart-payable')).not.toContainText('3,500.00');
  // the quote of the page's cart and the one of the cart with withholding
  await expect.poll(() => held.length).toBeGreaterThanOrEqual(2);
  holding = false;
  // the first was cancelled by the choice (the page no longer waits for it)
  for (const route of held) await route.continue().catch(() => {});
  await page.unroute('**/public/cart/quote');
  // the server's answer: no choice for this buyer
  await expect(panel.getByTestId('withholding')).toHaveCount(0, { timeout: 20_000 });
  await expect(panel.getByTestId('cart-payable')).toContainText('3,500.00');
  await panel.getByTestId('method-1').check();
  await panel.getByTestId('checkout-submit').click();
  await notifyTransfer(page, '3500');
  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({ price: 350_000, is_withholding: false, withholding_price: 0, total: 350_000 });

  // the same page for a juristic person offers it
  const company = await freshStudent(shop.db, 'whtjur');
  await makeJuristic(shop.db, company.id);
  await page.context().clearCookies();
  await openAs(page, company.username, '/course/3-ux-ui-workshop');
  await expect(page.getByTestId('purchase-panel').getByTestId('withholding').getByRole('checkbox', { name: 'หักภาษี ณ ที่จ่าย' })).toBeVisible({ timeout: 20_000 });
});

test('a company buyer whose tax data lacks the address and certificate: the tax-invoice form before the order (the profile unreadable once, a refused file, a failed upload, a failed save), then withholding 3% ordered', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'whtform');
  await makeJuristic(shop.db, user.id);
  await shop.db.query('UPDATE users SET tax_address = NULL, tax_company_certificate = NULL WHERE id = $1', [user.id]);
  // English (1,990.00; no seats to use up): 199000 ÷ 1.07 → 185981 before VAT; 3% → 5579; payable 193421
  const withheld = withholdingAmount(amountBeforeVat(199_000, SITE_TAX), 3);
  expect(withheld).toBe(5_579);
  await openAs(page, user.username, '/course/1-english-for-communication');
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('withholding').getByRole('checkbox', { name: 'หักภาษี ณ ที่จ่าย' }).check();
  await expect(panel.getByTestId('cart-payable')).toContainText('1,934.21');
  await panel.getByTestId('method-1').check();
  // the student's tax data cannot be read (the server answers 500): said, nothing ordered, the buyer may try again
  await page.route('**/private/students', (route) => route.fulfill(serverError('e2e: profile unavailable')));
  await panel.getByTestId('checkout-submit').click();
  await expect(page.getByText('ไม่สามารถดึงข้อมูลได้ กรุณาลองใหม่อีกครั้ง').first()).toBeVisible({ timeout: 20_000 });
  await page.unroute('**/private/students');
  await expect(panel.getByTestId('checkout-submit')).toBeEnabled();
  await panel.getByTestId('checkout-submit').click();

  // The tax data on file is incomplete: the form, with what is on file, before any order.
  const modal = page.getByRole('dialog', { name: 'ข้อมูลใบกำกับภาษี' });
  await expect(modal).toBeVisible({ timeout: 20_000 });
  expect(await ordersOf(shop.db, user.id)).toHaveLength(0);
  await modal.getByLabel('ที่อยู่สำหรับออกใบกำกับภาษี').fill('1 อาคารบริษัททดสอบ ถนนสีลม กรุงเทพมหานคร 10500');
  const certificate = modal.getByTestId('tax-certificate-input');
  // not an image: refused before any upload
  await certificate.setInputFiles({ name: 'certificate.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
  await expect(page.getByText('File type is not allow to upload.').first()).toBeVisible();
  // the upload fails once (the server answers 500), then stores the image
  let uploads = 0;
  await page.route('**/api/home/test_upload', (route) => {
    uploads += 1;
    return route.fulfill(serverError('e2e: upload refused'));
  });
  await certificate.setInputFiles({ name: 'certificate.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('อัพโหลดรูปภาพไม่สำเร็จ กรุณาลองใหม่อีกครั้ง').first()).toBeVisible({ timeout: 20_000 });
  expect(uploads).toBe(1);
  await page.unroute('**/api/home/test_upload');
  await certificate.setInputFiles({ name: 'certificate.png', mimeType: 'image/png', buffer: PNG });
  await expect(modal.getByTestId('tax-certificate').getByRole('list')).toBeVisible({ timeout: 20_000 });
  // the save fails once (the server answers 500): the form stays, nothing ordered
  let saves = 0;
  await page.route('**/private/myaccount/students/tax', (route) => {
    saves += 1;
    return route.fulfill(serverError('e2e: save refused'));
  });
  await modal.getByTestId('tax-submit').click();
  // said as a save that failed (send again), not as data the buyer typed wrong
  await expect(page.getByText('ไม่สามารถบันทึกข้อมูลได้ กรุณาลองใหม่อีกครั้ง').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('ข้อมูลใบกำกับภาษีไม่ถูกต้อง')).toHaveCount(0);
  expect(saves).toBe(1);
  await expect(modal).toBeVisible();
  await page.unroute('**/private/myaccount/students/tax');
  await modal.getByTestId('tax-submit').click();
  // saved, then the order: the bank-transfer notice left for later
  const notice = page.getByRole('dialog', { name: 'แจ้งชำระเงิน' });
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await notice.getByTestId('notify-later').click();
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });

  const tax = await shop.db.query<{ tax_address: string; tax_company_certificate: string | null; tax_person_type: string; is_require_tax_invoice: boolean }>(
    'SELECT tax_address, tax_company_certificate, tax_person_type, is_require_tax_invoice FROM users WHERE id = $1',
    [user.id],
  );
  expect(tax.rows[0]).toMatchObject({ tax_address: '1 อาคารบริษัททดสอบ ถนนสีลม กรุงเทพมหานคร 10500', tax_person_type: 'juristic_person', is_require_tax_invoice: true });
  expect(tax.rows[0]!.tax_company_certificate).toMatch(/\.png$/);
  const order = await onlyOrderOf(shop.db, user.id);
  expect(order).toMatchObject({ payment_status: 'notYetReceived', price: 199_000, is_withholding: true, withholding_percent: 3, withholding_price: 5_579, is_require_tax_invoice: true, total: 193_421 });
});
