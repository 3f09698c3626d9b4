import assert from 'node:assert/strict';
import { scbQrMachine } from '../../../machines/payments/scb-qr.machine';
import { selectQrImage, selectScbQrCountdown, selectScbQrPhase } from '../../../machines/payments/scb-qr.selectors';
import { defineModel } from '../support/model';
import { order, orderRead } from './fixtures';

const qrOk = { status: { code: 1000, description: 'Success' }, data: { qrImage: 'iVBORw0KGgo=', csExtExpiryTime: 1, expires_at: '2030-01-01T00:01:00Z' } };
const qrRefused = { status: { code: 9999, description: 'Refused' }, data: { qrImage: '', csExtExpiryTime: 1, expires_at: '2030-01-01T00:01:00Z' } };

export const scbQrModel = defineModel({
  machine: scbQrMachine,
  file: 'machines/payments/scb-qr.machine.ts',
  input: { order: order(4) },
  userEvents: [{ type: 'qr.done' }, { type: 'payment.retry' }, { type: 'payment.resume' }],
  outcomes: {
    createScbQrCode: { done: [qrOk, qrRefused], error: [new Error('network')] },
    getOrder: { done: [orderRead('approved'), orderRead('rejected'), orderRead('notYetReceived')], error: [new Error('network')] },
  },
  effects: ['notify', 'persistSnapshot'],
  accepts: (s) => {
    if (s.matches('showingQr')) return ['qr.done', 'payment.resume'];
    if (s.matches('expired')) return ['payment.retry', 'qr.done'];
    if (s.matches('failed')) return ['payment.retry'];
    return [];
  },
  check: (s, step) => {
    const phase = selectScbQrPhase(s);
    if (s.matches('showingQr')) {
      assert.equal(phase, 'qr');
      assert.ok(selectQrImage(s));
      assert.ok(selectScbQrCountdown(s).totalSeconds > 0);
      if (step.event.type === 'xstate.done.actor.createScbQrCode') assert.deepEqual(step.effects.map((e) => e.type), ['persistSnapshot']);
    }
    if (s.matches('expired')) {
      assert.equal(selectQrImage(s), null);
      assert.equal(phase, 'expired');
    }
    if (s.matches('failed')) {
      assert.equal(phase, 'failure');
      if (step.event.type.startsWith('xstate.')) assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'error', topic: 'fail', title: 'ผิดพลาด', message: 'ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง' } }]);
    }
    if (s.matches('creatingQr') || s.matches('checkingPayment')) assert.equal(phase, 'loading');
    if (s.matches('creatingQr')) assert.deepEqual(step.scripts.inputsOf('createScbQrCode').at(-1), { orderId: 501 });
    if (s.status === 'done') assert.ok(['paid', 'toOrders'].includes((s.output as { result: string }).result));
    // 'Done' with an order the bank has not confirmed never reaches the thank-you page.
    if (s.matches('pending')) assert.deepEqual(s.output, { result: 'toOrders' });
  },
});
