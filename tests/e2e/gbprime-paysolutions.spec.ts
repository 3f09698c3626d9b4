/**
 * GB Prime Pay (11 card, 12 PromptPay) and PaySolutions (13). The GB Prime Pay card goes from the
 * browser to GB Prime Pay's token API, never to our server. As the buyer sees them when a payment
 * does not go through: the order list says why in the catalogue's words (3-D Secure failed, the
 * bank declined, cancelled), and an order whose PaySolutions payment was declined can be paid again
 * from the order list.
 */
import type { Page } from '@playwright/test';
import { expectUnpaid } from './engine/db';
import { expect, freshStudent, loginFast, test, type Shop } from './engine/fixtures';
import { expectPaidWith } from './engine/maps/common';
import type { MachineTrace } from './engine/trace';

const COURSE = '/course/1-english-for-communication';

type ApiOrder = { id: number; payment_status: string; outcome?: { state: string; reason: string | null; method_id: number | null } };

async function lastOrder(page: Page): Promise<ApiOrder> {
  const r = await page.request.get('/private/orders');
  expect(r.ok()).toBe(true);
  const orders = ((await r.json()) as { data: ApiOrder[] }).data;
  const last = orders.sort((a, b) => b.id - a.id)[0];
  expect(last).toBeTruthy();
  return last!;
}

async function checkout(page: Page, methodId: number): Promise<void> {
  await page.goto(COURSE);
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId(`method-${methodId}`).check();
  await panel.getByTestId('checkout-submit').click();
}

/** The buyer's path as the engine's database checks read it (engine/db.ts). */
function pathOf(page: Page, shop: Shop, machines: MachineTrace, user: Awaited<ReturnType<typeof freshStudent>>) {
  return { page, request: page.request, shop, trace: machines, user, lang: 'th' as const, coursePath: COURSE, plan: {} };
}

/**
 * A fresh buyer orders with PaySolutions (13) and presses `button` on its page (decline, cancel):
 * back on the thank-you page or the order list; in the database one order, not paid, no attempt
 * left pending; their order as the API gives it.
 */
async function paySolutionsUnpaid(page: Page, shop: Shop, machines: MachineTrace, name: string, button: 'ps-decline' | 'ps-cancel'): Promise<ApiOrder> {
  const user = await freshStudent(shop.db, name);
  await loginFast(page, user.username);
  await checkout(page, 13);
  await page.getByTestId(button).click({ timeout: 20_000 });
  await expect(page.getByTestId('thankyou-title').or(page.getByTestId('orders-page')).first()).toBeVisible({ timeout: 20_000 });
  const f = await expectUnpaid(pathOf(page, shop, machines, user));
  expect(f.payments.map((p) => p.status)).not.toContain('pending');
  return lastOrder(page);
}

/** The order list's row of the order shows `reason` (and not `not`). */
async function listShowsReason(page: Page, orderId: number, reason: string, not: string): Promise<void> {
  await page.goto('/myaccount/student/order');
  const row = page.getByTestId('order-row').filter({ hasText: `#${orderId}` });
  await expect(row.getByTestId('order-outcome')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
  await expect(row.getByTestId('order-outcome-reason')).toHaveText(reason);
  await expect(row).not.toContainText(not);
}

test('PaySolutions declined, then "pay again" from the order list posts the PaySolutions form and the order is paid', async ({ page, shop, machines }) => {
  const order = await paySolutionsUnpaid(page, shop, machines, 'ps-again', 'ps-decline');
  expect(order.outcome).toMatchObject({ state: 'failed', reason: 'declined' });

  await page.goto('/myaccount/student/order');
  const row = page.getByTestId('order-row').filter({ hasText: `#${order.id}` });
  await row.getByTestId('order-pay').click();
  const pay = page.getByTestId('order-pay-modal');
  await expect(pay.getByTestId('order-pay-methods')).toBeVisible({ timeout: 20_000 });
  await pay.locator('input[name="order-pay-method"][value="13"]').check();
  await pay.getByTestId('order-pay-start').click();
  // PaySolutions' page, not the old failure again.
  await expect(page).toHaveURL(/\/sandbox\/paysolutions\/epaylink\/payment\.aspx/, { timeout: 20_000 });
  await page.getByTestId('ps-pay').click();
  await expect.poll(async () => (await lastOrder(page)).payment_status, { timeout: 20_000 }).toBe('approved');
});

test('PaySolutions cancelled on its page: the order list says the payment was cancelled', async ({ page, shop, machines }) => {
  const order = await paySolutionsUnpaid(page, shop, machines, 'ps-cancel', 'ps-cancel');
  await listShowsReason(page, order.id, 'การชำระเงินถูกยกเลิก', 'ธนาคารปฏิเสธการชำระเงิน');
});

test('GB Prime Pay card: 3-D Secure failed reads "3-D Secure failed", not "bank declined"', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'gbp-3ds');
  await loginFast(page, user.username);
  await checkout(page, 11);
  await page.getByTestId('gbp-pay').click({ timeout: 20_000 });
  await page.getByTestId('3ds-fail').click({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/myaccount\/student\/order/, { timeout: 20_000 });
  const order = await lastOrder(page);
  expect(order.outcome).toMatchObject({ state: 'failed', reason: 'authenticationFailed' });
  await listShowsReason(page, order.id, 'การยืนยันตัวตน 3-D Secure ไม่สำเร็จ', 'ธนาคารปฏิเสธการชำระเงิน');
});

test('GB Prime Pay card: the browser sends the card to GB Prime Pay (public key); our server receives only the token; paid after 3-D Secure', async ({ page, shop, machines }) => {
  const user = await freshStudent(shop.db, 'gbp-token');
  await loginFast(page, user.username);
  const sent: { url: string; method: string; headers: Record<string, string>; body: string }[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/sandbox\/gbprime\/v1\/tokens$|\/api\/gbprime\/card\//.test(r.url())) sent.push({ url: r.url(), method: r.method(), headers: r.headers(), body: r.postData() ?? '' });
  });
  await checkout(page, 11);
  await expect(page).toHaveURL(/\/api\/gbprime\/card\//, { timeout: 20_000 });
  const publicKey = await page.locator('form#c').getAttribute('data-key');
  expect(publicKey).toBeTruthy();
  await page.getByTestId('gbp-pay').click({ timeout: 20_000 });
  await page.getByTestId('3ds-pass').click({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
  await expect.poll(async () => (await lastOrder(page)).payment_status, { timeout: 20_000 }).toBe('approved');
  // paid by GB Prime Pay in the database: one order, one successful attempt of its total, GB Prime Pay's report
  await expectPaidWith(pathOf(page, shop, machines, user), 11);
  const token = sent.find((s) => s.url.endsWith('/sandbox/gbprime/v1/tokens'));
  const ours = sent.filter((s) => s.url.includes('/api/gbprime/card/'));
  expect(token, 'the browser called GB Prime Pay\'s token API').toBeTruthy();
  expect(token!.headers.authorization).toBe(`Basic ${Buffer.from(`${publicKey}:`).toString('base64')}`);
  expect(JSON.parse(token!.body)).toEqual({ rememberCard: false, card: { number: '4535017710535741', expirationMonth: '12', expirationYear: '30', securityCode: '123', name: expect.any(String) } });
  expect(ours).toHaveLength(1);
  expect([...new URLSearchParams(ours[0]!.body).keys()]).toEqual(['token']);
  expect(ours[0]!.body).not.toContain('4535017710535741');
});

test('GB Prime Pay card: GB Prime Pay unreachable from the browser (network, CORS) — the page says so, nothing reaches our server, the attempt stays open', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'gbp-down');
  await loginFast(page, user.username);
  const ours: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/gbprime/card/')) ours.push(r.url());
  });
  await page.route(/\/sandbox\/gbprime\/v1\/tokens$/, (route) => route.abort('failed'));
  await checkout(page, 11);
  await expect(page).toHaveURL(/\/api\/gbprime\/card\//, { timeout: 20_000 });
  await page.getByTestId('gbp-pay').click({ timeout: 20_000 });
  await expect(page.getByTestId('gbp-error')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('gbp-error')).toHaveText('ติดต่อ GB Prime Pay ไม่ได้ กรุณาลองใหม่อีกครั้ง ข้อมูลบัตรยังไม่ถูกส่ง');
  await expect(page.getByTestId('gbp-pay')).toBeEnabled();
  expect(ours).toEqual([]);
  // GB Prime Pay reachable again: the same page pays.
  await page.unroute(/\/sandbox\/gbprime\/v1\/tokens$/);
  await page.getByTestId('gbp-pay').click();
  await page.getByTestId('3ds-pass').click({ timeout: 20_000 });
  await expect.poll(async () => (await lastOrder(page)).payment_status, { timeout: 20_000 }).toBe('approved');
  expect(ours).toHaveLength(1);
});

test('GB Prime Pay PromptPay declined: the bank declined, never "invalid card data"', async ({ page, shop }) => {
  const user = await freshStudent(shop.db, 'gbp-qr');
  await loginFast(page, user.username);
  const created = page.waitForResponse((r) => r.url().endsWith('/api/gbprime/promptpay') && r.request().method() === 'POST');
  await checkout(page, 12);
  const body = (await (await created).json()) as { data: { referenceNo: string } };
  await expect(page.getByTestId('qr-image')).toBeVisible({ timeout: 20_000 });
  const r = await page.request.post(`/sandbox/gbprime/control/qrcode/${body.data.referenceNo}/decline`);
  expect(r.ok(), await r.text()).toBe(true);
  const order = await lastOrder(page);
  await expect.poll(async () => (await lastOrder(page)).outcome?.reason ?? null, { timeout: 20_000 }).toBe('declined');
  await listShowsReason(page, order.id, 'ธนาคารปฏิเสธการชำระเงิน', 'ข้อมูลบัตรไม่ถูกต้อง');
});
