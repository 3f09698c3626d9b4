/**
 * Page map of pay again (orderPayment): the order list's Pay / Cancel on an unpaid order
 * made for the path (through the API as the logged-in buyer, with the WELCOME10 coupon), the pay
 * panel (the methods allowed for the order, the failure with its reason, Try again, Change method,
 * Cancel), the cancel question, and each method's own popup run by its machine as the flow's
 * child. A child's result is brought about through its popup and the sandboxes, with the per-method
 * maps' helpers (a test card, the bank app paying a QR, the PayPal window, the transfer notice).
 * Every transition of the flow is walked: each method's end on this page, paid (or handed over)
 * and not paid (PayPal closed, a QR's 'Done' before paying or the shop's rejection while it is
 * shown, a declined card, a provider page that could not be prepared), the result read after it
 * (still payable, paid meanwhile, rejected, or the read lost), and from the failure Try again /
 * Change method / Cancel / leave. What the shop does "meanwhile" happens while the page's order
 * read is held on its way (the back office approves before the read reaches the server).
 * The flow never finishes: a path ends when it is back in `idle` (the panel closed), on the
 * thank-you page (paid, or a transfer notified: the site has a thank-you page) or on the list.
 * Leaving a hosted-page method (10, 11, 13) is walked while its provider page is being prepared
 * (the request is held, then dropped): once the browser is at the provider, this page is gone;
 * leaving while the order or its methods load holds that read the same way.
 * A free order the checkout could not record (its free report got no answer; made here through the
 * API on the free course 9, with no report) has nothing to pay: its button records it, and the
 * thank-you page then says it is paid; when the report gets no answer again, the list says so and
 * keeps the button.
 */
import { expect } from '@playwright/test';
import type { AnyMachineSnapshot } from 'xstate';
import { randomUUID } from 'node:crypto';
import { METHOD_ACTORS } from '../../../../machines/payments/methods';
import { orderPaymentMachine } from '../../../../machines/payments/order-payment.machine';
import type { PaymentMethodId } from '../../../../machines/shared/api';
import { orderRead, student } from '../../../machines/models/fixtures';
import { orderPaymentModel } from '../../../machines/models/order-payment.model';
import { PNG, setThankYouPage } from '../../support';
import { approveInBackOffice, expectApprovedByShop, expectUnpaid, orderFacts, ordersOfUser, rejectInBackOffice } from '../db';
import { label, specMessage } from '../lang';
import { labelOf, labelled } from '../paths';
import type { BrowserStep } from '../paths';
import type { PageMap, PathContext, StateCheck } from '../runner';
import { expectPaidWith, failOnce, failureNotice, GET_ORDER, onOrderList, onThankYouPage, PAID_BY } from './common';
import { cardModal, payByCard } from './omise-card';
import { approveWith, closeButton, openPaypalWindow } from './paypal';
import { enterCard } from './two-c2p-card';
import { gbPrimeBankAppPays, omiseBankAppPays, promptPayDialog } from './promptpay';
import { bankAppPays, scbQrDialog } from './scb-qr';
import { whenTestEnds } from '../test-end';

const METHODS = Object.keys(METHOD_ACTORS).map(Number) as PaymentMethodId[];
/** The order is made with this method: the panel offers it first. */
const ORDER_METHOD = 1;
/** Where the paths' orders are made: course 1 (no seat limit), or course 3 (10 seats) when the path cancels, to see the seat given back. */
const COURSE = { plain: 1, seats: 3, free: 9 } as const;
const COUPON = 'WELCOME10';
/** getPaymentMethodsForOrder: GET /private/payments/methods/order/{orderId}. */
/** create2c2pCardRequest: the card request signed for 2C2P's gateway. */
const TWOC2P_CARD_REQUEST = /\/api\/payment\/2c2p\/card\/request$/;
const METHODS_OF_ORDER = /\/private\/payments\/methods\/order\/\d+$/;
/** createPaymentReportPublic: the free order's report. */
const FREE_REPORT = /\/public\/payment\/report$/;

/** The methods whose provider page is prepared first (the buyer then leaves our site), with the request that prepares it. */
const HOSTED: Partial<Record<number, RegExp>> = {
  10: /\/api\/payment\/2c2p\/payment\/link$/,
  11: /\/api\/gbprime$/,
  13: /\/api\/pay-solutions$/,
};

/** A payment child's ends on this page, by label: the result it hands back to the flow. */
const ends = (...pairs: [label: string, result: string][]) => ({ done: pairs.map(([label, result]) => ({ label, output: { result } })) });

/** The children whose `paid` end is a payment by their provider, with their method. */
const PAID_CHILD: Record<string, number> = { paypal: 2, scbQr: 4, omiseCard: 8, omisePromptPay: 9, gbPrimePromptPay: 12 };

const read = (state: string, payment_status: 'notYetReceived' | 'approved' | 'rejected', reason: string | null = null) => {
  const r = orderRead(payment_status, ORDER_METHOD);
  return { ...r, data: { ...r.data, outcome: { state, reason, method_id: ORDER_METHOD } } };
};
const FREE_ORDER = (() => {
  const r = read('awaitingPayment', 'notYetReceived');
  return { ...r, data: { ...r.data, price: 0, total_amount: 0 } };
})();

/** The flow's method is one of these (its result is read after that method's attempt). */
const after = (s: AnyMachineSnapshot, methods: readonly number[]) => methods.includes((s.context as { methodId: number | null }).methodId ?? 0);
/** The methods whose attempt can end with the order still payable as it was (closed, Done before paying, a page that could not be prepared). */
const UNPAID_AFTER = [2, 3, 4, 10, 11, 13];

const payPanel = (ctx: PathContext) => ctx.page.getByTestId('order-pay-modal');
const cancelModal = (ctx: PathContext) => ctx.page.getByTestId('order-cancel-modal');
const notice = (ctx: PathContext) => ctx.page.getByRole('dialog', { name: label(ctx.lang, 'notifyPayment') });
const row = (ctx: PathContext) => ctx.page.getByTestId('order-row').filter({ hasText: `#${ctx.orderId}` });
const has = (ctx: PathContext, label: string) => ctx.labels?.includes(label) ?? false;
/** The method whose provider paid on this path (a child's `paid` end), if any. */
const paidChild = (ctx: PathContext) => ctx.labels?.map((l) => /^✓(\w+):paid$/.exec(l)?.[1]).find((id) => id !== undefined && id in PAID_CHILD);
/** The path's order is a free one left unrecorded. */
const free = (ctx: PathContext) => has(ctx, '✓getOrder:free');
/** The shop approved the order while it was being paid (the form being prepared, the result being read): the thank-you page, approved by the shop. */
const approvedWhilePaying = (ctx: PathContext) => has(ctx, '✓paySolutions:paid') || has(ctx, '✓getOrder:settled');
/** The shop rejected the order while its QR was shown. */
const rejectedWhilePaying = (ctx: PathContext) => has(ctx, '✓getOrder:rejected');

/** The label after this step on the path. */
function next(ctx: PathContext, step: BrowserStep): string | undefined {
  const steps = ctx.path?.steps ?? [];
  return steps[steps.indexOf(step) + 1]?.label;
}

async function seats(ctx: PathContext, courseId: number): Promise<number | null> {
  const r = await ctx.shop.db.query<{ seats: number | null }>('SELECT seats FROM courses WHERE id = $1', [courseId]);
  return r.rows[0]!.seats;
}

/** The buyer's unpaid order, made through the API with the buyer's session (as the checkout makes it), then the order list. */
async function start(ctx: PathContext): Promise<void> {
  if (free(ctx)) return startFree(ctx);
  const course = has(ctx, '✓deleteOrder:ok') ? COURSE.seats : COURSE.plain;
  const { db } = ctx.shop;
  const plan = await planOf(ctx, course);
  const coupon = (await db.query<{ id: number }>('SELECT id FROM coupons WHERE code = $1', [COUPON])).rows[0]!.id;
  ctx.plan.course = String(course);
  ctx.plan.seats = String(await seats(ctx, course));
  const r = await ctx.page.request.post('/private/cart/order', {
    headers: { 'Idempotency-Key': randomUUID() },
    data: { user_id: ctx.user.id, course_id: [course], pricingplan_id: [plan], payment_method_id: ORDER_METHOD, coupon_id: [coupon], currency_code: 'THB' },
  });
  expect(r.ok(), await r.text()).toBe(true);
  const f = await orderFacts(ctx);
  ctx.orderId = f.order.id;
  expect(f.order.payment_status).toBe('notYetReceived');
  expect(f.couponUses).toEqual([{ coupon_id: coupon, released: false }]);
  if (course === COURSE.seats) expect(await seats(ctx, course)).toBe(Number(ctx.plan.seats) - 1);
  ctx.plan.coupon = String(coupon);
  await ctx.page.goto('/myaccount/student/order');
}

async function planOf(ctx: PathContext, course: number): Promise<number> {
  const r = await ctx.shop.db.query<{ id: number }>("SELECT id FROM pricing_plans WHERE course_id = $1 AND pricing_type = 'default' ORDER BY is_default DESC, id LIMIT 1", [course]);
  return r.rows[0]!.id;
}

/** A free order as the checkout leaves it when its free report gets no answer: made, total 0, no report (then the order list). */
async function startFree(ctx: PathContext): Promise<void> {
  ctx.plan.course = String(COURSE.free);
  const r = await ctx.page.request.post('/private/cart/order', {
    headers: { 'Idempotency-Key': randomUUID() },
    data: { user_id: ctx.user.id, course_id: [COURSE.free], pricingplan_id: [await planOf(ctx, COURSE.free)], payment_method_id: ORDER_METHOD, currency_code: 'THB' },
  });
  expect(r.ok(), await r.text()).toBe(true);
  const f = await orderFacts(ctx);
  ctx.orderId = f.order.id;
  expect([f.order.total, f.order.payment_status, f.reports]).toEqual([0, 'notYetReceived', []]);
  await ctx.page.goto('/myaccount/student/order');
  // nothing to pay: the row's button records the free course, and the row names no payment method
  await expect(row(ctx).getByTestId('order-pay')).toHaveText(label(ctx.lang, 'getFreeOrder'), { timeout: 20_000 });
  await expect(row(ctx).getByTestId('order-method')).toHaveText(label(ctx.lang, 'free'));
}

/** What the path's end shows: the thank-you page of a paid or notified order, or the list with the order's real status. */
const idle: StateCheck = async (ctx, step, index, path) => {
  if (index === 0) {
    await expect(row(ctx).getByTestId('order-pay')).toBeVisible({ timeout: 20_000 });
    return;
  }
  if (index !== path.steps.length - 1) return;
  const on = (page: StateCheck) => (page === 'passing' ? undefined : page(ctx, step, index, path));
  const title = ctx.page.getByTestId('thankyou-title');
  if (has(ctx, '✓createPaymentReportPublic:recorded')) {
    // recorded: the thank-you page reads the order, approved at once (the course's plan needs no approval)
    await on(onThankYouPage);
    await expect(title).toHaveAttribute('data-state', 'paid');
    return;
  }
  if (paidChild(ctx) || approvedWhilePaying(ctx)) {
    await on(onThankYouPage);
    await expect(title).toHaveAttribute('data-state', 'paid');
    return;
  }
  if (has(ctx, '✓bankTransfer:notified')) {
    await on(onThankYouPage);
    await expect(title).toHaveAttribute('data-state', 'awaitingApproval');
    return;
  }
  await on(onOrderList);
  await expect(payPanel(ctx)).toBeHidden();
  const outcome = row(ctx).getByTestId('order-outcome');
  if (has(ctx, '✓getOrder:paid')) await expect(outcome).toHaveAttribute('data-state', 'paid', { timeout: 20_000 });
  else if (rejectedWhilePaying(ctx)) await expect(outcome).toHaveAttribute('data-state', 'rejected', { timeout: 20_000 });
  else if (has(ctx, '✓deleteOrder:ok')) await expect(outcome).toHaveAttribute('data-state', 'cancelled', { timeout: 20_000 });
  else {
    // still payable: the list says so and offers to pay again
    await expect(row(ctx).getByTestId('order-pay')).toBeVisible({ timeout: 20_000 });
    if (free(ctx)) {
      // not recorded: said in the buyer's language; the row still offers to record it
      await expect(row(ctx).getByTestId('order-pay')).toHaveText(label(ctx.lang, 'getFreeOrder'));
      await expect(ctx.page.getByTestId('notifications')).toContainText(specMessage(ctx.lang, 'FREE_ORDER_NOT_RECORDED'));
    } else if (path.steps.at(-1)!.label.startsWith('✗')) await expect(ctx.page.getByTestId('notifications')).toContainText(failureNotice(ctx));
  }
};

/**
 * A provider page being prepared: the redirect popup, unless the method ends at once on this page
 * (the page could not be prepared, or the order was found paid): then the popup may be gone before
 * it is looked at, and the trace alone has recorded the state.
 */
const preparing: StateCheck = async (ctx, _step, index, path) => {
  const nextLabel = path.steps[index + 1]?.label ?? '';
  if (/^✓(twoC2pLink|gbPrimeCard|paySolutions):/.test(nextLabel)) return;
  await expect(ctx.page.getByTestId('redirect-modal')).toBeVisible({ timeout: 20_000 });
};

/** payment.leave: Escape closes the top popup (the pay panel, or the running method's). A held request is dropped. */
async function leave(ctx: PathContext): Promise<void> {
  await ctx.page.keyboard.press('Escape');
  const held = holds.get(ctx);
  if (held) {
    await expect(ctx.page.getByRole('dialog')).toHaveCount(0);
    held();
  }
}

const holds = new WeakMap<PathContext, () => void>();

/** Holds the next request to `url` (an order read, a provider page being prepared) until the buyer has left, then drops it. */
async function holdRequest(ctx: PathContext, url: RegExp): Promise<void> {
  let release: () => void = () => undefined;
  const left = new Promise<void>((r) => (release = r));
  holds.set(ctx, release);
  await ctx.page.route(
    url,
    async (route) => {
      await left;
      await route.abort('aborted');
    },
    { times: 1 },
  );
}

/**
 * The shop approves the order in the back office just before the next order read reaches the
 * server (the read is held meanwhile): an approval that lands while the page prepares a payment or
 * reads the result of one.
 */
async function approvedBeforeNextRead(ctx: PathContext): Promise<void> {
  await ctx.page.route(
    GET_ORDER,
    async (route) => {
      await approveInBackOffice(ctx);
      await route.continue();
    },
    { times: 1 },
  );
}

export const orderPaymentMap: PageMap = {
  id: 'orderPayment',
  model: {
    machine: orderPaymentMachine,
    // the demo shop: a thank-you page, a slip required for transfers
    input: { user: student, thankYouPage: true, slipRequired: true },
    rest: 'idle',
    // every state and every transition of the flow, each method's end (paid or handed over, not
    // paid) included; the methods' own inner transitions are walked by their machines' paths
    // (payments.spec.ts)
    cover: 'transitions',
    // the unit model's events; each method chosen is an event of its own (the page checks its radio)
    userEvents: [
      ...orderPaymentModel.userEvents.filter((e) => e.type !== 'method.choose'),
      ...METHODS.map((methodId) => labelled({ type: 'method.choose', methodId }, `method.choose:${methodId}`)),
    ],
    outcomes: {
      getOrder: {
        done: [
          // the order list's read, or the read of the result after an attempt that left the order payable
          { label: 'unpaid', output: read('awaitingPayment', 'notYetReceived'), in: (s) => s.matches('loadingOrder') || (s.matches('readingResult') && after(s, UNPAID_AFTER)) },
          // paid meanwhile (the shop approved it after the list was read): nothing to pay
          { label: 'paid', output: read('paid', 'approved'), in: 'loadingOrder' },
          // a free order the checkout could not record (total 0, no report): nothing to pay
          { label: 'free', output: FREE_ORDER, in: 'loadingOrder' },
          // after a declined card: the order is payable, the reason is the server's
          { label: 'failed', output: read('failed', 'notYetReceived', 'insufficientFunds'), in: (s) => s.matches('readingResult') && after(s, [8]) },
          // a late success: the form could not be prepared, and the shop approved the order before the result was read
          { label: 'settled', output: read('paid', 'approved'), in: (s) => s.matches('readingResult') && after(s, [13]) },
          // the shop rejected the order while its QR was shown: nothing to pay any more
          { label: 'rejected', output: read('rejected', 'rejected'), in: (s) => s.matches('readingResult') && after(s, [9, 12]) },
        ],
        // the order list's read, or the read of the result after a payment link that could not be made
        error: [{ label: 'network', in: (s) => s.matches('loadingOrder') || (s.matches('readingResult') && after(s, [10])) }],
      },
      getPaymentMethodsForOrder: { done: [{ label: 'all', output: { success: true, data: METHODS.map((id) => ({ id, name: `m${id}` })) } }], error: ['network'] },
      deleteOrder: { done: [{ label: 'ok', output: { success: true } }], error: ['network'] },
      createPaymentReportPublic: { done: [{ label: 'recorded', output: { success: true, orderPaymentId: 1, order_token: 'tok-501' } }], error: ['network'] },
      // Each method's end on the order list: paid (or handed over), or not paid. A method that sends
      // the buyer to a provider page (2C2P card's 3-D Secure, 2C2P link, GB Prime Pay card) ends on
      // this page only when that page cannot be prepared; PaySolutions' form also ends paid when the
      // shop approved the order while the form was prepared.
      bankTransfer: ends(['notified', 'pending']),
      paypal: ends(['paid', 'paid'], ['closed', 'toOrders']),
      twoC2pCard: ends(['failed', 'toOrders']),
      scbQr: ends(['paid', 'paid'], ['later', 'toOrders']),
      omiseCard: ends(['paid', 'paid'], ['declined', 'toOrders']),
      omisePromptPay: ends(['paid', 'paid'], ['rejected', 'toOrders']),
      twoC2pLink: ends(['failed', 'toOrders']),
      gbPrimeCard: ends(['failed', 'failed']),
      gbPrimePromptPay: ends(['paid', 'paid'], ['rejected', 'toOrders']),
      paySolutions: ends(['paid', 'paid'], ['failed', 'failed']),
    },
    filter: (s, e) => {
      if (e.type !== 'payment.leave') return true;
      // The transfer notice, the PayPal popup and the card popup are left through their machines
      // (notify later, cancel, close), which end the child: walked as its result, not as a leave.
      return !['bankTransfer', 'paypal', 'omiseCard'].some((id) => s.matches({ paying: id }));
    },
  },
  start,
  states: {
    'orderPayment.idle': idle,
    'orderPayment.loadingOrder': 'passing',
    'orderPayment.loadingMethods': 'passing',
    'orderPayment.recordingFree': 'passing',
    // the methods allowed for the order, the chosen one checked (the order's own method first)
    'orderPayment.choosing': async (ctx, step) => {
      await expect(payPanel(ctx).getByTestId('order-pay-methods')).toBeVisible({ timeout: 20_000 });
      const chosen = (step.state.context as { methodId: number }).methodId;
      await expect(payPanel(ctx).locator(`input[name="order-pay-method"][value="${chosen}"]`)).toBeChecked();
    },
    'orderPayment.paying.bankTransfer': async (ctx) => {
      await expect(notice(ctx)).toBeVisible({ timeout: 20_000 });
    },
    'orderPayment.paying.paypal': async (ctx) => {
      await expect(ctx.page.getByRole('dialog', { name: label(ctx.lang, 'paypalTitle') }).getByTestId('paypal-button')).toBeEnabled({ timeout: 20_000 });
    },
    'orderPayment.paying.twoC2pCard': async (ctx) => {
      await expect(ctx.page.getByRole('dialog')).toBeVisible({ timeout: 20_000 });
    },
    'orderPayment.paying.scbQr': async (ctx) => {
      await expect(scbQrDialog(ctx).getByTestId('qr-image')).toBeVisible({ timeout: 20_000 });
    },
    'orderPayment.paying.omiseCard': async (ctx) => {
      await expect(cardModal(ctx)).toBeVisible({ timeout: 20_000 });
    },
    'orderPayment.paying.omisePromptPay': async (ctx) => {
      await expect(promptPayDialog(ctx).getByTestId('qr-image')).toBeVisible({ timeout: 20_000 });
    },
    'orderPayment.paying.gbPrimePromptPay': async (ctx) => {
      await expect(promptPayDialog(ctx).getByTestId('qr-image')).toBeVisible({ timeout: 20_000 });
    },
    'orderPayment.paying.twoC2pLink': preparing,
    'orderPayment.paying.gbPrimeCard': preparing,
    'orderPayment.paying.paySolutions': preparing,
    'orderPayment.readingResult': 'passing',
    'orderPayment.failed': async (ctx, step) => {
      const panel = payPanel(ctx);
      await expect(panel.getByTestId('order-pay-retry')).toBeVisible({ timeout: 20_000 });
      // why, as the server knows it, in the buyer's language; when the result could not be read,
      // the order as last read (still waiting for its payment), and the failure notice
      // (after a declined card the last read said why it failed, else the order waits for its payment)
      const last = (step.state.context as { order: { outcome?: { state: string } } | null }).order?.outcome?.state ?? 'awaitingPayment';
      if (step.label === '✓getOrder:failed') await expect(panel.getByTestId('order-outcome-reason')).toHaveText(label(ctx.lang, 'payFail_insufficientFunds'));
      else await expect(panel.getByTestId('order-outcome')).toHaveAttribute('data-state', last);
    },
    'orderPayment.confirmingCancel': async (ctx) => {
      await expect(cancelModal(ctx)).toBeVisible({ timeout: 20_000 });
    },
    'orderPayment.cancelling': 'passing',
  },
  events: {
    'order.pay': {
      act: async (ctx, step) => {
        // leaving while the order or its methods load: that request is held until the buyer has left
        const steps = ctx.path?.steps ?? [];
        const leaving = steps.findIndex((st, i) => i > steps.indexOf(step) && st.label === 'payment.leave');
        const from = steps[leaving - 1]?.state;
        if (from?.matches('loadingOrder')) await holdRequest(ctx, GET_ORDER);
        else if (from?.matches('loadingMethods')) await holdRequest(ctx, METHODS_OF_ORDER);
        await row(ctx).getByTestId('order-pay').click();
      },
    },
    // from the list's row, or from the open pay panel
    'order.cancel': {
      act: async (ctx) => {
        if (await payPanel(ctx).isVisible()) await payPanel(ctx).getByTestId('order-pay-cancel').click();
        else await row(ctx).getByTestId('order-cancel').click();
      },
    },
    ...Object.fromEntries(
      METHODS.map((id) => [
        `method.choose:${id}`,
        {
          act: async (ctx: PathContext) => {
            ctx.plan.method = String(id);
            await payPanel(ctx).locator(`input[name="order-pay-method"][value="${id}"]`).check();
          },
        },
      ]),
    ),
    'payment.start': {
      act: async (ctx, step) => {
        const hosted = HOSTED[Number(ctx.plan.method ?? ORDER_METHOD)];
        if (hosted && next(ctx, step) === 'payment.leave') await holdRequest(ctx, hosted);
        await payPanel(ctx).getByTestId('order-pay-start').click();
      },
    },
    'payment.retry': {
      act: async (ctx, step) => {
        const hosted = HOSTED[Number(ctx.plan.method ?? ORDER_METHOD)];
        if (hosted && next(ctx, step) === 'payment.leave') await holdRequest(ctx, hosted);
        await payPanel(ctx).getByTestId('order-pay-retry').click();
      },
    },
    'payment.changeMethod': { act: (ctx) => payPanel(ctx).getByTestId('order-pay-change').click() },
    'payment.leave': { act: leave },
    'cancel.confirm': { act: (ctx) => cancelModal(ctx).getByRole('button', { name: label(ctx.lang, 'cancelOrder') }).click() },
    'cancel.dismiss': { act: (ctx) => cancelModal(ctx).locator('button.ui-btn', { hasText: label(ctx.lang, 'close') }).click() },
    '✓getOrder:unpaid': {},
    // the shop approves the order while the list's read of it is on its way (approved earlier, the list would not offer Pay)
    '✓getOrder:paid': { arm: approvedBeforeNextRead },
    '✓getOrder:failed': {},
    '✓getOrder:free': {},
    '✓createPaymentReportPublic:recorded': {},
    '✗createPaymentReportPublic:network': { arm: (ctx) => failOnce(ctx, FREE_REPORT) },
    '✓getOrder:settled': { arm: approvedBeforeNextRead },
    '✓getOrder:rejected': {},
    '✗getOrder:network': { arm: (ctx) => failOnce(ctx, GET_ORDER) },
    '✓getPaymentMethodsForOrder:all': {},
    '✗getPaymentMethodsForOrder:network': { arm: (ctx) => failOnce(ctx, METHODS_OF_ORDER) },
    '✓deleteOrder:ok': {},
    '✗deleteOrder:network': { arm: (ctx) => failOnce(ctx, /\/public\/cart\/deleteorder$/) },
    // the transfer notice opens with the order's amount already in it: the buyer adds the slip, the bank and the account
    '✓bankTransfer:notified': {
      act: async (ctx) => {
        const m = notice(ctx);
        const { order } = await orderFacts(ctx);
        await expect(m.getByTestId('transfer-amount')).toHaveValue((order.total / 100).toFixed(2));
        await m.getByTestId('slip-input').setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: PNG });
        await expect(m.getByRole('list', { name: label(ctx.lang, 'fileList') })).toBeVisible();
        await m.getByTestId('origin-bank').selectOption('KBANK');
        await m.getByRole('radio', { name: /123-4-56789-0/ }).check();
        await m.getByTestId('notify-submit').click();
      },
    },
    '✓paypal:paid': {
      act: async (ctx) => {
        await openPaypalWindow(ctx);
        await approveWith(ctx, 'pp-approve');
      },
    },
    // the bank app pays; the QR popup moves on by itself (the realtime push), no 'Done'
    '✓scbQr:paid': { act: bankAppPays },
    '✓omiseCard:paid': {
      act: async (ctx) => {
        ctx.plan.card = 'recorded';
        await payByCard(ctx);
      },
    },
    '✓omiseCard:declined': {
      act: async (ctx) => {
        ctx.plan.card = 'declined';
        await payByCard(ctx);
      },
    },
    // the buyer closes the PayPal popup without paying
    '✓paypal:closed': { act: (ctx) => closeButton(ctx).click() },
    // the card form is sent, and the request that signs it for the gateway fails on the network
    '✓twoC2pCard:failed': { arm: (ctx) => failOnce(ctx, TWOC2P_CARD_REQUEST), act: enterCard },
    // 'Done' before the bank app paid: the order stays payable, its QR attempt pending
    '✓scbQr:later': { act: (ctx) => scbQrDialog(ctx).getByTestId('qr-done').click() },
    // the provider page cannot be prepared (the request fails on the network)
    '✓twoC2pLink:failed': { arm: (ctx) => failOnce(ctx, HOSTED[10]!) },
    '✓gbPrimeCard:failed': { arm: (ctx) => failOnce(ctx, HOSTED[11]!) },
    '✓paySolutions:failed': { arm: (ctx) => failOnce(ctx, HOSTED[13]!) },
    // the shop approves the order while PaySolutions' form is prepared: the form's read of the order finds it paid
    '✓paySolutions:paid': { arm: approvedBeforeNextRead },
    // the shop rejects the order while its QR is shown: the push ends the QR
    '✓omisePromptPay:rejected': { act: rejectInBackOffice },
    '✓gbPrimePromptPay:rejected': { act: rejectInBackOffice },
    '✓omisePromptPay:paid': { act: omiseBankAppPays },
    '✓gbPrimePromptPay:paid': { act: gbPrimeBankAppPays },
  },
  db: {
    // Every path ends back in idle: what the database holds is told by what the path did.
    '"idle"': async (ctx) => {
      const child = paidChild(ctx);
      const f = await orderFacts(ctx);
      expect(await ordersOfUser(ctx)).toBe(1);
      if (free(ctx)) {
        // recorded: approved by its one AutoFree report, nothing paid to a provider; else as it was
        const recorded = has(ctx, '✓createPaymentReportPublic:recorded');
        expect([f.order.total, f.order.payment_status, f.payments]).toEqual([0, recorded ? 'approved' : 'notYetReceived', []]);
        expect(f.reports).toEqual(recorded ? [{ payment: 'AutoFree', status: 'approved', transfer_amount: 0, payment_id: null }] : []);
        return;
      }
      const couponKept = [{ coupon_id: Number(ctx.plan.coupon), released: false }];
      if (child) {
        await expectPaidWith(ctx, PAID_CHILD[child]!);
        expect((await orderFacts(ctx)).couponUses).toEqual(couponKept);
        return;
      }
      if (has(ctx, '✓getOrder:paid') || approvedWhilePaying(ctx)) {
        await expectApprovedByShop(ctx);
        return;
      }
      if (rejectedWhilePaying(ctx)) {
        // rejected by the shop: its seat and its coupon use are given back, nothing was paid
        const rejected = await expectUnpaid(ctx, 'rejected');
        expect(rejected.order.status).toBe('rejected');
        expect(rejected.couponUses).toEqual([{ coupon_id: Number(ctx.plan.coupon), released: true }]);
        return;
      }
      if (has(ctx, '✓bankTransfer:notified')) {
        expect(f.order.payment_status).toBe('pendingApproved');
        // a card declined before the transfer stays the one failed attempt
        expect(f.payments.map((p) => [p.provider, p.status])).toEqual(has(ctx, '✓omiseCard:declined') ? [['omise', 'failed']] : []);
        expect(f.reports).toEqual([{ payment: 'BankTransfer', status: 'pending', transfer_amount: f.order.total, payment_id: null }]);
        expect(f.couponUses).toEqual(couponKept);
        return;
      }
      if (has(ctx, '✓deleteOrder:ok')) {
        // cancelled at once: its seat and its coupon use are given back
        expect(f.order.status).toBe('cancelled');
        expect(f.order.payment_status).not.toBe('approved');
        expect(f.couponUses).toEqual([{ coupon_id: Number(ctx.plan.coupon), released: true }]);
        expect(await seats(ctx, Number(ctx.plan.course))).toBe(Number(ctx.plan.seats));
        return;
      }
      // still waiting for its payment: the seat and the coupon use stay held
      const unpaid = await expectUnpaid(ctx);
      expect(unpaid.couponUses).toEqual(couponKept);
      if (ctx.plan.course === String(COURSE.seats)) expect(await seats(ctx, COURSE.seats)).toBe(Number(ctx.plan.seats) - 1);
      // a declined card is an attempt that failed, never a second order
      const qr = [4, 9, 12].includes(Number(ctx.plan.method)) ? PAID_BY[Number(ctx.plan.method)] : undefined;
      if (has(ctx, '✓omiseCard:declined')) expect(unpaid.payments.map((p) => [p.provider, p.status])).toEqual([['omise', 'failed']]);
      // a QR left unpaid is the one pending attempt of the order's total (still payable by the bank app, or again)
      else if (qr) expect(unpaid.payments).toEqual([{ provider: qr.provider, status: 'pending', amount: unpaid.order.total }]);
      else expect(unpaid.payments).toEqual([]);
    },
  },
};

/** The shop's thank-you page switched on or off. */
const thankYouPage = (ctx: PathContext, on: boolean): Promise<void> => setThankYouPage(ctx.shop.db, ctx.request, on);

/** The one way through pay again this shop needs: the order's own method (the transfer notice) handed over. */
const WITHOUT_THANK_YOU = ['order.pay', '✓getOrder:unpaid', '✓getPaymentMethodsForOrder:all', 'payment.start', '✓bankTransfer:notified'];

/**
 * Pay again in a shop without a thank-you page (is_thank_you_page off): a payment handed over ends
 * on the order list, which reads the orders again (`done` → idle without the thank-you page). The
 * worker's shop is switched for the path and back at its end (also when the path fails: whenTestEnds).
 */
export const orderPaymentNoThankYouMap: PageMap = {
  ...orderPaymentMap,
  variant: 'no thank-you page',
  model: {
    ...orderPaymentMap.model,
    input: { user: student, thankYouPage: false, slipRequired: true },
    filter: (_s, e) => WITHOUT_THANK_YOU.includes(labelOf(e)),
  },
  start: async (ctx) => {
    await thankYouPage(ctx, false);
    whenTestEnds(() => thankYouPage(ctx, true));
    await start(ctx);
  },
  states: {
    ...orderPaymentMap.states,
    'orderPayment.idle': async (ctx, step, index, path) => {
      if (index !== path.steps.length - 1) return (idle as Exclude<StateCheck, 'passing'>)(ctx, step, index, path);
      // the notice handed over: the list, read again, shows the order waiting for the shop's approval
      await (onOrderList as Exclude<StateCheck, 'passing'>)(ctx, step, index, path);
      await expect(ctx.page.getByTestId('thankyou-title')).toHaveCount(0);
      await expect(row(ctx).getByTestId('order-outcome')).toHaveAttribute('data-state', 'awaitingApproval', { timeout: 20_000 });
    },
  },
  db: {
    '"idle"': async (ctx) => {
      await thankYouPage(ctx, true);
      await orderPaymentMap.db['"idle"']!(ctx);
    },
  },
};
