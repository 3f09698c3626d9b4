/**
 * Page map of the 2C2P card form (method 3): the card popup (the card is encrypted in the page by
 * the sandbox's my2c2p.js), the gateway's 3-D Secure page (Pass / Fail), after which the gateway
 * sends the buyer to the order list; the buyer opens the course page again (`payment.resume`); the
 * shop may approve or reject meanwhile (back office); network failures of our calls.
 */
import { expect } from '@playwright/test';
import { twoC2pCardMachine } from '../../../../machines/payments/two-c2p-card.machine';
import { order } from '../../../machines/models/fixtures';
import { twoC2pCardModel } from '../../../machines/models/redirects.model';
import { approveInBackOffice, expectApprovedByShop, expectPaidBy, expectUnpaid, orderFacts, rejectInBackOffice } from '../db';
import type { PageMap, PathContext } from '../runner';
import { failOnce, GET_ORDER, onOrderList, onThankYouPage, reads, startWith } from './common';

const read = reads(3);
const GATEWAY = /\/sandbox\/2c2p\//;
const cardModal = (ctx: PathContext) => ctx.page.getByRole('dialog', { name: 'ชำระเงินด้วยบัตรเครดิต/เดบิต' });

async function enterCard(ctx: PathContext): Promise<void> {
  const m = cardModal(ctx);
  await m.getByLabel(/หมายเลขบัตร/).fill('4111111111111111');
  await m.getByLabel(/เดือนหมดอายุ/).fill('12');
  await m.getByLabel(/ปีหมดอายุ/).fill(String(new Date().getFullYear() + 2));
  await m.getByLabel(/CVV/).fill('123');
  await m.getByTestId('twoc2p-pay').click();
}

/** payment.resume: Pass or Fail on the gateway's 3-D Secure page (first time), then the course page again. */
async function comeBack(ctx: PathContext): Promise<void> {
  const { page } = ctx;
  if (ctx.plan.shop === 'reject') await rejectInBackOffice(ctx);
  if (ctx.plan.shop === 'approve') await approveInBackOffice(ctx);
  if (GATEWAY.test(page.url())) {
    const pass = ctx.plan.threeDS === 'pass';
    await page.getByTestId(pass ? '3ds-pass' : '3ds-fail').click();
    await expect(page).not.toHaveURL(GATEWAY, { timeout: 20_000 });
    if (pass) await expect.poll(async () => (await orderFacts(ctx)).order.payment_status, { timeout: 15_000 }).toBe('approved');
    ctx.plan.returned = 'yes';
    await page.goto(ctx.coursePath);
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
      getOrder: {
        done: [
          { label: 'approved', output: read.approved },
          { label: 'rejected', output: read.rejected },
          { label: 'unpaid', output: read.unpaid },
        ],
        error: ['network'],
      },
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
    // approved: Pass on the 3-D Secure page; once back, only the shop can approve (back office)
    '✓getOrder:approved': { arm: async (ctx) => void (ctx.plan.returned ? (ctx.plan.shop = 'approve') : (ctx.plan.threeDS = 'pass')) },
    '✓getOrder:rejected': { arm: async (ctx) => void (ctx.plan.shop = 'reject') },
    '✓getOrder:unpaid': {},
    '✗getOrder:network': { arm: (ctx) => failOnce(ctx, GET_ORDER) },
  },
  db: {
    '"paid"': (ctx) => (ctx.plan.shop === 'approve' ? expectApprovedByShop(ctx) : expectPaidBy(ctx, '2c2p', '2C2P')),
    '"leftForOrders"': async (ctx) => void (await expectUnpaid(ctx, ctx.plan.shop === 'reject' ? 'rejected' : 'notYetReceived')),
  },
};
