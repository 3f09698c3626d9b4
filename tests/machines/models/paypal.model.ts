import assert from 'node:assert/strict';
import { paypalMachine } from '../../../machines/payments/paypal.machine';
import { selectPaypalBusy, selectPaypalButtonsEnabled, selectPaypalCapturePending, selectPaypalModalOpen, selectPaypalOrderId } from '../../../machines/payments/paypal.selectors';
import { defineModel } from '../support/model';
import { FAIL_NOTICE, order } from './fixtures';

const refused = (issue: string | null) => ({ status: 422, code: 'PAYMENT_FAILED', msg: 'capture not completed', result: { paypal_status: 'DECLINED', issue } });

export const paypalModel = defineModel({
  machine: paypalMachine,
  file: 'machines/payments/paypal.machine.ts',
  input: { order: order(2) },
  userEvents: [{ type: 'paypal.createOrder' }, { type: 'paypal.approve', payerId: 'PAYER1' }, { type: 'paypal.cancel' }, { type: 'paypal.close' }, { type: 'paypal.error', message: 'popup closed' }],
  outcomes: {
    createPaypalOrder: { done: [{ success: true, paypal_order_id: '5O190127TN364715T' }], error: [new Error('network')] },
    capturePaypalOrder: {
      done: [{ success: true, status: 'COMPLETED', order_token: 'tok-501' }, { success: true, status: 'PENDING', order_token: 'tok-501' }],
      error: [refused('INSTRUMENT_DECLINED'), refused(null), { status: 502, code: 'PAYMENT_FAILED', msg: 'provider down' }],
    },
    deleteOrder: { done: [{ success: true }], error: [new Error('network')] },
  },
  effects: ['notify'],
  accepts: (s) => {
    if (s.matches('onPending')) return ['paypal.createOrder'];
    if (s.matches('awaitingApproval')) return ['paypal.approve', 'paypal.cancel', 'paypal.error'];
    if (s.matches('capturePending')) return ['paypal.close'];
    return [];
  },
  check: (s, step) => {
    assert.equal(selectPaypalButtonsEnabled(s), s.matches('onPending') || s.matches('awaitingApproval'));
    assert.equal(selectPaypalModalOpen(s), s.status === 'active');
    if (s.matches('onPending')) assert.equal(selectPaypalOrderId(s), null);
    if (s.matches('awaitingApproval')) assert.equal(selectPaypalOrderId(s), '5O190127TN364715T');
    if (s.matches('capturing')) {
      assert.ok(selectPaypalBusy(s));
      assert.deepEqual(step.scripts.inputsOf('capturePaypalOrder').at(-1), { paypalOrderId: '5O190127TN364715T', orderId: 501 });
    }
    if (s.matches('failure')) {
      assert.deepEqual(step.effects, [FAIL_NOTICE]);
      assert.deepEqual(step.scripts.inputsOf('deleteOrder').at(-1), { order_id: 501 });
    }
    if (s.matches('onPending') && step.event.type === 'xstate.error.actor.capturePaypalOrder') assert.deepEqual(step.effects, [FAIL_NOTICE]);
    assert.equal(selectPaypalCapturePending(s), s.matches('capturePending'));
    if (s.matches('capturePending')) {
      // Pending is not failed: no failure notice, the order is not deleted.
      assert.deepEqual(step.effects, []);
      assert.equal(step.scripts.inputsOf('deleteOrder').length, 0);
    }
    if (s.matches('handedOver')) assert.deepEqual(s.output, { result: 'pending' });
    if (s.matches('success')) assert.deepEqual(s.output, { result: 'paid' });
    if (s.matches('orderDeleted')) assert.deepEqual(s.output, { result: 'failed', orderDeleted: true });
    if (s.matches('buttonError')) assert.deepEqual(s.output, { result: 'toOrders' });
  },
});
