import assert from 'node:assert/strict';
import { omiseCardMachine } from '../../../machines/payments/omise-card.machine';
import { selectOmiseCardPhase, selectOmiseFormOpen, selectOmisePublicKey } from '../../../machines/payments/omise-card.selectors';
import { defineModel } from '../support/model';
import { order, orderRead } from './fixtures';
import { MSG } from '../../../domain/messages';

const charge = (status: 'successful' | 'failed' | 'pending', extra: Record<string, unknown> = {}) => ({
  success: true,
  status,
  chargesDetails: { last_digits: '4242', bank: 'KBANK' },
  charges: {
    id: 'chrg_1',
    authorize_uri: status === 'pending' ? 'https://api.omise.test/payments/3ds/chrg_1' : null,
    failure_code: status === 'failed' ? 'insufficient_fund' : null,
    failure_message: status === 'failed' ? 'insufficient funds' : null,
  },
  ...extra,
});

export const omiseCardModel = defineModel({
  machine: omiseCardMachine,
  file: 'machines/payments/omise-card.machine.ts',
  input: { order: order(8) },
  userEvents: [{ type: 'card.tokenized', token: 'tokn_test_1' }, { type: 'card.close' }, { type: 'payment.resume' }, { type: 'payment.abandon' }],
  outcomes: {
    getOmiseCardPublicKey: { done: [{ success: true, publicKey: 'pkey_test_1' }], error: [new Error('network')] },
    chargeOmiseCard: {
      done: [charge('successful', { orderPaymentId: 77 }), charge('successful'), charge('pending'), charge('failed')],
      error: [new Error('network')],
    },
    approveOrderPayment: { done: [{ success: true, order_token: 'tok-501' }], error: [new Error('network')] },
    getOrder: { done: [orderRead('approved', 8), orderRead('rejected', 8), orderRead('notYetReceived', 8)], error: [new Error('network')] },
  },
  effects: ['notify', 'navigate', 'persistSnapshot'],
  accepts: (s) => {
    if (s.matches('enteringCard')) return ['card.tokenized', 'card.close'];
    if (s.matches('awaitingAuthorization')) return ['payment.resume'];
    if (s.matches('awaitingConfirmation')) return ['payment.abandon'];
    return [];
  },
  check: (s, step) => {
    const phase = selectOmiseCardPhase(s);
    assert.equal(selectOmiseFormOpen(s), s.matches('enteringCard'));
    if (s.matches('enteringCard')) assert.equal(selectOmisePublicKey(s), 'pkey_test_1');
    if (s.matches('charging')) {
      assert.equal(phase, 'charging');
      assert.deepEqual(step.scripts.inputsOf('chargeOmiseCard').at(-1), {
        orderId: 501,
        publicKeyOmise: 'pkey_test_1',
        omise_token: 'tokn_test_1',
        email: 'somchai@example.com',
        name: 'สมชาย ใจดี',
        total_amount: 150000,
      });
    }
    if (s.matches('approvingPayment')) {
      assert.deepEqual(step.scripts.inputsOf('approveOrderPayment').at(-1), { order_payment_id: 77, order_id: 501, approve_by: 'somchai@example.com', payment_method_id: 8 });
    }
    if (s.matches('awaitingAuthorization')) {
      assert.equal(phase, 'authorizing');
      // Persist first, then leave for 3-D Secure.
      assert.deepEqual(step.effects, [
        { type: 'persistSnapshot', params: undefined },
        { type: 'navigate', params: { to: 'https://api.omise.test/payments/3ds/chrg_1', external: true } },
      ]);
    }
    if (s.matches('chargeFailed')) {
      assert.equal(phase, 'failed');
      assert.equal(step.effects.length, 1);
      const notice = step.effects[0]!.params as { title: string; message: string; reason?: string };
      assert.deepEqual(notice.title, MSG.PAYMENT_FAILED_TITLE);
      // Omise's failure_code in the shop's words; Omise's own text never reaches the buyer.
      if (step.event.type === 'xstate.done.actor.chargeOmiseCard') assert.equal(notice.reason, 'insufficientFunds');
      else assert.equal(notice.reason, undefined, 'a rejected order read has no decline code to tell');
      assert.deepEqual(notice.message, MSG.PAYMENT_FAILED);
    }
    if (s.matches('requestFailed')) assert.deepEqual(step.effects, []);
    if (step.event.type === 'xstate.after.redirectDelay.omiseCard.chargeFailed' || step.event.type === 'xstate.after.redirectDelay.omiseCard.requestFailed') {
      assert.deepEqual(s.output, { result: 'toOrders' });
    }
    if (s.matches('paid')) assert.deepEqual(s.output, { result: 'paid' });
    if (s.matches('closed')) assert.deepEqual(s.output, { result: 'toOrders' });
  },
});
