/**
 * Page maps of the methods that send the buyer to the provider's page: 2C2P payment link (10),
 * GB Prime Pay card (11), PaySolutions (13). The provider page is the server's sandbox (GB Prime Pay: the shop's card page first); the
 * buyer pays there, or comes back without paying (the browser's back button), or the shop rejects
 * the order meanwhile; coming back to the course page restores the flow (`payment.resume`).
 */
import { expect, type Page } from '@playwright/test';
import type { AnyMachineSnapshot } from 'xstate';
import type { PaymentMethodId } from '../../../../machines/shared/api';
import { gbPrimeCardModel, paySolutionsModel, twoC2pLinkModel } from '../../../machines/models/redirects.model';
import type { MachineModel } from '../../../machines/support/model';
import { approveInBackOffice, expectApprovedByShop, expectUnpaid, rejectInBackOffice } from '../db';
import type { PageMap, PathContext, StateCheck } from '../runner';
import { backUnpaidOnly, damageOnce, expectPaidWith, failOnce, failureShown, GET_ORDER, leaveForOrders, methodMap, onOrderList, onThankYouPage, reads, startWith } from './common';

interface Redirect {
  /** The machine's model (tests/machines): the sample answer of a prepared provider page comes from it. */
  unit: MachineModel;
  methodId: PaymentMethodId;
  input?: Record<string, unknown>;
  /** The actor that prepares the provider page, and its endpoint. */
  create: { src: string; url: RegExp };
  /** A success the page cannot use (no provider page to go to), made from the server's answer on the wire, when the machine has a branch for it. */
  unusable?: { output: unknown; damage: (body: Record<string, unknown>) => unknown };
  /** Where the provider sends the buyer after paying. */
  returnsTo: RegExp;
  /** On the provider's page: pay. */
  pay: (page: Page) => Promise<void>;
  /** On the provider's page: decline or cancel (when it has such a button). */
  decline?: (page: Page) => Promise<void>;
  /** State names (they differ a little by machine). */
  preparing: string[];
  extraStates?: Record<string, StateCheck>;
}

/** Away from the shop's pages: the provider's page (the sandbox), or GB Prime Pay's card step (the shop's card page, then GB Prime Pay's 3-D Secure). */
const SANDBOX = /\/sandbox\/|\/api\/gbprime\/card\//;

/**
 * payment.resume: the buyer comes back to the course page from the provider page without paying
 * there (the browser's back button; a reload when already back), while the shop may have approved
 * or rejected the order meanwhile (back office). Paying at the provider returns to the thank-you
 * page, which ends the saved flow by design: that is `providerPays` below, not a machine path.
 */
async function comeBack(ctx: PathContext): Promise<void> {
  const { page } = ctx;
  if (ctx.plan.shop === 'reject') await rejectInBackOffice(ctx);
  if (ctx.plan.shop === 'approve') await approveInBackOffice(ctx);
  if (SANDBOX.test(page.url())) await page.goBack();
  else await page.reload();
}

/** The buyer pays on the provider page: back on our site (thank-you page or order list), the order paid by the provider. */
export async function providerPays(ctx: PathContext, map: PageMap): Promise<void> {
  const r = REDIRECTS.get(map)!;
  await map.start(ctx);
  await expect(ctx.page).toHaveURL(SANDBOX, { timeout: 20_000 });
  await r.pay(ctx.page);
  await expect(ctx.page).toHaveURL(r.returnsTo, { timeout: 20_000 });
  await expectPaidWith(ctx, r.methodId);
}

/** The buyer declines or cancels on the provider page: back on our site, the order not paid, the attempt not successful. */
export async function providerDeclines(ctx: PathContext, map: PageMap): Promise<void> {
  const r = REDIRECTS.get(map)!;
  if (!r.decline) throw new Error(`${map.id}: the provider page has no decline`);
  await map.start(ctx);
  await expect(ctx.page).toHaveURL(SANDBOX, { timeout: 20_000 });
  await r.decline(ctx.page);
  await expect(ctx.page).not.toHaveURL(SANDBOX, { timeout: 20_000 });
  const f = await expectUnpaid(ctx);
  expect(f.payments.map((p) => p.status)).not.toContain('pending');
}

/** Where the order read can find the shop's approval or rejection: on the return, or PaySolutions' read before its form is posted. */
const returnedOrPreparing = (s: AnyMachineSnapshot) => s.matches('reconciling') || s.matches('readingOrder');

/**
 * The shop approves or rejects the order: on the return (comeBack acts before the page reads), or,
 * when the read is PaySolutions' own before its form is posted, while that read is held on its way
 * (the moment between the form prepared and the order read).
 */
async function shopActs(ctx: PathContext, label: string, act: 'approve' | 'reject'): Promise<void> {
  ctx.plan.shop = act;
  const steps = ctx.path?.steps ?? [];
  const at = steps.findIndex((st) => st.label === label);
  if (steps[at - 1]?.value !== '"readingOrder"') return;
  await ctx.page.route(
    GET_ORDER,
    async (route) => {
      await (act === 'approve' ? approveInBackOffice(ctx) : rejectInBackOffice(ctx));
      await route.continue();
    },
    { times: 1 },
  );
}

const REDIRECTS = new Map<PageMap, Redirect>();

function redirectMap(r: Redirect): PageMap {
  const map = buildMap(r);
  REDIRECTS.set(map, r);
  return map;
}

function buildMap(r: Redirect): PageMap {
  const id = r.unit.machine.id;
  const read = reads(r.methodId);
  const awaitingReturn: StateCheck = async (ctx, _step, i, path) => {
    const back = path.steps[i - 1]?.value === '"reconciling"';
    if (back) await expect(ctx.page).toHaveURL(new RegExp(`${ctx.coursePath}$`));
    else await expect(ctx.page).toHaveURL(SANDBOX, { timeout: 20_000 });
  };
  const states: Record<string, StateCheck> = {
    [`${id}.awaitingReturn`]: awaitingReturn,
    [`${id}.reconciling`]: 'passing',
    [`${id}.failed`]: 'passing',
    [`${id}.paid`]: onThankYouPage,
    [`${id}.notPaid`]: failureShown,
    [`${id}.leftForOrders`]: onOrderList,
    ...Object.fromEntries(r.preparing.map((s) => [`${id}.${s}`, 'passing' as const])),
    ...r.extraStates,
  };
  const unpaidAfter = async (ctx: PathContext) => {
    await expectUnpaid(ctx, ctx.plan.shop === 'reject' ? 'rejected' : 'notYetReceived');
  };
  return methodMap(r.methodId, r.unit.machine, {
    model: {
      input: r.input,
      // The page sends payment.resume when the course page opens with the saved flow; payment.abandon
      // is My orders in the popup, shown once the buyer is back and the read found no payment.
      userEvents: [{ type: 'payment.resume' }, { type: 'payment.abandon' }],
      filter: backUnpaidOnly('awaitingReturn'),
      outcomes: {
        [r.create.src]: {
          done: [{ label: 'ok', output: r.unit.outcomes?.[r.create.src]?.done?.[0] }, ...(r.unusable ? [{ label: 'unusable', output: r.unusable.output }] : [])],
          error: ['network'],
        },
        getOrder: {
          done: [
            { label: 'unpaid', output: read.unpaid },
            // on the return, or (PaySolutions) while the form is prepared: the shop acted meanwhile
            { label: 'approved', output: read.approved, in: returnedOrPreparing },
            { label: 'rejected', output: read.rejected, in: returnedOrPreparing },
          ],
          error: ['network'],
        },
      },
    },
    start: startWith(r.methodId),
    states,
    events: {
      'payment.resume': { act: comeBack },
      'payment.abandon': { act: leaveForOrders },
      [`✓${r.create.src}:ok`]: {},
      [`✗${r.create.src}:network`]: { arm: (ctx) => failOnce(ctx, r.create.url) },
      ...(r.unusable ? { [`✓${r.create.src}:unusable`]: { arm: (ctx: PathContext) => damageOnce(ctx, r.create.url, r.unusable!.damage) } } : {}),
      '✓getOrder:unpaid': {},
      '✓getOrder:approved': { arm: (ctx) => shopActs(ctx, '✓getOrder:approved', 'approve') },
      '✓getOrder:rejected': { arm: (ctx) => shopActs(ctx, '✓getOrder:rejected', 'reject') },
      '✗getOrder:network': { arm: (ctx) => failOnce(ctx, GET_ORDER) },
    },
    db: {
      '"paid"': expectApprovedByShop,
      '"notPaid"': unpaidAfter,
      '"leftForOrders"': unpaidAfter,
    },
  });
}

export const twoC2pLinkMap = redirectMap({
  unit: twoC2pLinkModel as unknown as MachineModel,
  methodId: 10,
  create: { src: 'create2c2pPaymentLink', url: /\/api\/payment\/2c2p\/payment\/link$/ },
  // success without the payment page's address
  unusable: { output: { success: true, result: { webPaymentUrl: '' } }, damage: (body) => ({ ...body, result: { webPaymentUrl: '' } }) },
  returnsTo: /\/thankyou\?orderId=/,
  pay: (page) => page.getByTestId('2c2p-pay').click(),
  decline: (page) => page.getByTestId('2c2p-cancel').click(),
  preparing: ['creatingLink'],
});

export const gbPrimeCardMap = redirectMap({
  unit: gbPrimeCardModel as unknown as MachineModel,
  methodId: 11,
  input: { thankYouPage: true },
  create: { src: 'createGbPrimeCardPayment', url: /\/api\/gbprime$/ },
  // success without the card page's address
  unusable: { output: { success: true, data: { invoice_url: '' } }, damage: (body) => ({ ...body, data: { invoice_url: '' } }) },
  returnsTo: /\/thankyou\?orderId=/,
  pay: async (page) => {
    await page.getByTestId('gbp-pay').click();
    const pass = page.getByTestId('3ds-pass');
    await expect(pass.or(page.locator('body:not(:has([data-testid="gbp-pay"]))')).first()).toBeVisible();
    if (await pass.isVisible()) await pass.click();
  },
  preparing: ['startingPayment'],
});

export const paySolutionsMap = redirectMap({
  unit: paySolutionsModel as unknown as MachineModel,
  methodId: 13,
  create: { src: 'createPaySolutionsPayment', url: /\/api\/pay-solutions$/ },
  returnsTo: /\/thankyou\?orderId=/,
  pay: (page) => page.getByTestId('ps-pay').click(),
  decline: (page) => page.getByTestId('ps-decline').click(),
  preparing: ['preparingForm', 'readingOrder'],
});
