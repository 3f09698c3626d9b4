/**
 * Page map of the 2C2P card form (method 3): the card popup (the card is encrypted in the page by
 * the sandbox's my2c2p.js), the gateway's 3-D Secure page left with the back button to the course
 * page (`payment.resume`), then My orders in the popup (`payment.abandon`); the shop may approve or reject meanwhile (back office); network failures
 * of our calls; 2C2P's script (my2c2p.js) failing to load when the card is sent, which the page tells
 * as the gateway's error. A second map starts the machine on the card-payment return page
 * (/cardpayment/:orderId with the card my2c2p.js encrypted in its query), which signs at once.
 */
import { expect } from '@playwright/test';
import { twoC2pCardMachine } from '../../../../machines/payments/two-c2p-card.machine';
import { order } from '../../../machines/models/fixtures';
import { twoC2pCardModel } from '../../../machines/models/redirects.model';
import { approveInBackOffice, expectApprovedByShop, expectUnpaid, rejectInBackOffice } from '../db';
import { label, labelStart } from '../lang';
import { orderOf, type PageMap, type PathContext } from '../runner';
import { backToCoursePage, backUnpaidOnly, failOnce, GET_ORDER, leaveForOrders, markTransition, methodMap, onOrderList, onThankYouPage, orderReadOutcomes, startWith, tookTransition } from './common';

const GATEWAY = /\/sandbox\/2c2p\//;
const MY2C2P_JS = /\/sandbox\/2c2p\/my2c2p\.js$/;
const GATEWAY_ERROR = 'twoC2pCard.enteringCard | card.gatewayError #0';
const cardModal = (ctx: PathContext) => ctx.page.getByRole('dialog', { name: label(ctx.lang, 'cardTitle') });

export async function enterCard(ctx: PathContext): Promise<void> {
  const m = cardModal(ctx);
  await m.getByLabel(labelStart(ctx.lang, 'cardNumber')).fill('4111111111111111');
  await m.getByLabel(labelStart(ctx.lang, 'cardMonth')).fill('12');
  await m.getByLabel(labelStart(ctx.lang, 'cardYear')).fill(String(new Date().getFullYear() + 2));
  await m.getByLabel(/CVV/).fill('123');
  await m.getByTestId('twoc2p-pay').click();
}

/**
 * payment.resume: the buyer leaves the gateway's 3-D Secure page unfinished with the browser's back
 * button (the shop may approve or reject the order meanwhile, in the back office) and the course
 * page restores the saved flow; once back, a reload of the course page resumes again. Finishing the
 * 3-D Secure page (Pass or Fail) is not a machine step: the gateway sends the buyer to the order
 * list, which ends the saved flow by design (provider-pays.spec.ts and the hosted-page specs check
 * those pages and the database).
 */
async function comeBack(ctx: PathContext): Promise<void> {
  const { page } = ctx;
  if (ctx.plan.shop === 'reject') await rejectInBackOffice(ctx);
  if (ctx.plan.shop === 'approve') await approveInBackOffice(ctx);
  if (GATEWAY.test(page.url())) {
    await backToCoursePage(ctx);
  } else await page.reload();
}

export const twoC2pCardMap = methodMap(3, twoC2pCardMachine, {
  model: {
    userEvents: [
      { type: 'card.encrypted', card: { encryptedCardInfo: 'ENC', maskedCardInfo: '411111XXXXXX1111', expMonthCardInfo: '12', expYearCardInfo: '2030' } },
      // my2c2p.js cannot encrypt: the page tells the gateway's error and keeps the form
      { type: 'card.gatewayError', code: 'unknown', description: 'cannot load my2c2p.js' },
      { type: 'payment.resume' },
      // My orders in the popup, once back from the gateway and the read found no payment
      { type: 'payment.abandon' },
    ],
    filter: backUnpaidOnly('awaitingResult'),
    outcomes: {
      create2c2pCardRequest: { done: [{ label: 'ok', output: twoC2pCardModel.outcomes!.create2c2pCardRequest!.done![0] }], error: ['network'] },
      getOrder: orderReadOutcomes(3),
    },
  },
  start: startWith(3),
  states: {
    'twoC2pCard.starting': 'passing',
    'twoC2pCard.enteringCard': async (ctx, step) => {
      await expect(cardModal(ctx).getByTestId('twoc2p-pay')).toBeVisible({ timeout: 20_000 });
      if (step.label !== 'card.gatewayError') return;
      await tookTransition(ctx, GATEWAY_ERROR);
      // the gateway's error, told with its code; the form stays to try again
      await expect(ctx.page.getByTestId('notifications')).toContainText('(unknown)');
    },
    'twoC2pCard.signingForm': 'passing',
    'twoC2pCard.awaitingResult': async (ctx, _step, i, path) => {
      if (path.steps[i - 1]?.value === '"reconciling"') await expect(ctx.page).toHaveURL(new RegExp(`${ctx.coursePath}$`));
      else await expect(ctx.page).toHaveURL(GATEWAY, { timeout: 20_000 });
    },
    'twoC2pCard.reconciling': 'passing',
    'twoC2pCard.failed': 'passing',
    'twoC2pCard.paid': onThankYouPage,
    'twoC2pCard.leftForOrders': onOrderList,
  },
  events: {
    'card.encrypted': { act: enterCard },
    // 2C2P's script does not load (its host unreachable from the browser): the card cannot be encrypted
    'card.gatewayError': {
      act: async (ctx) => {
        markTransition(ctx, GATEWAY_ERROR);
        await failOnce(ctx, MY2C2P_JS);
        await enterCard(ctx);
      },
    },
    'payment.resume': { act: comeBack },
    'payment.abandon': { act: leaveForOrders },
    '✓create2c2pCardRequest:ok': {},
    '✗create2c2pCardRequest:network': { arm: (ctx) => failOnce(ctx, /\/api\/payment\/2c2p\/card\/request$/) },
    // approved: the 3-D Secure page is left unfinished, so only the shop can approve (back office)
    '✓getOrder:approved': { arm: async (ctx) => void (ctx.plan.shop = 'approve') },
    '✓getOrder:rejected': { arm: async (ctx) => void (ctx.plan.shop = 'reject') },
    '✓getOrder:unpaid': {},
    '✗getOrder:network': { arm: (ctx) => failOnce(ctx, GET_ORDER) },
  },
  db: {
    '"paid"': expectApprovedByShop,
    '"leftForOrders"': async (ctx) => void (await expectUnpaid(ctx, ctx.plan.shop === 'reject' ? 'rejected' : 'notYetReceived')),
  },
});

/** The card as the sandbox's my2c2p.js encrypts it in the page (what 2C2P's script puts in the query of the return page). */
async function encryptInPage(ctx: PathContext): Promise<Record<string, string>> {
  await ctx.page.addScriptTag({ url: '/sandbox/2c2p/my2c2p.js' });
  return ctx.page.evaluate(
    (card) => (window as unknown as { My2c2p: { encrypt: (c: unknown) => Promise<Record<string, string>> } }).My2c2p.encrypt(card),
    { number: '4111111111111111', month: '12', year: String(new Date().getFullYear() + 2), cvv: '123' },
  );
}

/**
 * The card-payment return page: the order is made on the course page (the card form opens), then
 * the browser opens /cardpayment/<order id> with the card encrypted by my2c2p.js in its query, and
 * that page's machine starts with the card already there (`starting` → `signingForm` at once).
 * It signs and posts the gateway form (the path ends at the gateway: a return to this page would
 * sign again, by design), or the signing fails and the buyer is sent to the order list.
 */
export const twoC2pCardReturnMap: PageMap = {
  ...twoC2pCardMap,
  variant: 'card-payment return page',
  model: {
    ...twoC2pCardMap.model,
    input: { order: order(3), card: { encryptedCardInfo: 'ENC', maskedCardInfo: '411111XXXXXX1111', expMonthCardInfo: '12', expYearCardInfo: '2030' } },
    userEvents: [],
    // at the gateway, the path ends: the buyer finishes there (provider-pays.spec.ts)
    rest: 'awaitingResult',
  },
  start: async (ctx) => {
    await startWith(3)(ctx);
    await expect(cardModal(ctx).getByTestId('twoc2p-pay')).toBeVisible({ timeout: 20_000 });
    const id = await orderOf(ctx);
    const card = await encryptInPage(ctx);
    await ctx.page.goto(`/cardpayment/${id}?${new URLSearchParams(card).toString()}`);
  },
  states: {
    ...twoC2pCardMap.states,
    'twoC2pCard.awaitingResult': async (ctx) => {
      await expect(ctx.page).toHaveURL(GATEWAY, { timeout: 20_000 });
    },
  },
  db: {
    // the signed form was posted: the gateway shows its 3-D Secure page for this order, nothing paid yet
    '"awaitingResult"': async (ctx) => {
      await expect(ctx.page.getByRole('button', { name: /pass|fail/i }).first()).toBeVisible({ timeout: 20_000 });
      await expectUnpaid(ctx);
    },
    '"leftForOrders"': async (ctx) => void (await expectUnpaid(ctx)),
  },
};
