/**
 * Page map of the bank transfer (method 1): the notice popup (amount, origin bank, destination
 * account, the slip the demo shop requires), 'Notify later', and the network failing the upload,
 * the report or the notice e-mail. The order total of the course is what the buyer transfers.
 */
import { expect } from '@playwright/test';
import { bankTransferMachine } from '../../../../machines/payments/bank-transfer.machine';
import { order } from '../../../machines/models/fixtures';
import { bankTransferModel } from '../../../machines/models/bank-transfer.model';
import { PNG } from '../../support';
import { orderFacts, ordersOfUser } from '../db';
import { label } from '../lang';
import type { PageMap, PathContext } from '../runner';
import { failOnce, onThankYouPage, startWith } from './common';

const outcome = bankTransferModel.outcomes!;
const modal = (ctx: PathContext) => ctx.page.getByRole('dialog', { name: label(ctx.lang, 'notifyPayment') });
const defaults = { contact_name: 'สมชาย ใจดี', tel: '0812345678', transfer_datetime: '2025-01-31', time: '10:15:00' };

async function fillTransfer(ctx: PathContext): Promise<void> {
  const m = modal(ctx);
  const { order: o } = await orderFacts(ctx);
  await m.getByTestId('transfer-amount').fill(String(o.total / 100));
  await m.getByTestId('origin-bank').selectOption('KBANK');
  await m.getByRole('radio', { name: /123-4-56789-0/ }).check();
}

/** The report filed: one pending BankTransfer report of the order total, the order waiting for the shop. */
async function expectReported(ctx: PathContext): Promise<void> {
  const f = await orderFacts(ctx);
  expect(await ordersOfUser(ctx)).toBe(1);
  expect(f.order.payment_status).toBe('pendingApproved');
  expect(f.payments).toEqual([]);
  expect(f.reports).toEqual([{ payment: 'BankTransfer', status: 'pending', transfer_amount: f.order.total, payment_id: null }]);
}

export const bankTransferMap: PageMap = {
  id: 'bankTransfer',
  methodId: 1,
  model: {
    machine: bankTransferMachine,
    input: { order: order(1), slipRequired: true, canNotifyLater: true, defaults },
    userEvents: [
      { type: 'form.update', values: { transfer_amount: '1,500.00', bank_code: 'KBANK', bank_account: '123-4-56789-0' } },
      { type: 'slip.select', file: { name: 'slip.png', size: 2048, type: 'image/png' } },
      { type: 'payment.later' },
      { type: 'payment.notify' },
    ],
    outcomes: {
      uploadFile: { done: [{ label: 'ok', output: outcome.uploadFile!.done![0] }], error: ['network'] },
      createPaymentReportPrivate: { done: [{ label: 'ok', output: outcome.createPaymentReportPrivate!.done![0] }], error: ['network'] },
      sendPaymentOrderEmail: { done: [{ label: 'ok', output: outcome.sendPaymentOrderEmail!.done![0] }], error: ['network'] },
    },
  },
  start: startWith(1),
  states: {
    'bankTransfer.notifying': async (ctx) => {
      await expect(modal(ctx)).toBeVisible({ timeout: 20_000 });
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
    'payment.later': { act: (ctx) => modal(ctx).getByTestId('notify-later').click() },
    'payment.notify': { act: (ctx) => modal(ctx).getByTestId('notify-submit').click() },
    '✓uploadFile:ok': {},
    '✗uploadFile:network': { arm: (ctx) => failOnce(ctx, /\/api\/home\/test_upload$/) },
    '✓createPaymentReportPrivate:ok': {},
    '✗createPaymentReportPrivate:network': { arm: (ctx) => failOnce(ctx, /\/private\/payment\/report$/) },
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
};
