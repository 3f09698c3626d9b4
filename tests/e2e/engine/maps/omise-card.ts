/**
 * Page map of the Omise card (method 8): the card popup, Omise's test cards choosing the sandbox
 * charge (4242… paid at once, 4111… through the sandbox 3-D Secure page, 4111 1111 1114 0011
 * declined), the 3-D Secure page's Pass / Fail, the shop's back office, and network failures.
 */
import { expect } from '@playwright/test';
import type { AnyMachineSnapshot } from 'xstate';
import { omiseCardMachine } from '../../../../machines/payments/omise-card.machine';
import { order } from '../../../machines/models/fixtures';
import { omiseCardModel } from '../../../machines/models/omise-card.model';
import { approveInBackOffice, expectApprovedByShop, expectPaidBy, expectUnpaid, orderFacts, rejectInBackOffice } from '../db';
import type { PageMap, PathContext } from '../runner';
import { failOnce, GET_ORDER, onOrderList, onThankYouPage, reads, startWith } from './common';

const charge = omiseCardModel.outcomes!.chargeOmiseCard!.done!;
const read = reads(8);
const threeDS = (s: AnyMachineSnapshot) => (s.context as { authorizeUri: string | null }).authorizeUri !== null;

const CARDS = { recorded: '4242424242424242', threeDS: '4111111111111111', declined: '4111111111140011' } as const;

export const cardModal = (ctx: PathContext) => ctx.page.getByRole('dialog', { name: 'ชำระเงินด้วยบัตรเครดิต/เดบิต' });

/** Fills the card popup with the test card `ctx.plan.card` chooses (recorded by default) and pays. */
export async function payByCard(ctx: PathContext): Promise<void> {
  const modal = cardModal(ctx);
  await modal.getByLabel(/ชื่อบนบัตร/).fill('SOMCHAI JAIDEE');
  await modal.getByLabel(/หมายเลขบัตร/).fill(CARDS[(ctx.plan.card ?? 'recorded') as keyof typeof CARDS]);
  await modal.getByLabel(/เดือนหมดอายุ/).fill('12');
  await modal.getByLabel(/ปีหมดอายุ/).fill(String(new Date().getFullYear() + 2));
  await modal.getByLabel(/CVV/).fill('123');
  await modal.getByTestId('omise-pay').click();
}

/** payment.resume: on the 3-D Secure page Pass or Fail (the shop may reject meanwhile), then the course page again. */
async function authorizeAndReturn(ctx: PathContext): Promise<void> {
  const { page } = ctx;
  await expect(page).toHaveURL(/\/sandbox\/omise\/payments\/.+\/authorize/, { timeout: 20_000 });
  if (ctx.plan.shop === 'reject') await rejectInBackOffice(ctx);
  await page.getByTestId(ctx.plan.threeDS === 'pass' ? '3ds-pass' : '3ds-fail').click();
  await expect(page).not.toHaveURL(/\/sandbox\//, { timeout: 20_000 });
  if (ctx.plan.threeDS === 'pass') await expect.poll(async () => (await orderFacts(ctx)).order.payment_status, { timeout: 15_000 }).toBe('approved');
  ctx.plan.returned = 'yes';
  await page.goto(ctx.coursePath);
}

const unpaid = async (ctx: PathContext) => {
  await expectUnpaid(ctx, ctx.plan.shop === 'reject' ? 'rejected' : 'notYetReceived');
};

export const omiseCardMap: PageMap = {
  id: 'omiseCard',
  methodId: 8,
  model: {
    machine: omiseCardMachine,
    input: { order: order(8) },
    userEvents: [{ type: 'card.tokenized', token: 'tokn_test_1' }, { type: 'card.close' }, { type: 'payment.resume' }],
    outcomes: {
      getOmiseCardPublicKey: { done: [{ label: 'ok', output: omiseCardModel.outcomes!.getOmiseCardPublicKey!.done![0] }], error: ['network'] },
      chargeOmiseCard: {
        done: [
          { label: 'successful', output: charge[0] },
          { label: '3ds', output: charge[2] },
          { label: 'declined', output: charge[3] },
        ],
        error: ['network'],
      },
      approveOrderPayment: { done: [{ label: 'ok', output: omiseCardModel.outcomes!.approveOrderPayment!.done![0] }], error: ['network'] },
      getOrder: {
        done: [
          { label: 'approved', output: read.approved },
          // Unpaid or rejected only after 3-D Secure (a successful charge has approved the order already).
          { label: 'rejected', output: read.rejected, in: threeDS },
          { label: 'unpaid', output: read.unpaid, in: threeDS },
        ],
        error: ['network'],
      },
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
      await expect(page).toHaveURL(/\/sandbox\/omise\/payments\/.+\/authorize/, { timeout: 20_000 });
    },
    'omiseCard.reconciling': 'passing',
    'omiseCard.awaitingConfirmation': 'passing',
    'omiseCard.chargeFailed': async ({ page }) => {
      await expect(page.getByTestId('notifications')).toContainText('ผิดพลาด');
    },
    'omiseCard.requestFailed': 'passing',
    'omiseCard.paid': onThankYouPage,
    'omiseCard.failedRedirect': onOrderList,
    'omiseCard.closed': onOrderList,
  },
  events: {
    'card.tokenized': { act: payByCard },
    'card.close': { act: async (ctx) => cardModal(ctx).getByRole('button', { name: 'ปิด' }).click() },
    'payment.resume': { act: authorizeAndReturn },
    '✓getOmiseCardPublicKey:ok': {},
    '✗getOmiseCardPublicKey:network': { arm: (ctx) => failOnce(ctx, /\/api\/omise\/creditcard\/applicationid$/) },
    '✓chargeOmiseCard:successful': { arm: async (ctx) => void (ctx.plan.card = 'recorded') },
    '✓chargeOmiseCard:3ds': { arm: async (ctx) => void (ctx.plan.card = 'threeDS') },
    '✓chargeOmiseCard:declined': { arm: async (ctx) => void (ctx.plan.card = 'declined') },
    '✗chargeOmiseCard:network': { arm: (ctx) => failOnce(ctx, /\/api\/omise\/creditcard$/) },
    '✓approveOrderPayment:ok': {},
    '✗approveOrderPayment:network': { arm: (ctx) => failOnce(ctx, /\/private\/orders\/payment\/approved$/) },
    // approved: Pass on the 3-D Secure page; once back from a failed one, only the shop can approve (back office)
    '✓getOrder:approved': {
      arm: async (ctx) => {
        if (ctx.plan.returned) {
          ctx.plan.shop = 'approve';
          await approveInBackOffice(ctx);
        } else ctx.plan.threeDS = 'pass';
      },
    },
    '✓getOrder:rejected': { arm: async (ctx) => void (ctx.plan.shop = 'reject') },
    '✓getOrder:unpaid': {},
    '✗getOrder:network': { arm: (ctx) => failOnce(ctx, GET_ORDER) },
    '⏱pollInterval': {},
    '⏱redirectDelay': {},
  },
  db: {
    '"paid"': (ctx) => (ctx.plan.shop === 'approve' ? expectApprovedByShop(ctx) : expectPaidBy(ctx, 'omise', 'Omise')),
    '"failedRedirect"': unpaid,
    '"closed"': unpaid,
  },
};
