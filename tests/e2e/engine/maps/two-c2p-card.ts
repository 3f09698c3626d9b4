/**
 * Page map of the 2C2P card form (method 3): the card popup (the card is encrypted in the page by
 * the sandbox's my2c2p.js), the gateway's 3-D Secure page left with the back button to the course
 * page (`payment.resume`); the shop may approve or reject meanwhile (back office); network failures
 * of our calls.
 */
import { expect } from '@playwright/test';
import { twoC2pCardMachine } from '../../../../machines/payments/two-c2p-card.machine';
import { order } from '../../../machines/models/fixtures';
import { twoC2pCardModel } from '../../../machines/models/redirects.model';
import { approveInBackOffice, expectApprovedByShop, expectUnpaid, rejectInBackOffice } from '../db';
import { label, labelStart } from '../lang';
import type { PageMap, PathContext } from '../runner';
import { failOnce, GET_ORDER, onOrderList, onThankYouPage, orderReadOutcomes, startWith } from './common';

const GATEWAY = /\/sandbox\/2c2p\//;
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
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${ctx.coursePath}$`), { timeout: 20_000 });
  } else await page.reload();
}

export const twoC2pCardMap: PageMap = {
  id: 'twoC2pCard',
  methodId: 3,
  model: {
    machine: twoC2pCardMachine,
    input: { order: order(3) },
    // card.gatewayError needs a card my2c2p.js refuses after the domain's own card check passed: none does.
    userEvents: [{ type: 'card.encrypted', card: { encryptedCardInfo: 'ENC', maskedCardInfo: '411111XXXXXX1111', expMonthCardInfo: '12', expYearCardInfo: '2030' } }, { type: 'payment.resume' }],
    outcomes: {
      create2c2pCardRequest: { done: [{ label: 'ok', output: twoC2pCardModel.outcomes!.create2c2pCardRequest!.done![0] }], error: ['network'] },
      getOrder: orderReadOutcomes(3),
    },
  },
  start: startWith(3),
  states: {
    'twoC2pCard.starting': 'passing',
    'twoC2pCard.enteringCard': async (ctx) => {
      await expect(cardModal(ctx).getByTestId('twoc2p-pay')).toBeVisible({ timeout: 20_000 });
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
    'payment.resume': { act: comeBack },
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
};
