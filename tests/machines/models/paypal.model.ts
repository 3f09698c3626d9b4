import assert from 'node:assert/strict';
import { paypalMachine } from '../../../machines/payments/paypal.machine';
import {
  selectPaypalBusy,
  selectPaypalButtonShown,
  selectPaypalButtonsEnabled,
  selectPaypalCapturePending,
  selectPaypalClosable,
  selectPaypalModalOpen,
  selectPaypalOrderId,
  selectPaypalProblem,
} from '../../../machines/payments/paypal.selectors';
import { defineModel } from '../support/model';
import { FAIL_NOTICE, order } from './fixtures';

const refused = (issue: string | null) => ({ status: 422, code: 'PAYMENT_FAILED', msg: 'capture not completed', result: { paypal_status: 'DECLINED', issue } });

export const paypalModel = defineModel({
  machine: paypalMachine,
  file: 'machines/payments/paypal.machine.ts',
  input: { order: order(2) },
  userEvents: [{ type: 'paypal.createOrder' }, { type: 'paypal.close' }],
  // PayPal's approval window, watched while awaiting approval: what it may answer.
  callbacks: { watchApproval: [{ type: 'paypal.approve', payerId: 'PAYER1' }, { type: 'paypal.cancel' }, { type: 'paypal.error', message: 'popup blocked' }] },
  outcomes: {
    createPaypalOrder: { done: [{ success: true, paypal_order_id: '5O190127TN364715T' }], error: [new Error('network')] },
    capturePaypalOrder: {
      done: [{ success: true, status: 'COMPLETED', order_token: 'tok-501' }, { success: true, status: 'PENDING', order_token: 'tok-501' }],
      error: [refused('INSTRUMENT_DECLINED'), refused(null), { status: 502, code: 'PAYMENT_FAILED', msg: 'provider down' }],
    },
    deleteOrder: { done: [{ success: true }], error: [new Error('network')] },
    watchApproval: { error: [new Error('window gone')] },
  },
  effects: ['notify'],
  accepts: (s) => {
    if (s.status !== 'active') return [];
    if (s.matches('onPending') || s.matches('buttonError')) return ['paypal.createOrder', 'paypal.close'];
    if (s.matches('awaitingApproval')) return ['paypal.approve', 'paypal.cancel', 'paypal.error', 'paypal.close'];
    // Every other open state: the close button (and Escape) still works.
    return ['paypal.close'];
  },
  check: (s, step) => {
    assert.equal(selectPaypalButtonsEnabled(s), s.matches('onPending') || s.matches('awaitingApproval') || s.matches('buttonError'));
    // No modal can hang: open means closable, and every state after a request shows a reason or a way on.
    assert.equal(selectPaypalClosable(s), s.status === 'active');
    assert.equal(step.scripts.isOpen('watchApproval'), s.matches('awaitingApproval'), 'the approval window is watched only while awaiting approval');
    if (s.matches('awaitingApproval')) assert.deepEqual(step.scripts.inputsOf('watchApproval').at(-1), { paypalOrderId: '5O190127TN364715T' });
    if (s.matches('buttonError')) {
      assert.equal(selectPaypalProblem(s), 'unreachable');
      assert.ok(selectPaypalButtonShown(s) && selectPaypalButtonsEnabled(s), 'PayPal unreachable: pay again');
    }
    if (s.matches('captureUnconfirmed')) {
      assert.equal(selectPaypalProblem(s), 'unconfirmed');
      assert.equal(selectPaypalButtonShown(s), false, 'no second payment while the first may have gone through');
    }
    if (s.matches('onPending') && step.event.type === 'paypal.cancel') assert.equal(selectPaypalProblem(s), 'cancelled');
    if (s.matches('onPending') && step.event.type === 'xstate.error.actor.capturePaypalOrder') assert.equal(selectPaypalProblem(s), 'declined');
    if (s.matches('creatingPaypalOrder')) assert.equal(selectPaypalProblem(s), null);
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
    if (s.matches('closed')) assert.deepEqual(s.output, { result: 'toOrders' });
  },
});
