import assert from 'node:assert/strict';
import { bankTransferMachine } from '../../../machines/payments/bank-transfer.machine';
import { selectCanNotifyLater, selectFieldError, selectNoticeBusy, selectNoticeModalOpen, selectSlip } from '../../../machines/payments/bank-transfer.selectors';
import { defineModel } from '../support/model';
import { order } from './fixtures';
import { MSG } from '../../../domain/messages';

const defaults = { contact_name: 'สมชาย ใจดี', tel: '0812345678', transfer_datetime: '2025-01-31', time: '10:15:00' };
const filled = { transfer_amount: '1,500.00', bank_code: 'KBANK', bank_account: '123-4-56789-0' };
const png = { name: 'slip.png', size: 2048, type: 'image/png' };
const pdf = { name: 'slip.pdf', size: 2048, type: 'application/pdf' };

export const bankTransferModel = defineModel({
  machine: bankTransferMachine,
  file: 'machines/payments/bank-transfer.machine.ts',
  input: { order: order(1), slipRequired: false, canNotifyLater: true, defaults },
  variants: [
    { name: 'slip required, layout 4 without registration', input: { order: order(1), slipRequired: true, canNotifyLater: false, defaults } },
  ],
  userEvents: [
    { type: 'form.update', values: filled },
    { type: 'form.update', values: { transfer_amount: '' } },
    { type: 'slip.select', file: png },
    { type: 'slip.select', file: pdf },
    { type: 'slip.remove' },
    { type: 'payment.later' },
    { type: 'payment.notify' },
  ],
  outcomes: {
    uploadFile: { done: [{ success: true, fileName: ['slip-1.png'] }], error: [new Error('network')] },
    createPaymentReportPrivate: {
      done: [{ success: true, orderPaymentId: 9, order_token: 'tok-501' }],
      error: [{ status: 400, code: 'VALIDATION_ERROR', msg: 'invalid', result: [{ field: 'bank_code', msg: 'กรุณาเลือกธนาคารต้นทางที่โอน' }] }, new Error('network')],
    },
    sendPaymentOrderEmail: { done: [{ success: true }], error: [new Error('smtp')] },
  },
  effects: ['notify'],
  accepts: (s) => {
    if (!s.matches('notifying')) return [];
    const base = ['form.update', 'slip.select', 'slip.remove', 'payment.notify'];
    return s.context.canNotifyLater ? [...base, 'payment.later'] : base;
  },
  check: (s, step) => {
    assert.equal(selectNoticeModalOpen(s), s.status === 'active');
    // The notice opens prefilled with the order's amount (150000 minor units), not an empty field.
    if (step.event.type === 'xstate.init') assert.equal(s.context.form.transfer_amount, '1500.00');
    if (s.matches('notifying')) {
      assert.equal(selectCanNotifyLater(s), s.context.canNotifyLater);
      assert.equal(selectNoticeBusy(s), false);
    }
    if (step.event.type === 'payment.notify' && s.matches('notifying')) {
      const notice = step.effects[0]?.params as { title: unknown; message: unknown };
      assert.deepEqual(notice.title, MSG.INVALID_DATA_TITLE);
      // The spec's order: the slip first (when required), then the amount, ...
      const expected = s.context.slipRequired && !s.context.form.slip ? MSG.SLIP_REQUIRED : s.context.form.transfer_amount === '' ? MSG.TRANSFER_AMOUNT_REQUIRED : null;
      if (expected) assert.deepEqual(notice.message, expected);
      assert.deepEqual(selectFieldError(s, s.context.errors[0]!.path), notice.message);
    }
    if (step.event.type === 'slip.select' && s.matches('notifying')) {
      assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'error', topic: 'invalidData', title: MSG.INVALID_DATA_TITLE, message: MSG.FILE_TYPE_NOT_ALLOWED } }]);
    }
    if (s.matches('uploadingSlip')) assert.deepEqual(step.scripts.inputsOf('uploadFile').at(-1), { imageinput: png });
    if (step.event.type === 'xstate.done.actor.uploadFile') assert.equal(selectSlip(s), 'slip-1.png');
    if (s.matches('submittingReport')) {
      assert.deepEqual(step.scripts.inputsOf('createPaymentReportPrivate').at(-1), {
        order_id: 501,
        contact_name: 'สมชาย ใจดี',
        email: 'somchai@example.com',
        payment_method_id: 1,
        status: 'pending',
        bank_code: 'KBANK',
        tel: '0812345678',
        bank_account: '123-4-56789-0',
        transfer_datetime: '2025-01-31',
        time: '10:15:00',
        transfer_amount: 150000,
        description: null,
        slip: s.context.form.slip,
      });
    }
    if (step.event.type === 'xstate.error.actor.createPaymentReportPrivate' && s.context.errors.length) {
      // the server's issue text, already in the buyer's language, is shown as it is
      assert.equal(selectFieldError(s, 'bank_code'), 'กรุณาเลือกธนาคารต้นทางที่โอน');
    }
    if (s.status === 'done') assert.deepEqual(s.output, { result: 'pending' });
  },
});
