/**
 * In Chromium against the real server and its sandboxes: every failure the hosted pages of
 * 2C2P card (3), 2C2P installments (10) and GB Prime Pay card (11) can produce — declined, 3-D
 * Secure failed, cancelled, abandoned with the browser's back button — ends with the failure notice
 * ('ผิดพลาด' / 'ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง') and why in the buyer's language, the order's real
 * status, and a way on: the same order is paid again (the order list's "pay again", the course
 * page's "continue paying order #N"), finally by bank transfer, which leaves it waiting for the
 * shop's approval. The database is checked: one order, its attempts, no successful one, one
 * notice, one seat taken. Each test is a fresh student of its own.
 */
import type { Page } from '@playwright/test';
import type pg from 'pg';
import { expect, freshStudent, loginFast, test } from './engine/fixtures';
import { sendTransferNotice } from './scenarios-support';

const COURSE = '/course/3-ux-ui-workshop';
const COURSE_ID = 3;
const SANDBOX = /\/sandbox\//;
/** GB Prime Pay card: the shop's card page before GB Prime Pay's 3-D Secure. */
const GBP_CARD_PAGE = /\/api\/gbprime\/card\//;
const ORDERS = /\/myaccount\/student\/order/;
const SHOTS = process.env.I9_SHOTS;

const TH = {
  title: 'ผิดพลาด',
  failed: 'ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง',
  left: 'ยังไม่ได้รับการชำระเงินสำหรับคำสั่งซื้อนี้',
  insufficientFunds: 'ยอดเงินในบัตรไม่เพียงพอ',
  authenticationFailed: 'การยืนยันตัวตน 3-D Secure ไม่สำเร็จ',
  declined: 'ธนาคารปฏิเสธการชำระเงิน',
  awaitingPayment: 'รอชำระเงิน',
  awaitingApproval: 'รอตรวจสอบการชำระเงิน',
};

const EN = {
  title: 'Error',
  failed: 'Payment failed, please try again',
  left: 'This order has not been paid yet.',
  cancelled: 'The payment was cancelled',
  insufficientFunds: 'Insufficient funds on the card',
  awaitingPayment: 'Awaiting payment',
  awaitingApproval: 'Payment being checked',
};

interface Facts {
  orders: { id: number; payment_status: string; total: number }[];
  attempts: { provider: string; method_id: number; status: string; failure_code: string | null }[];
  reports: { payment: string; status: string }[];
}

/** What the database holds for the student: orders, the attempts and notices of the first one. */
async function factsOf(db: pg.Pool, userId: number): Promise<Facts> {
  const orders = (await db.query('SELECT id, payment_status, total::int FROM orders WHERE user_id = $1 ORDER BY id', [userId])).rows as Facts['orders'];
  const id = orders[0]?.id ?? 0;
  const attempts = (await db.query('SELECT provider, method_id, status, failure_code FROM payments WHERE order_id = $1 ORDER BY id', [id])).rows as Facts['attempts'];
  const reports = (await db.query('SELECT payment, status FROM payment_reports WHERE order_id = $1 ORDER BY id', [id])).rows as Facts['reports'];
  return { orders, attempts, reports };
}

async function seatsLeft(page: Page): Promise<number> {
  const body = (await (await page.request.get(`/public/courses/${COURSE_ID}/0`)).json()) as { data: { seats_available: number } };
  return body.data.seats_available;
}

/** A fresh student, logged in, and the course's seats left before they order. */
async function loggedInBuyer(page: Page, db: pg.Pool, name: string) {
  const user = await freshStudent(db, name);
  await loginFast(page, user.username);
  return { user, seats: await seatsLeft(page) };
}

/** The buyer chooses the method on the course page and orders. */
async function orderWith(page: Page, methodId: number, path = COURSE): Promise<void> {
  await page.goto(path);
  const panel = page.getByTestId('purchase-panel');
  await panel.getByTestId(`method-${methodId}`).check();
  await expect(panel.getByTestId(`method-${methodId}`)).toBeChecked();
  await panel.getByTestId('checkout-submit').click();
}

/** The 2C2P card form in our page (encrypted by my2c2p.js), then the gateway's page. */
async function pay2c2pCard(page: Page, number: string): Promise<void> {
  const modal = page.getByTestId('twoc2p-card-modal');
  await expect(modal.getByTestId('twoc2p-pay')).toBeVisible({ timeout: 20_000 });
  await modal.getByTestId('card-number').fill(number);
  await modal.getByTestId('card-month').fill('12');
  await modal.getByTestId('card-year').fill(String(new Date().getFullYear() + 2));
  await modal.getByTestId('card-cvv').fill('123');
  await modal.getByTestId('twoc2p-pay').click();
}

/** The order list's "pay again" for `orderId` with `methodId` (the orderPayment flow). */
/**
 * Back on the course page with the browser's back button, the order unpaid: the payment modal says
 * what the server knows (not paid yet) with its ways on; "My orders" leads to the order list.
 */
async function backUnpaid(page: Page, modalTestId: string, left: string): Promise<void> {
  await page.goBack();
  const modal = page.getByTestId(modalTestId);
  await expect(modal.getByTestId('redirect-returned')).toHaveAttribute('data-state', 'unpaid', { timeout: 20_000 });
  await expect(modal.getByTestId('redirect-returned')).toContainText(left);
  await expect(modal.getByTestId('redirect-check')).toBeVisible();
  await shoot(page, `i9-back-unpaid-${modalTestId}`);
  await modal.getByTestId('redirect-leave').click();
}

async function payAgain(page: Page, orderId: number, methodId: number): Promise<void> {
  const row = page.getByTestId('order-row').filter({ hasText: `#${orderId}` });
  await row.getByTestId('order-pay').click();
  await choose(page, methodId);
}

async function choose(page: Page, methodId: number): Promise<void> {
  const modal = page.getByTestId('order-pay-modal');
  await expect(modal.getByTestId('order-pay-methods')).toBeVisible({ timeout: 20_000 });
  await modal.locator(`input[name="order-pay-method"][value="${methodId}"]`).check();
  await modal.getByTestId('order-pay-start').click();
}

/** The failure notice on the order list, with why, and the order's status and reason on its card. */
async function expectFailureShown(page: Page, orderId: number, words: { title: string; failed: string }, reason: string): Promise<void> {
  await expect(page).toHaveURL(ORDERS, { timeout: 20_000 });
  const alert = page.getByTestId('payment-failed');
  await expect(alert).toContainText(words.title);
  await expect(alert).toContainText(words.failed);
  await expect(alert).toContainText(reason);
  const row = page.getByTestId('order-row').filter({ hasText: `#${orderId}` });
  await expect(row.getByTestId('order-outcome')).toHaveAttribute('data-state', 'failed');
  await expect(row.getByTestId('order-outcome-reason')).toHaveText(reason);
}

/** On the order list after leaving unpaid: the order waits for its payment, its seat still held. */
async function expectAwaitingOnOrderList(page: Page, db: pg.Pool, userId: number, words: { awaitingPayment: string }, seats: number) {
  await expect(page).toHaveURL(ORDERS, { timeout: 20_000 });
  const [order] = (await factsOf(db, userId)).orders;
  const row = page.getByTestId('order-row').filter({ hasText: `#${order!.id}` });
  await expect(row.getByTestId('order-outcome')).toHaveAttribute('data-state', 'awaitingPayment');
  await expect(row.getByTestId('order-outcome')).toContainText(words.awaitingPayment);
  expect(await seatsLeft(page)).toBe(seats - 1);
  return order!;
}

/** The bank-transfer notice for the order's total; the order then waits for the shop. */
async function notifyTransfer(page: Page, total: number, words: { awaitingApproval: string }, orderId: number): Promise<void> {
  const notice = page.getByRole('dialog').filter({ has: page.getByTestId('notify-submit') });
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await sendTransferNotice(notice, String(total / 100));
  await expect(notice).toBeHidden({ timeout: 20_000 });
  // handed over: the order's thank-you page, which reads the order (waiting for approval, not paid)
  await expect(page).toHaveURL(/\/thankyou\?orderId=/, { timeout: 20_000 });
  await expect(page.getByTestId('thankyou-title')).toHaveAttribute('data-state', 'awaitingApproval');
  await page.goto('/myaccount/student/order');
  const outcome = page.getByTestId('order-row').filter({ hasText: `#${orderId}` }).getByTestId('order-outcome');
  await expect(outcome).toHaveAttribute('data-state', 'awaitingApproval', { timeout: 20_000 });
  await expect(outcome).toContainText(words.awaitingApproval);
}

/** One method's attempts on the order, oldest first: its provider, then each attempt's status and failure code. */
function attemptsOf(provider: string, methodId: number, ...attempts: [status: string, failureCode: string | null][]): Facts['attempts'] {
  return attempts.map(([status, failure_code]) => ({ provider, method_id: methodId, status, failure_code }));
}

/**
 * Paid again by bank transfer: the notice for the order's total; then one order, paid by nobody,
 * waiting for the shop with one bank-transfer notice after `attempts`, its one seat still taken.
 */
async function transferAwaitsShop(page: Page, db: pg.Pool, userId: number, order: { id: number; total: number }, words: { awaitingApproval: string }, seats: number, attempts: Facts['attempts']): Promise<void> {
  await notifyTransfer(page, order.total, words, order.id);
  const f = await factsOf(db, userId);
  expect(f.orders).toHaveLength(1);
  expect(f.orders[0]!.payment_status).toBe('pendingApproved');
  expect(f.attempts).toEqual(attempts);
  expect(f.reports).toEqual([{ payment: 'BankTransfer', status: 'pending' }]);
  expect(await seatsLeft(page)).toBe(seats - 1);
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

test('2C2P card (3): left at 3-D Secure with the back button, declined, 3-D Secure failed — each told why; paid again on the same order by bank transfer', async ({ page, shop }) => {
  const { user, seats } = await loggedInBuyer(page, shop.db, 'h3');

  // Abandoned: the gateway's 3-D Secure page, then the browser's back button to the course page.
  await orderWith(page, 3);
  await pay2c2pCard(page, '4111111111111111');
  await expect(page.getByTestId('3ds-fail')).toBeVisible({ timeout: 20_000 });
  await backUnpaid(page, 'twoc2p-card-modal', TH.left);
  // the order list, where the order waits for its payment
  const order = await expectAwaitingOnOrderList(page, shop.db, user.id, TH, seats);

  // Declined by the bank (4051): pay again on the same order from the order list.
  await payAgain(page, order.id, 3);
  await pay2c2pCard(page, '4111111111140011');
  await expectFailureShown(page, order.id, TH, TH.insufficientFunds);

  // 3-D Secure failed (status AR).
  await payAgain(page, order.id, 3);
  await pay2c2pCard(page, '4111111111111111');
  await page.getByTestId('3ds-fail').click({ timeout: 20_000 });
  await expectFailureShown(page, order.id, TH, TH.authenticationFailed);
  await shoot(page, 'i9-2c2p-card-3ds-failed');

  // The course page does not sell the course again: it continues this order, by bank transfer.
  await page.goto(COURSE);
  const cont = page.getByTestId('continue-paying');
  await expect(cont).toHaveText(`ชำระเงินคำสั่งซื้อ #${order.id} ต่อ`);
  await cont.click();
  await choose(page, 1);
  await transferAwaitsShop(page, shop.db, user.id, order, TH, seats, attemptsOf('2c2p', 3, ['pending', null], ['failed', '4051'], ['failed', 'AR']));
});

test('2C2P installments (10), in English: left with the back button, cancelled, declined — each told why; paid again on the same order by bank transfer', async ({ page, shop }) => {
  const { user, seats } = await loggedInBuyer(page, shop.db, 'h10');

  // Abandoned: 2C2P's page, then the browser's back button; told in English that the order is not
  // paid yet, then the order list, where the order waits for its payment.
  await orderWith(page, 10, `${COURSE}?lang=en`);
  await expect(page).toHaveURL(SANDBOX, { timeout: 20_000 });
  await backUnpaid(page, 'redirect-modal', EN.left);
  const order = await expectAwaitingOnOrderList(page, shop.db, user.id, EN, seats);

  // Cancelled on 2C2P's page, paying again by installments from the order list.
  await payAgain(page, order.id, 10);
  await expect(page).toHaveURL(SANDBOX, { timeout: 20_000 });
  await page.getByTestId('2c2p-cancel').click();
  await expectFailureShown(page, order.id, EN, EN.cancelled);
  await shoot(page, 'i9-2c2p-installments-cancelled-en');

  // Declined (insufficient funds).
  await payAgain(page, order.id, 10);
  await expect(page).toHaveURL(SANDBOX, { timeout: 20_000 });
  await page.locator('input[name="cardnumber"]').fill('4111111111140011');
  await page.getByTestId('2c2p-pay').click();
  await expectFailureShown(page, order.id, EN, EN.insufficientFunds);

  // Another method on the same order: bank transfer.
  await payAgain(page, order.id, 1);
  await transferAwaitsShop(page, shop.db, user.id, order, EN, seats, attemptsOf('2c2p', 10, ['pending', null], ['cancelled', 'cancelled'], ['failed', '4051']));
});

test('GB Prime Pay card (11): left with the back button, declined, 3-D Secure failed — each told why; paid again on the same order by bank transfer', async ({ page, shop }) => {
  const { user, seats } = await loggedInBuyer(page, shop.db, 'h11');

  // Abandoned: GB Prime Pay's card page, then the browser's back button: told the order is not paid
  // yet; from the order list back to the course page, which offers to continue paying this order.
  await orderWith(page, 11);
  await expect(page).toHaveURL(GBP_CARD_PAGE, { timeout: 20_000 });
  await backUnpaid(page, 'redirect-modal', TH.left);
  await expect(page).toHaveURL(ORDERS, { timeout: 20_000 });
  await page.goto(COURSE);
  const order = (await factsOf(shop.db, user.id)).orders[0]!;
  const cont = page.getByTestId('continue-paying');
  await expect(cont).toHaveText(`ชำระเงินคำสั่งซื้อ #${order.id} ต่อ`);
  await expect(page.getByTestId('redirect-modal')).toBeHidden();
  // The page is read again, not the one before the order: one seat fewer.
  await expect(page.locator('main')).toContainText(`เหลือ ${seats - 1} ที่นั่ง`);
  await shoot(page, 'i9-gbprime-left');
  expect(await seatsLeft(page)).toBe(seats - 1);

  // Declined (insufficient funds): continue paying from the course page with the same method.
  await cont.click();
  await choose(page, 11);
  await expect(page).toHaveURL(GBP_CARD_PAGE, { timeout: 20_000 });
  await page.getByTestId('gbp-number').fill('4111111111140011');
  await page.getByTestId('gbp-pay').click();
  await page.getByTestId('3ds-pass').click({ timeout: 20_000 });
  await expectFailureShown(page, order.id, TH, TH.insufficientFunds);

  // 3-D Secure failed: said as such (as for Omise), not "the bank declined".
  await payAgain(page, order.id, 11);
  await expect(page).toHaveURL(GBP_CARD_PAGE, { timeout: 20_000 });
  await page.getByTestId('gbp-pay').click();
  await page.getByTestId('3ds-fail').click({ timeout: 20_000 });
  await expectFailureShown(page, order.id, TH, TH.authenticationFailed);

  // Another method on the same order: bank transfer.
  await payAgain(page, order.id, 1);
  await transferAwaitsShop(page, shop.db, user.id, order, TH, seats, attemptsOf('gbprime', 11, ['pending', null], ['failed', '51'], ['failed', 'V']));
});
