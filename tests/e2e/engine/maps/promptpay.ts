/**
 * Page maps of the PromptPay QR (Omise 9, GB Prime Pay 12): the QR popup; the buyer's bank app is
 * the sandbox's control (Omise `/control/charges/{id}/paid`, GB `/control/qrcode/{ref}/pay`), the
 * realtime push brings the result; the shop may reject meanwhile (back office); a refresh restores
 * the same QR (`payment.resume`); the QR's expiry is reached by moving the page's clock forward.
 * The poll's own approved / rejected answers race the push in a real browser, so the poll is
 * walked with its "still waiting" and network-failure answers only.
 */
import { expect } from '@playwright/test';
import type { PaymentMethodId } from '../../../../machines/shared/api';
import { gbPrimePromptPayModel, omisePromptPayModel } from '../../../machines/models/promptpay.model';
import type { MachineModel } from '../../../machines/support/model';
import { expectUnpaid } from '../db';
import { label } from '../lang';
import { type PageMap, type PathContext, type StateCheck } from '../runner';
import { dropConnection, expectPaidWith, failOnce, GET_ORDER, liftRefusal, methodMap, onThankYouPage, pollReads, pushesLostFilter, READ_FINDS_PAYMENT, reads, refusePushes, watchRefused, withPushesDropped } from './common';
import { approvedInDb, holdReadsUntilReload, latestRef, pushDelivers, ORDER_STATUS_PUSHES, qrExpires, readsHeldDuring, reloaded, scanningStates, shopRejects, startQr } from './qr';

interface PromptPay {
  unit: MachineModel;
  methodId: PaymentMethodId;
  create: { src: string; url: RegExp };
  /** The buyer's bank app pays the QR (the sandbox's control). */
  pay: (ctx: PathContext) => Promise<void>;
}

export const promptPayDialog = (ctx: PathContext) => ctx.page.getByRole('dialog', { name: label(ctx.lang, 'promptPayTitle') });
const modal = promptPayDialog;

/** The buyer's bank app pays the order's latest Omise PromptPay QR. */
export async function omiseBankAppPays(ctx: PathContext): Promise<void> {
  const r = await ctx.request.post(`/sandbox/omise/control/charges/${await latestRef(ctx, 'omise')}/paid`);
  expect(r.ok(), await r.text()).toBe(true);
}

/** The buyer's bank app pays the order's latest GB Prime Pay PromptPay QR. */
export async function gbPrimeBankAppPays(ctx: PathContext): Promise<void> {
  const r = await ctx.request.post(`/sandbox/gbprime/control/qrcode/${await latestRef(ctx, 'gbprime')}/pay`);
  expect(r.ok(), await r.text()).toBe(true);
}

function promptPayMap(p: PromptPay): PageMap {
  const id = p.unit.machine.id;
  const read = reads(p.methodId);
  const qrShown: StateCheck = async (ctx, _step, i, path) => {
    // the read that finds the order paid or rejected is under way: the page may already be leaving
    // the QR (the next step's state proves where it went)
    if (READ_FINDS_PAYMENT.includes(path.steps[i + 1]?.label ?? '')) return;
    await expect(modal(ctx).getByTestId('qr-image')).toBeVisible({ timeout: 20_000 });
  };
  return methodMap(p.methodId, p.unit.machine, {
    model: {
      userEvents: [{ type: 'payment.retry' }, { type: 'payment.resume' }],
      outcomes: {
        [p.create.src]: { done: [{ label: 'ok', output: p.unit.outcomes?.[p.create.src]?.done?.[0] }], error: ['network'] },
        // the read finds the order still unpaid, or (the push not there first) paid or rejected: the
        // poll's read only ('Done' pressed after the payment loses the race to the 6-s poll: named in known-gaps.ts)
        getOrder: {
          done: [
            { label: 'unpaid', output: read.unpaid },
            { label: 'approved', output: read.approved, in: pollReads },
            { label: 'rejected', output: read.rejected, in: pollReads },
          ],
          error: ['network'],
        },
        watchOrderStatus: watchRefused,
      },
      filter: pushesLostFilter,
      callbacks: ORDER_STATUS_PUSHES,
    },
    start: startQr(p.methodId),
    states: {
      [`${id}.creatingQr`]: 'passing',
      ...scanningStates(id, qrShown),
      [`${id}.expired`]: async (ctx) => {
        await expect(modal(ctx)).toContainText(label(ctx.lang, 'qrExpired'));
        await expect(modal(ctx).getByTestId('qr-retry')).toBeVisible();
      },
      [`${id}.failed`]: async (ctx) => {
        await expect(modal(ctx).getByTestId('qr-retry')).toBeVisible({ timeout: 20_000 });
      },
      [`${id}.paid`]: onThankYouPage,
      [`${id}.rejected`]: 'passing',
    },
    events: {
      'payment.retry': { act: (ctx) => modal(ctx).getByTestId('qr-retry').click() },
      // a refresh while the QR is shown: the saved flow is restored and resumed (a refused socket.io lets through again)
      'payment.resume': {
        act: async (ctx) => {
          liftRefusal(ctx);
          await ctx.page.reload();
          reloaded(ctx);
        },
      },
      [`✓${p.create.src}:ok`]: {},
      [`✗${p.create.src}:network`]: { arm: (ctx) => failOnce(ctx, p.create.url) },
      '✓getOrder:unpaid': {},
      // paid or rejected before the page reads the order (no push reaches this page on such a path)
      '✓getOrder:approved': { arm: withPushesDropped((ctx) => holdReadsUntilReload(ctx, '✓getOrder:approved'), readsHeldDuring(async (ctx) => (await p.pay(ctx), await approvedInDb(ctx)))) },
      '✓getOrder:rejected': { arm: withPushesDropped((ctx) => holdReadsUntilReload(ctx, '✓getOrder:rejected'), readsHeldDuring(shopRejects)) },
      '✗getOrder:network': { arm: (ctx) => failOnce(ctx, GET_ORDER) },
      // socket.io refused from here on: the watch gives up after its attempts, the poll goes on
      '✗watchOrderStatus:refused': { act: refusePushes },
      '⇠watchOrderStatus:approved': { act: pushDelivers(id, p.pay) },
      '⇠watchOrderStatus:rejected': { act: pushDelivers(id, shopRejects) },
      // the connection drops and comes back: the order is read at once
      '⇠watchOrderStatus:resumed': { act: dropConnection },
      '⏱pollInterval': {},
      '⏱qrExpiry': qrExpires(modal),
    },
    db: {
      '"paid"': (ctx) => expectPaidWith(ctx, p.methodId),
      '"rejected"': async (ctx) => void (await expectUnpaid(ctx, 'rejected')),
    },
  });
}

export const omisePromptPayMap = promptPayMap({
  unit: omisePromptPayModel as unknown as MachineModel,
  methodId: 9,
  create: { src: 'createOmisePromptPay', url: /\/api\/omise\/promptpay$/ },
  pay: (ctx) => omiseBankAppPays(ctx),
});

export const gbPrimePromptPayMap = promptPayMap({
  unit: gbPrimePromptPayModel as unknown as MachineModel,
  methodId: 12,
  create: { src: 'createGbPrimePromptPay', url: /\/api\/gbprime\/promptpay$/ },
  pay: (ctx) => gbPrimeBankAppPays(ctx),
});
