/**
 * Shared by the checklist scenario specs (scenarios-*.spec.ts): what the database holds for a
 * buyer after a path — every order of the user with its lines, provider attempts, payment reports
 * and coupon uses — plus the course rows (seats, stock) and coupon counters a path moves, and the
 * few page actions those specs share (the Omise card form, the bank-transfer notice); an order
 * the shop approved, written as the back office leaves it (`approvedOrder`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { Pool } from 'pg';
import { ADMIN_TOKEN, expect, freshStudent, loginFast } from './engine/fixtures';
import { PNG } from './support';
import type { OrderRow } from '../../server/orders/repository';

/** An order the shop approved `daysAgo` days ago: `userId` bought `courseId` with the plan named `planName` (as the back office would leave it). */
export async function approvedOrder(db: Pool, userId: number, courseId: number, planName: string, daysAgo: number): Promise<number> {
  const plan = (await db.query<{ id: number; price: number }>('SELECT id, price::int FROM pricing_plans WHERE course_id = $1 AND name = $2', [courseId, planName])).rows[0]!;
  const course = (await db.query<{ name: string; course_type: string }>('SELECT name, course_type FROM courses WHERE id = $1', [courseId])).rows[0]!;
  const at = new Date(Date.now() - daysAgo * 86_400_000);
  const order = await db.query<{ id: number }>(
    `INSERT INTO orders (order_token, user_id, status, payment_status, currency_code, payment_method_id, price, total, email, cancel_at, approved_at, approve_by, created_at, updated_at)
     SELECT $1, u.id, 'approved', 'approved', 'THB', 1, $2, $2, u.email, $3, $4, 'e2e', $4, $4 FROM users u WHERE u.id = $5 RETURNING id`,
    [`e2e-${userId}-${courseId}-${daysAgo}`, plan.price, new Date(at.getTime() + 86_400_000), at, userId],
  );
  const id = order.rows[0]!.id;
  await db.query(
    `INSERT INTO order_courses (order_id, course_id, pricing_plan_id, course_name, course_type, qty, original_pricing_price, discount, price)
     VALUES ($1, $2, $3, $4, $5, 1, $6, 0, $6)`,
    [id, courseId, plan.id, course.name, course.course_type, plan.price],
  );
  return id;
}

/** An order as the scenarios read it: the columns they check (the server's row type), with what hangs off it. */
export interface ScenarioOrder extends Pick<OrderRow, 'id' | 'status' | 'payment_status' | 'currency_code' | 'payment_method_id' | 'price' | 'discount' | 'shipping_fee' | 'withholding_price' | 'is_withholding' | 'withholding_percent' | 'is_require_tax_invoice' | 'total' | 'coupon_list_code' | 'promotion_id' | 'shipping_address_id' | 'shipping_fee_id'> {
  lines: { course_id: number; qty: number; original_pricing_price: number; discount: number; price: number; coupon_code: string | null }[];
  payments: { provider: string; method_id: number; status: string; amount: number; currency: string }[];
  reports: { payment: string; status: string; transfer_amount: number; payment_method_id: number | null }[];
  couponUses: { code: string; released: boolean }[];
}

/** Every order of the user (oldest first), with what hangs off each, amounts in minor units. */
export async function ordersOf(db: Pool, userId: number): Promise<ScenarioOrder[]> {
  const orders = await db.query<Omit<ScenarioOrder, 'lines' | 'payments' | 'reports' | 'couponUses'>>(
    `SELECT id, status, payment_status, currency_code, payment_method_id, price::int, discount::int, shipping_fee::int,
            withholding_price::int, is_withholding, withholding_percent::float AS withholding_percent, is_require_tax_invoice,
            total::int, coupon_list_code, promotion_id, shipping_address_id, shipping_fee_id
       FROM orders WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
  const out: ScenarioOrder[] = [];
  for (const o of orders.rows) {
    const q = <T extends object>(sql: string) => db.query<T>(sql, [o.id]).then((r) => r.rows);
    out.push({
      ...o,
      lines: await q('SELECT course_id, qty, original_pricing_price::int, discount::int, price::int, coupon_code FROM order_courses WHERE order_id = $1 ORDER BY course_id'),
      payments: await q('SELECT provider, method_id, status, amount::int, currency FROM payments WHERE order_id = $1 ORDER BY id'),
      reports: await q('SELECT payment, status, transfer_amount::int, payment_method_id FROM payment_reports WHERE order_id = $1 ORDER BY id'),
      couponUses: await q('SELECT c.code, u.released FROM coupon_uses u JOIN coupons c ON c.id = u.coupon_id WHERE u.order_id = $1 ORDER BY u.id'),
    });
  }
  return out;
}

/** The one order the path made (fails when it made none or several). */
export async function onlyOrderOf(db: Pool, userId: number): Promise<ScenarioOrder> {
  const orders = await ordersOf(db, userId);
  expect(orders.map((o) => o.id), 'the path makes exactly one order').toHaveLength(1);
  return orders[0]!;
}

/**
 * The buyer is on the thank-you page of a paid order, their only one: course 1 at 1,990.00 paid
 * once by `methodId`'s provider (one successful attempt, the provider's report).
 */
export async function expectPaidOnce(page: Page, db: Pool, userId: number, by: { methodId: number; provider: string; report: string }): Promise<void> {
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
  await expect(page.getByTestId('thankyou-title')).toHaveAttribute('data-state', 'paid');
  const order = await onlyOrderOf(db, userId);
  expect(order).toMatchObject({ status: 'approved', payment_status: 'approved', payment_method_id: by.methodId, total: 199_000 });
  expect(order.lines).toEqual([{ course_id: 1, qty: 1, original_pricing_price: 199_000, discount: 0, price: 199_000, coupon_code: null }]);
  expect(order.payments).toEqual([{ provider: by.provider, method_id: by.methodId, status: 'successful', amount: 199_000, currency: 'THB' }]);
  expect(order.reports).toEqual([{ payment: by.report, status: 'approved', transfer_amount: 199_000, payment_method_id: by.methodId }]);
}

/** Seats and stock left of a course or product (null = not limited). */
export async function resourcesOf(db: Pool, courseId: number): Promise<{ seats: number | null; stock: number | null }> {
  const r = await db.query<{ seats: number | null; stock: number | null }>('SELECT seats, stock FROM courses WHERE id = $1', [courseId]);
  return r.rows[0]!;
}

/** How many times a coupon has been used (coupons.used_count). */
export async function couponUsedCount(db: Pool, code: string): Promise<number> {
  const r = await db.query<{ used_count: number }>('SELECT used_count FROM coupons WHERE code = $1', [code]);
  return r.rows[0]!.used_count;
}

/** Makes a (fresh) student a juristic person that asks for tax invoices, with the demo company's tax data. */
export async function makeJuristic(db: Pool, userId: number): Promise<void> {
  await db.query(
    `UPDATE users u SET is_require_tax_invoice = true, tax_person_type = s.tax_person_type, tax_name_one = s.tax_name_one,
            tax_name_two = s.tax_name_two, tax_payer_identification_no = s.tax_payer_identification_no, tax_address = s.tax_address,
            tax_is_delivery_by_tax_address = s.tax_is_delivery_by_tax_address, tax_company_certificate = s.tax_company_certificate
       FROM users s WHERE s.username = 'student2' AND u.id = $1`,
    [userId],
  );
}

/** Fills the Omise card popup with a test card and pays. */
export async function payByOmiseCard(page: Page, cardNumber: string): Promise<void> {
  const modal = page.getByRole('dialog', { name: 'ชำระเงินด้วยบัตรเครดิต/เดบิต' });
  await expect(modal).toBeVisible({ timeout: 20_000 });
  await modal.getByLabel(/ชื่อบนบัตร/).fill('SOMCHAI JAIDEE');
  await modal.getByLabel(/หมายเลขบัตร/).fill(cardNumber);
  await modal.getByLabel(/เดือนหมดอายุ/).fill('12');
  await modal.getByLabel(/ปีหมดอายุ/).fill(String(new Date().getFullYear() + 2));
  await modal.getByLabel(/CVV/).fill('123');
  await modal.getByTestId('omise-pay').click();
}

/** Notifies a bank transfer of `amount` (as the buyer types it, e.g. '3401.87') with a slip, to the first account. */
export async function notifyTransfer(page: Page, amount: string): Promise<void> {
  const modal = page.getByRole('dialog', { name: 'แจ้งชำระเงิน' });
  await expect(modal).toBeVisible({ timeout: 20_000 });
  await sendTransferNotice(modal, amount);
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
}

/** Fills the open bank-transfer notice (a slip, the amount as typed, KBANK, the first account) and sends it. */
export async function sendTransferNotice(modal: Locator, amount: string): Promise<void> {
  await modal.getByTestId('slip-input').setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: PNG });
  await modal.getByTestId('transfer-amount').fill(amount);
  await modal.getByTestId('origin-bank').selectOption('KBANK');
  await modal.getByRole('radio', { name: /123-4-56789-0/ }).check();
  await modal.getByTestId('notify-submit').click();
}

/** Logged in through the API, the page opened, the session shown (header) before anything is done on it. */
export async function openAs(page: Page, username: string, path: string): Promise<void> {
  await loginFast(page, username);
  await page.goto(path);
  await expect(page.getByTestId('header-user')).toBeVisible();
}

/** A fresh student (named after `tag`) logs in, opens the course page, chooses the method and presses pay. */
export async function freshBuyerPays(page: Page, db: Pool, tag: string, methodId: number, coursePath = '/course/1-english-for-communication') {
  const user = await freshStudent(db, tag);
  await openAs(page, user.username, coursePath);
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId(`method-${methodId}`).check();
  await panel.getByTestId('checkout-submit').click();
  return user;
}

/** The back office approves the order's bank transfer (the command line's Bearer token). */
export async function approveByBackOffice(page: Page, orderId: number): Promise<void> {
  const approved = await page.request.post(`/admin/api/orders/${orderId}/approve`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, data: {} });
  expect(approved.ok(), await approved.text()).toBe(true);
}

/**
 * On the open course page: bank transfer chosen, pay pressed, the notice filed with the amount the
 * modal shows (the payable total), then the buyer's only order read back.
 */
export async function payByTransferAsShown(page: Page, db: Pool, userId: number): Promise<ScenarioOrder> {
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId('method-1').check();
  await panel.getByTestId('checkout-submit').click();
  const modal = page.getByRole('dialog', { name: 'แจ้งชำระเงิน' });
  await expect(modal).toBeVisible({ timeout: 20_000 });
  await notifyTransfer(page, await modal.getByTestId('transfer-amount').inputValue());
  return onlyOrderOf(db, userId);
}

/** The back office approves the order's transfer; the order list is opened and its first row given. */
export async function approvedOrderRow(page: Page, orderId: number): Promise<Locator> {
  await approveByBackOffice(page, orderId);
  await page.goto('/myaccount/student/order');
  return page.getByTestId('order-row').first();
}

/** The text of a PDF the page's session downloads (Debian's pdftotext -layout, runs of blanks made one). */
export async function pdfText(page: Page, href: string): Promise<string> {
  const r = await page.request.get(href);
  expect(r.status()).toBe(200);
  expect(r.headers()['content-type']).toContain('application/pdf');
  const dir = mkdtempSync(join(tmpdir(), 'doc-'));
  const file = join(dir, 'doc.pdf');
  writeFileSync(file, await r.body());
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ');
}

/** From the course page: chooses the payment method in the purchase panel and orders (the buyer already logged in). */
export async function orderFromCoursePage(page: Page, coursePath: string, methodId: number): Promise<void> {
  await page.goto(coursePath);
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId(`method-${methodId}`).check();
  await panel.getByTestId('checkout-submit').click();
}

/** The PayPal dialog (Thai) once shown, and the approval window (PayPal's page) its button opens. */
export async function openPaypalApproval(page: Page): Promise<{ modal: Locator; popup: Page }> {
  const modal = page.getByRole('dialog', { name: 'ชำระเงินด้วย PayPal' });
  await expect(modal).toBeVisible({ timeout: 20_000 });
  const [popup] = await Promise.all([page.waitForEvent('popup'), modal.getByTestId('paypal-button').click()]);
  return { modal, popup };
}

export type ApiOrder = { id: number; order_token: string; payment_status: string; courses?: { course_id: number }[]; outcome?: { state: string; reason: string | null; method_id: number | null } };

/** The student's orders of a course as the server has them (read through the student's own session). */
export async function courseOrdersOf(page: Page, courseId: number): Promise<ApiOrder[]> {
  const r = await page.request.get('/private/orders');
  expect(r.ok()).toBe(true);
  const body = (await r.json()) as { data: ApiOrder[] };
  return body.data.filter((o) => o.courses?.some((c) => c.course_id === courseId));
}

/** The student's saved cart (the server's, as the cart page reads it) holds exactly these lines, in this order. */
export async function savedCart(db: Pool, userId: number, lines: [courseId: number, planId: number, qty: number][]) {
  const c = await db.query<{ id: number }>(
    `INSERT INTO carts (owner, coupon_ids, payment_method_id, updated_at) VALUES ($1, '{}', 1, now())
     ON CONFLICT (owner) DO UPDATE SET updated_at = now() RETURNING id`,
    [`u:${userId}`],
  );
  const cartId = c.rows[0]!.id;
  await db.query('DELETE FROM cart_lines WHERE cart_id = $1', [cartId]);
  for (const [i, [course, plan, qty]] of lines.entries()) {
    await db.query('INSERT INTO cart_lines (cart_id, course_id, pricing_plan_id, qty, position) VALUES ($1, $2, $3, $4, $5)', [cartId, course, plan, qty, i]);
  }
}

/** Each course's default pricing plan (the plan its page's add-to-cart and checkout start with), in the order of `courseIds`. */
export async function defaultPlans(db: Pool, courseIds: number[]): Promise<number[]> {
  const r = await db.query<{ course_id: number; id: number }>('SELECT DISTINCT ON (course_id) course_id, id FROM pricing_plans WHERE course_id = ANY($1) AND is_default ORDER BY course_id, id', [courseIds]);
  const byCourse = new Map(r.rows.map((p) => [p.course_id, p.id]));
  return courseIds.map((id) => {
    const plan = byCourse.get(id);
    if (plan === undefined) throw new Error(`course ${id} has no default plan`);
    return plan;
  });
}

/**
 * An order made through the API with the session of `request` (as the checkout makes it: one
 * idempotency key, THB), for each course's default plan; 201 required. When the order is the
 * starting point of a test, not its subject.
 */
export async function orderThroughApi(request: APIRequestContext, db: Pool, o: { userId: number; courseIds: number[]; methodId: number }): Promise<void> {
  const plans = await defaultPlans(db, o.courseIds);
  const r = await request.post('/private/cart/order', {
    headers: { 'idempotency-key': `e2e-${o.userId}-${Date.now()}-${Math.random().toString(36).slice(2)}` },
    data: { user_id: o.userId, course_id: o.courseIds, pricingplan_id: plans, payment_method_id: o.methodId, currency_code: 'THB' },
  });
  expect(r.status(), await r.text()).toBe(201);
}

/**
 * What a route answers to stand for the server failing (500 INTERNAL_ERROR in the contract's
 * envelope): `route.fulfill(serverError('why'))`, the next request let through by `unroute`.
 */
export function serverError(msg: string): { status: number; contentType: string; body: string } {
  return { status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, error: { code: 'INTERNAL_ERROR', msg } }) };
}
