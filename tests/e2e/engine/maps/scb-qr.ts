/**
 * Page map of the SCB QR (method 4): the QR popup with 'Done' and 'Try again'; the buyer's bank
 * app is the sandbox's `/control/pay` with the QR's references; the shop may reject meanwhile
 * (back office); a refresh while the QR is shown resumes (`payment.resume`). The per-second
 * countdown tick is kept out of the walk (each second would be a state of the graph), so the
 * walk does not reach `expired` (listed in known-gaps with this reason).
 */
import { expect } from '@playwright/test';
import { scbQrMachine } from '../../../../machines/payments/scb-qr.machine';
import { order } from '../../../machines/models/fixtures';
import { scbQrModel } from '../../../machines/models/scb-qr.model';
import { expectPaidBy, expectUnpaid, rejectInBackOffice } from '../db';
import { orderOf, type PageMap, type PathContext } from '../runner';
import { failOnce, GET_ORDER, onOrderList, onThankYouPage, orderReadOutcomes, startWith } from './common';

export const scbQrDialog = (ctx: PathContext) => ctx.page.getByRole('dialog', { name: 'ชำระเงินด้วย QR Code' });
const modal = scbQrDialog;

/** The bank app pays the latest QR of the order (its ref1.ref2). */
export async function bankAppPays(ctx: PathContext): Promise<void> {
  const id = await orderOf(ctx);
  const r = await ctx.shop.db.query<{ provider_ref: string }>("SELECT provider_ref FROM payments WHERE order_id = $1 AND provider = 'scb' ORDER BY id DESC LIMIT 1", [id]);
  const [ref1, ref2] = r.rows[0]!.provider_ref.split('.');
  const paid = await ctx.request.post('/sandbox/scb/control/pay', { data: { ref1, ref2 } });
  expect(paid.ok(), await paid.text()).toBe(true);
  await expect.poll(async () => (await ctx.shop.db.query('SELECT payment_status FROM orders WHERE id = $1', [id])).rows[0]?.payment_status, { timeout: 15_000 }).toBe('approved');
}

export const scbQrMap: PageMap = {
  id: 'scbQr',
  methodId: 4,
  model: {
    machine: scbQrMachine,
    input: { order: order(4) },
    userEvents: [{ type: 'qr.done' }, { type: 'payment.retry' }, { type: 'payment.resume' }],
    outcomes: {
      createScbQrCode: { done: [{ label: 'ok', output: scbQrModel.outcomes!.createScbQrCode!.done![0] }], error: ['network'] },
      getOrder: orderReadOutcomes(4),
    },
    filter: (_s, e) => !e.type.startsWith('xstate.after.qrTick'),
  },
  start: startWith(4),
  states: {
    'scbQr.creatingQr': 'passing',
    'scbQr.showingQr': async (ctx) => {
      await expect(modal(ctx).getByTestId('qr-image')).toBeVisible({ timeout: 20_000 });
      await expect(modal(ctx).getByTestId('qr-countdown')).toBeVisible();
    },
    'scbQr.expired': async (ctx) => {
      await expect(modal(ctx)).toContainText('QR Code หมดอายุแล้ว');
    },
    'scbQr.failed': async (ctx) => {
      await expect(modal(ctx).getByTestId('qr-retry')).toBeVisible({ timeout: 20_000 });
    },
    'scbQr.checkingPayment': 'passing',
    'scbQr.paid': onThankYouPage,
    // not confirmed yet ('Done' before the bank confirmed): the buyer is sent to the order list,
    // where the order shows "waiting for payment" and can be paid again — never a thank-you
    'scbQr.pending': onOrderList,
    'scbQr.rejected': onOrderList,
  },
  events: {
    'qr.done': { act: (ctx) => modal(ctx).getByTestId('qr-done').click() },
    'payment.retry': { act: (ctx) => modal(ctx).getByTestId('qr-retry').click() },
    'payment.resume': { act: (ctx) => ctx.page.reload().then(() => undefined) },
    '✓createScbQrCode:ok': {},
    '✗createScbQrCode:network': { arm: (ctx) => failOnce(ctx, /\/api\/payment\/scb\/qrcode\/create$/) },
    // the QR is on screen when these run (just before 'Done' or the refresh)
    '✓getOrder:approved': { arm: bankAppPays },
    '✓getOrder:rejected': { arm: rejectInBackOffice },
    '✓getOrder:unpaid': {},
    '✗getOrder:network': { arm: (ctx) => failOnce(ctx, GET_ORDER) },
  },
  db: {
    '"paid"': (ctx) => expectPaidBy(ctx, 'scb', 'SCB'),
    '"pending"': async (ctx) => void (await expectUnpaid(ctx)),
    '"rejected"': async (ctx) => void (await expectUnpaid(ctx, 'rejected')),
  },
};
