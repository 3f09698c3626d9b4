/**
 * Page map of the Omise card (method 8): the card popup, Omise's test cards choosing the sandbox
 * charge (4242… paid at once, 4111… through the sandbox 3-D Secure page, 4111 1111 1114 0011
 * declined), the 3-D Secure page left unfinished with the back button, the shop's back office, and
 * network failures.
 */
import { expect } from '@playwright/test';
import type { AnyMachineSnapshot } from 'xstate';
import { omiseCardMachine } from '../../../../machines/payments/omise-card.machine';
import { omiseCardModel } from '../../../machines/models/omise-card.model';
import { approveInBackOffice, expectApprovedByShop, expectUnpaid, rejectInBackOffice } from '../db';
import { label, labelStart, specMessage } from '../lang';
import type { PathContext } from '../runner';
import { backToCoursePage, damageOnce, expectPaidWith, failOnce, GET_ORDER, methodMap, onOrderList, onThankYouPage, orderReadOutcomes, startWith } from './common';

const charge = omiseCardModel.outcomes!.chargeOmiseCard!.done!;
const threeDS = (s: AnyMachineSnapshot) => (s.context as { authorizeUri: string | null }).authorizeUri !== null;

const CARDS = { recorded: '4242424242424242', threeDS: '4111111111111111', declined: '4111111111140011' } as const;

export const cardModal = (ctx: PathContext) => ctx.page.getByRole('dialog', { name: label(ctx.lang, 'cardTitle') });

/** Fills the card popup with the test card `ctx.plan.card` chooses (recorded by default) and pays. */
export async function payByCard(ctx: PathContext): Promise<void> {
  const modal = cardModal(ctx);
  await modal.getByLabel(labelStart(ctx.lang, 'cardName')).fill('SOMCHAI JAIDEE');
  await modal.getByLabel(labelStart(ctx.lang, 'cardNumber')).fill(CARDS[(ctx.plan.card ?? 'recorded') as keyof typeof CARDS]);
  await modal.getByLabel(labelStart(ctx.lang, 'cardMonth')).fill('12');
  await modal.getByLabel(labelStart(ctx.lang, 'cardYear')).fill(String(new Date().getFullYear() + 2));
  await modal.getByLabel(/CVV/).fill('123');
  await modal.getByTestId('omise-pay').click();
}

const AUTHORIZE = /\/sandbox\/omise\/payments\/.+\/authorize/;

/**
 * payment.resume: the buyer leaves the 3-D Secure page unfinished with the browser's back button
 * (the shop may approve or reject the order meanwhile, in the back office) and the course page
 * restores the saved flow. Finishing the 3-D Secure page (Pass or Fail) is not a machine step: Omise
 * sends the buyer through /api/omise/return to the thank-you page or the order list, which end the
 * saved flow by design (omise-card-3ds.spec.ts checks those pages and the database).
 */
async function leaveAuthorization(ctx: PathContext): Promise<void> {
  const { page } = ctx;
  await expect(page).toHaveURL(AUTHORIZE, { timeout: 20_000 });
  if (ctx.plan.shop === 'reject') await rejectInBackOffice(ctx);
  if (ctx.plan.shop === 'approve') await approveInBackOffice(ctx);
  ctx.plan.returned = 'yes';
  await backToCoursePage(ctx);
}

const unpaid = async (ctx: PathContext) => {
  await expectUnpaid(ctx, ctx.plan.shop === 'reject' ? 'rejected' : 'notYetReceived');
};

export const omiseCardMap = methodMap(8, omiseCardMachine, {
  model: {
    // payment.abandon: My orders in the popup while the order is not confirmed after 3-D Secure
    userEvents: [{ type: 'card.tokenized', token: 'tokn_test_1' }, { type: 'card.close' }, { type: 'payment.resume' }, { type: 'payment.abandon' }],
    // walked after 3-D Secure, where the order is unpaid: after a successful charge (its answer
    // damaged, the read failed) the 6-s poll finds it paid and would race the click
    filter: (s, event) => event.type !== 'payment.abandon' || threeDS(s),
    outcomes: {
      getOmiseCardPublicKey: { done: [{ label: 'ok', output: omiseCardModel.outcomes!.getOmiseCardPublicKey!.done![0] }], error: ['network'] },
      chargeOmiseCard: {
        done: [
          { label: 'successful', output: charge[0] },
          { label: '3ds', output: charge[2] },
          { label: 'declined', output: charge[3] },
          // successful, the answer without the recorded payment (damaged on the wire): the page reads the order instead
          { label: 'unusable', output: charge[1] },
        ],
        error: ['network'],
      },
      approveOrderPayment: { done: [{ label: 'ok', output: omiseCardModel.outcomes!.approveOrderPayment!.done![0] }], error: ['network'] },
      // Unpaid or rejected only after 3-D Secure (a successful charge has approved the order already).
      getOrder: orderReadOutcomes(8, threeDS),
    },
  },
  start: startWith(8),
  states: {
    'omiseCard.loadingPublicKey': 'passing',
    'omiseCard.enteringCard': async (ctx) => {
      await expect(cardModal(ctx)).toBeVisible({ timeout: 20_000 });
    },
    'omiseCard.charging': 'passing',
    'omiseCard.approvingPayment': 'passing',
    'omiseCard.awaitingAuthorization': async ({ page }) => {
      await expect(page).toHaveURL(AUTHORIZE, { timeout: 20_000 });
    },
    'omiseCard.reconciling': 'passing',
    'omiseCard.awaitingConfirmation': async (ctx, _step, i, path) => {
      // the popup says the payment is not confirmed yet (the poll's next read may already be under way otherwise)
      if (path.steps[i + 1]?.label === 'payment.abandon') await expect(cardModal(ctx).getByTestId('omise-not-confirmed')).toHaveText(label(ctx.lang, 'omiseNotConfirmedYet'));
    },
    'omiseCard.chargeFailed': async (ctx) => {
      await expect(ctx.page.getByTestId('notifications')).toContainText(specMessage(ctx.lang, 'PAYMENT_FAILED_TITLE'));
    },
    'omiseCard.requestFailed': 'passing',
    'omiseCard.paid': onThankYouPage,
    'omiseCard.failedRedirect': onOrderList,
    'omiseCard.closed': onOrderList,
  },
  events: {
    'card.tokenized': { act: payByCard },
    'card.close': { act: async (ctx) => cardModal(ctx).getByRole('button', { name: label(ctx.lang, 'close') }).click() },
    'payment.resume': { act: leaveAuthorization },
    'payment.abandon': { act: (ctx) => cardModal(ctx).getByTestId('omise-leave').click() },
    '✓getOmiseCardPublicKey:ok': {},
    '✗getOmiseCardPublicKey:network': { arm: (ctx) => failOnce(ctx, /\/api\/omise\/creditcard\/applicationid$/) },
    '✓chargeOmiseCard:successful': { arm: async (ctx) => void (ctx.plan.card = 'recorded') },
    '✓chargeOmiseCard:3ds': { arm: async (ctx) => void (ctx.plan.card = 'threeDS') },
    '✓chargeOmiseCard:declined': { arm: async (ctx) => void (ctx.plan.card = 'declined') },
    '✗chargeOmiseCard:network': { arm: (ctx) => failOnce(ctx, /\/api\/omise\/creditcard$/) },
    '✓chargeOmiseCard:unusable': {
      arm: async (ctx) => {
        ctx.plan.card = 'recorded';
        await damageOnce(ctx, /\/api\/omise\/creditcard$/, (body) => ({ ...body, orderPaymentId: null }));
      },
    },
    '✓approveOrderPayment:ok': {},
    '✗approveOrderPayment:network': { arm: (ctx) => failOnce(ctx, /\/private\/orders\/payment\/approved$/) },
    // approved without 3-D Secure: the charge itself; after a 3-D Secure page left unfinished only
    // the shop can approve (back office): before the buyer goes back, or while the course page polls
    '✓getOrder:approved': {
      arm: async (ctx) => {
        if (!ctx.labels?.includes('✓chargeOmiseCard:3ds')) return;
        ctx.plan.shop = 'approve';
        if (ctx.plan.returned) await approveInBackOffice(ctx);
      },
    },
    '✓getOrder:rejected': { arm: async (ctx) => void (ctx.plan.shop = 'reject') },
    '✓getOrder:unpaid': {},
    '✗getOrder:network': { arm: (ctx) => failOnce(ctx, GET_ORDER) },
    '⏱pollInterval': {},
    '⏱redirectDelay': {},
  },
  db: {
    '"paid"': (ctx) => (ctx.plan.shop === 'approve' ? expectApprovedByShop(ctx) : expectPaidWith(ctx, 8)),
    '"failedRedirect"': unpaid,
    '"closed"': unpaid,
  },
});
