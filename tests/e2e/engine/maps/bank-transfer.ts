/**
 * Page map of the bank transfer (method 1): the notice popup (amount, origin bank, destination
 * account, the slip the demo shop requires), 'Notify later', and the network failing the upload,
 * the report or the notice e-mail. The order total of the course is what the buyer transfers. The
 * form's own refusals are walked too (a file that is not an image, a notice sent incomplete, the
 * slip removed), and the server's refusal of a notice the page found valid: the shop removes the
 * destination account the buyer chose (in the back office) while the notice is filled in, the
 * server's check of the account (server/payments/bank-transfer.ts) refuses it with the field's
 * issue, and the buyer chooses another account.
 */
import { expect } from '@playwright/test';
import { bankTransferMachine } from '../../../../machines/payments/bank-transfer.machine';
import { bankTransferModel } from '../../../machines/models/bank-transfer.model';
import { PNG } from '../../support';
import { labelled } from '../paths';
import { orderFacts, ordersOfUser } from '../db';
import { label, specMessage } from '../lang';
import type { PathContext } from '../runner';
import { whenTestEnds } from '../test-end';
import { failOnce, markTransition, methodMap, onThankYouPage, startWith, tookTransition } from './common';

const outcome = bankTransferModel.outcomes!;
const modal = (ctx: PathContext) => ctx.page.getByRole('dialog', { name: label(ctx.lang, 'notifyPayment') });
const defaults = { contact_name: 'สมชาย ใจดี', tel: '0812345678', transfer_datetime: '2025-01-31', time: '10:15:00' };

/** The demo shop's transfer account. */
const ACCOUNT = '123-4-56789-0';
const REFUSED = '✗createPaymentReportPrivate:refused';
const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

async function fillTransfer(ctx: PathContext): Promise<void> {
  const m = modal(ctx);
  const { order: o } = await orderFacts(ctx);
  await m.getByTestId('transfer-amount').fill(String(o.total / 100));
  await m.getByTestId('origin-bank').selectOption('KBANK');
  // the account the shop is about to remove, while it is still there; else the shop's own
  const account = ctx.plan.account && !ctx.plan.accountRemoved ? ctx.plan.account : ACCOUNT;
  await m.getByRole('radio', { name: new RegExp(escape(account)) }).check();
}

/**
 * A second transfer account of the shop, for a path on which the shop removes it while the buyer
 * fills in the notice; removed again when the test ends, whatever happened.
 */
async function addAccount(ctx: PathContext): Promise<void> {
  const account = `900-${Date.now().toString(36).slice(-5)}-${Math.floor(Math.random() * 1e4)}`;
  await ctx.shop.db.query(
    "INSERT INTO bank_accounts (payment_method_id, account_id, account_name, bank, bank_name) VALUES (1, $1, 'บัญชีชั่วคราว', 'SCB', 'ธนาคารไทยพาณิชย์')",
    [account],
  );
  ctx.plan.account = account;
  whenTestEnds(() => removeAccount(ctx));
}

async function removeAccount(ctx: PathContext): Promise<void> {
  if (!ctx.plan.account) return;
  await ctx.shop.db.query('DELETE FROM bank_accounts WHERE account_id = $1', [ctx.plan.account]);
  ctx.plan.accountRemoved = 'yes';
}

/** The form's own refusals: the transition each takes (the machine stays in `notifying`). */
const SELF: Record<string, string> = {
  'slip.select:pdf': 'bankTransfer.notifying | slip.select #1',
  'slip.remove': 'bankTransfer.notifying | slip.remove #0',
  'payment.notify': 'bankTransfer.notifying | payment.notify #1',
};
const marked = (label: string, act: (ctx: PathContext) => Promise<unknown>) => async (ctx: PathContext) => {
  markTransition(ctx, SELF[label]!);
  await act(ctx);
};

const slipList = (ctx: PathContext) => modal(ctx).getByRole('list', { name: label(ctx.lang, 'fileList') });

/** The report filed: one pending BankTransfer report of the order total, the order waiting for the shop. */
async function expectReported(ctx: PathContext): Promise<void> {
  const f = await orderFacts(ctx);
  expect(await ordersOfUser(ctx)).toBe(1);
  expect(f.order.payment_status).toBe('pendingApproved');
  expect(f.payments).toEqual([]);
  expect(f.reports).toEqual([{ payment: 'BankTransfer', status: 'pending', transfer_amount: f.order.total, payment_id: null }]);
}

export const bankTransferMap = methodMap(1, bankTransferMachine, {
  model: {
    input: { slipRequired: true, canNotifyLater: true, defaults },
    userEvents: [
      { type: 'form.update', values: { transfer_amount: '1,500.00', bank_code: 'KBANK', bank_account: '123-4-56789-0' } },
      { type: 'slip.select', file: { name: 'slip.png', size: 2048, type: 'image/png' } },
      labelled({ type: 'slip.select', file: { name: 'slip.pdf', size: 2048, type: 'application/pdf' } }, 'slip.select:pdf'),
      { type: 'slip.remove' },
      { type: 'payment.later' },
      { type: 'payment.notify' },
    ],
    filter: (s, e) => {
      const c = s.context as { form: { slip: string | null }; errors: unknown[] };
      // the file input is there while no slip is kept (one file), the remove button while one is
      if (e.type === 'slip.select') return c.form.slip === null;
      if (e.type === 'slip.remove') return c.form.slip !== null;
      // the form shows what was refused: the buyer changes it before sending it again
      if (e.type === 'payment.notify') return c.errors.length === 0;
      return true;
    },
    outcomes: {
      uploadFile: { done: [{ label: 'ok', output: outcome.uploadFile!.done![0] }], error: ['network'] },
      createPaymentReportPrivate: {
        done: [{ label: 'ok', output: outcome.createPaymentReportPrivate!.done![0] }],
        error: [
          'network',
          // the server's check refuses the destination account (removed by the shop meanwhile), with the field's issue
          { label: 'refused', error: { status: 400, code: 'VALIDATION_ERROR', msg: 'invalid', result: [{ field: 'bank_account', msg: 'account' }] } },
        ],
      },
      sendPaymentOrderEmail: { done: [{ label: 'ok', output: outcome.sendPaymentOrderEmail!.done![0] }], error: ['network'] },
    },
  },
  start: async (ctx) => {
    if (ctx.labels?.includes(REFUSED)) await addAccount(ctx);
    await startWith(1)(ctx);
  },
  states: {
    'bankTransfer.notifying': async (ctx, step) => {
      await expect(modal(ctx)).toBeVisible({ timeout: 20_000 });
      const notices = ctx.page.getByTestId('notifications');
      const self = SELF[step.label];
      if (self) await tookTransition(ctx, self);
      if (step.label === 'slip.select:pdf') {
        await expect(notices).toContainText(specMessage(ctx.lang, 'INVALID_DATA_TITLE'));
        await expect(slipList(ctx)).toBeHidden();
      }
      if (step.label === 'slip.remove') await expect(slipList(ctx)).toBeHidden();
      if (step.label === 'payment.notify') await expect(notices).toContainText(specMessage(ctx.lang, 'INVALID_DATA_TITLE'));
      // the server's issue, in the buyer's language, at the account the buyer chose
      if (step.label === REFUSED) {
        await expect(modal(ctx)).toContainText(specMessage(ctx.lang, 'DESTINATION_ACCOUNT_REQUIRED'));
      }
    },
    'bankTransfer.uploadingSlip': 'passing',
    'bankTransfer.submittingReport': 'passing',
    'bankTransfer.sendingEmail': 'passing',
    'bankTransfer.notified': onThankYouPage,
    'bankTransfer.notifiedLater': onThankYouPage,
  },
  events: {
    'form.update': { act: fillTransfer },
    'slip.select': {
      act: async (ctx) => {
        await modal(ctx).getByTestId('slip-input').setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: PNG });
      },
    },
    // a file that is not an image: refused by the page, nothing uploaded
    'slip.select:pdf': {
      act: marked('slip.select:pdf', (ctx) => modal(ctx).getByTestId('slip-input').setInputFiles({ name: 'slip.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') })),
    },
    'slip.remove': {
      act: marked('slip.remove', async (ctx) => {
        await expect(slipList(ctx)).toBeVisible();
        await slipList(ctx).getByRole('button').click();
      }),
    },
    'payment.later': { act: (ctx) => modal(ctx).getByTestId('notify-later').click() },
    'payment.notify': { act: marked('payment.notify', (ctx) => modal(ctx).getByTestId('notify-submit').click()) },
    '✓uploadFile:ok': {},
    '✗uploadFile:network': { arm: (ctx) => failOnce(ctx, /\/api\/home\/test_upload$/) },
    '✓createPaymentReportPrivate:ok': {},
    '✗createPaymentReportPrivate:network': { arm: (ctx) => failOnce(ctx, /\/private\/payment\/report$/) },
    // the shop removes the account the buyer chose before the notice reaches the server
    '✗createPaymentReportPrivate:refused': { arm: removeAccount },
    '✓sendPaymentOrderEmail:ok': {},
    '✗sendPaymentOrderEmail:network': { arm: (ctx) => failOnce(ctx, /\/api\/send\/to\/email\/paymentorder$/) },
  },
  db: {
    '"notified"': expectReported,
    '"notifiedLater"': async (ctx) => {
      const f = await orderFacts(ctx);
      expect(await ordersOfUser(ctx)).toBe(1);
      expect(f.order.payment_status).toBe('notYetReceived');
      expect(f.reports).toEqual([]);
      expect(f.payments).toEqual([]);
    },
  },
});
