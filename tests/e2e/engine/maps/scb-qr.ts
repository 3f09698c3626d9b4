/**
 * Page map of the SCB QR (method 4): the QR popup with its countdown, 'Done' and 'Try again'; the
 * buyer's bank app is the sandbox's `/control/pay` with the QR's references, and the realtime push
 * brings the result (the page moves on by itself, as PromptPay's does); the shop may reject
 * meanwhile (back office); a refresh shows the same QR again (`payment.resume`); the QR's expiry is
 * reached by moving the page's clock forward. The order reads (the poll, 'Done') are walked with
 * their "still waiting" and network-failure answers: a paid or rejected order reaches the page by
 * the push first, so a read that finds it would race the push in a real browser.
 */
import { expect } from '@playwright/test';
import { scbQrMachine } from '../../../../machines/payments/scb-qr.machine';
import { scbQrModel } from '../../../machines/models/scb-qr.model';
import { expectUnpaid } from '../db';
import { label } from '../lang';
import { orderOf, type PathContext, type StateCheck } from '../runner';
import { damageOnce, dropConnection, expectPaidWith, failOnce, GET_ORDER, liftRefusal, methodMap, onOrderList, onThankYouPage, pollReads, pushesLostFilter, READ_FINDS_PAYMENT, reads, refusePushes, watchRefused, withPushesDropped } from './common';
import { holdReadsUntilReload, latestRef, pushDelivers, ORDER_STATUS_PUSHES, qrExpires, readsHeldDuring, reloaded, scanningStates, shopRejects, startQr } from './qr';

/**
 * The order read after the test's next action fails ('Done' clicked, the page reloaded, the poll's
 * interval waited): the 6-second poll may read the order between the arming and the click, and a
 * failure armed for the next read would then be spent by the poll, not by the read it is meant for.
 */
const acted = new WeakMap<PathContext, boolean>();
async function failFirstReadAfterAction(ctx: PathContext): Promise<void> {
  acted.set(ctx, false);
  let failed = false;
  await ctx.page.route(GET_ORDER, (route) => {
    if (failed || !acted.get(ctx)) return route.fallback();
    failed = true;
    return route.abort('internetdisconnected');
  });
}
const act = (ctx: PathContext) => void acted.set(ctx, true);
const released = new WeakMap<PathContext, () => void>();

/**
 * The poll's reads are slow until 'Done' is pressed: each is held on its way. The bank app pays
 * (or the shop rejects) meanwhile, so the read 'Done' makes is the first to find it, as when the buyer presses 'Done' at
 * once after paying in the bank app and the poll's read is still under way.
 */
async function holdPollReads(ctx: PathContext): Promise<void> {
  let open = false;
  const gate = new Promise<void>((resolve) => released.set(ctx, () => ((open = true), resolve())));
  // Released once 'Done' is clicked: the page has stopped the poll by then (in the click's own
  // task), so a held poll read goes on unheeded, and the read of 'Done' (which may reach this
  // handler before the click returns) goes on too.
  await ctx.page.route(GET_ORDER, async (route) => {
    if (!open) await gate;
    await route.fallback();
  });
}

/** SCB's answer with status 1000 and no QR image. */
const withoutQr = (answer: unknown) => {
  const a = answer as { data: Record<string, unknown> };
  return { ...a, data: { ...a.data, qrImage: '' } };
};

export const scbQrDialog = (ctx: PathContext) => ctx.page.getByRole('dialog', { name: label(ctx.lang, 'scbQrTitle') });
const modal = scbQrDialog;

/** The bank app pays the latest QR of the order (its ref1.ref2). */
export async function bankAppPays(ctx: PathContext): Promise<void> {
  const id = await orderOf(ctx);
  const [ref1, ref2] = (await latestRef(ctx, 'scb')).split('.');
  const paid = await ctx.request.post('/sandbox/scb/control/pay', { data: { ref1, ref2 } });
  expect(paid.ok(), await paid.text()).toBe(true);
  await expect.poll(async () => (await ctx.shop.db.query('SELECT payment_status FROM orders WHERE id = $1', [id])).rows[0]?.payment_status, { timeout: 15_000 }).toBe('approved');
}

const qrShown: StateCheck = async (ctx, _step, i, path) => {
  // the read that finds the order paid or rejected is under way: the page may already be leaving
  // the QR (the next step's state proves where it went)
  if (READ_FINDS_PAYMENT.includes(path.steps[i + 1]?.label ?? '')) return;
  await expect(modal(ctx).getByTestId('qr-image')).toBeVisible({ timeout: 20_000 });
  await expect(modal(ctx).getByTestId('qr-countdown')).toContainText(/\d\d:\d\d/);
};

export const scbQrMap = methodMap(4, scbQrMachine, {
  model: {
    userEvents: [{ type: 'qr.done' }, { type: 'payment.retry' }, { type: 'payment.resume' }],
    outcomes: {
      createScbQrCode: {
        done: [
          { label: 'ok', output: scbQrModel.outcomes!.createScbQrCode!.done![0] },
          // a success without a QR to show (damaged on the wire: the server always sends one)
          { label: 'unusable', output: withoutQr(scbQrModel.outcomes!.createScbQrCode!.done![0]) },
        ],
        error: ['network'],
      },
      // the read finds the order still unpaid, or (the push not there first) paid or rejected: the
      // poll's read, or the read of 'Done' (the poll's read held on its way meanwhile)
      getOrder: {
        done: [
          { label: 'unpaid', output: reads(4).unpaid },
          { label: 'approved', output: reads(4).approved, in: pollReads },
          { label: 'rejected', output: reads(4).rejected, in: pollReads },
          // 'Done' pressed once the bank app paid (or the shop rejected), the poll's read still on its way
          { label: 'paidBeforeDone', output: reads(4).approved, in: 'checkingPayment' },
          { label: 'rejectedBeforeDone', output: reads(4).rejected, in: 'checkingPayment' },
        ],
        error: ['network'],
      },
      watchOrderStatus: watchRefused,
    },
    filter: pushesLostFilter,
    callbacks: ORDER_STATUS_PUSHES,
  },
  start: startQr(4),
  states: {
    'scbQr.creatingQr': 'passing',
    ...scanningStates('scbQr', qrShown),
    'scbQr.expired': async (ctx) => {
      await expect(modal(ctx)).toContainText(label(ctx.lang, 'qrExpired'));
      await expect(modal(ctx).getByTestId('qr-retry')).toBeVisible();
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
    'qr.done': {
      act: async (ctx) => {
        act(ctx);
        await modal(ctx).getByTestId('qr-done').click();
        released.get(ctx)?.();
      },
    },
    'payment.retry': { act: (ctx) => modal(ctx).getByTestId('qr-retry').click() },
    // a refresh while the QR is shown: the saved flow is restored, the same QR shown again (a
    // refused socket.io lets through again)
    'payment.resume': {
      act: async (ctx) => {
        act(ctx);
        liftRefusal(ctx);
        await ctx.page.reload();
        reloaded(ctx);
      },
    },
    '✓createScbQrCode:ok': {},
    '✗createScbQrCode:network': { arm: (ctx) => failOnce(ctx, /\/api\/payment\/scb\/qrcode\/create$/) },
    '✓createScbQrCode:unusable': { arm: (ctx) => damageOnce(ctx, /\/api\/payment\/scb\/qrcode\/create$/, withoutQr) },
    '✓getOrder:unpaid': {},
    // paid or rejected before the page reads the order (no push reaches this page on such a path)
    '✓getOrder:approved': { arm: withPushesDropped((ctx) => holdReadsUntilReload(ctx, '✓getOrder:approved'), readsHeldDuring(bankAppPays)) },
    '✓getOrder:rejected': { arm: withPushesDropped((ctx) => holdReadsUntilReload(ctx, '✓getOrder:rejected'), readsHeldDuring(shopRejects)) },
    '✗getOrder:network': { arm: failFirstReadAfterAction },
    '✓getOrder:paidBeforeDone': { arm: withPushesDropped(holdPollReads, bankAppPays) },
    '✓getOrder:rejectedBeforeDone': { arm: withPushesDropped(holdPollReads, shopRejects) },
    // socket.io refused from here on: the watch gives up after its attempts, the poll goes on
    '✗watchOrderStatus:refused': { act: refusePushes },
    // the bank app pays: the push moves the page on by itself (no 'Done')
    '⇠watchOrderStatus:approved': { act: pushDelivers(scbQrMachine.id, bankAppPays) },
    '⇠watchOrderStatus:rejected': { act: pushDelivers(scbQrMachine.id, shopRejects) },
    // the connection drops and comes back: the order is read at once
    '⇠watchOrderStatus:resumed': { act: dropConnection },
    '⏱pollInterval': { act: async (ctx) => act(ctx) },
    '⏱qrExpiry': qrExpires(modal),
  },
  db: {
    '"paid"': (ctx) => expectPaidWith(ctx, 4),
    '"pending"': async (ctx) => void (await expectUnpaid(ctx)),
    '"rejected"': async (ctx) => void (await expectUnpaid(ctx, 'rejected')),
  },
});
