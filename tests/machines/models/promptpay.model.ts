import assert from 'node:assert/strict';
import type { InputFrom } from 'xstate';
import { gbPrimePromptPayMachine } from '../../../machines/payments/gb-prime-promptpay.machine';
import { omisePromptPayMachine } from '../../../machines/payments/omise-promptpay.machine';
import { selectCanRetryPromptPay, selectIsCheckingPayment, selectListeningForPush, selectPromptPayPhase, selectPromptPayQr } from '../../../machines/payments/promptpay.selectors';
import { defineModel, type StepInfo } from '../support/model';
import { FAIL_NOTICE, order, orderRead, ORDER_STATUS_PUSHES } from './fixtures';

const reads = [orderRead('approved', 9), orderRead('rejected', 9), orderRead('notYetReceived', 9)];

type PromptPaySnapshot = Parameters<typeof selectPromptPayPhase>[0];

function accepts(s: PromptPaySnapshot): string[] {
  if (s.matches('awaitingScan')) return ['payment.resume'];
  if (s.matches('expired') || s.matches('failed')) return ['payment.retry'];
  return [];
}

function check(s: PromptPaySnapshot, step: StepInfo, createSrc: string): void {
  const phase = selectPromptPayPhase(s);
  if (s.matches('awaitingScan')) {
    assert.equal(phase, 'qr');
    assert.ok(selectPromptPayQr(s));
    assert.equal(selectIsCheckingPayment(s), s.matches({ awaitingScan: { poll: 'checking' } }));
    assert.equal(step.scripts.isOpen('watchOrderStatus'), selectListeningForPush(s), 'the realtime push is listened to while the QR is shown');
    // the connection back after a drop: the order is read at once (a push sent meanwhile is lost)
    if (step.event.type === 'order.pushesResumed') assert.ok(s.matches({ awaitingScan: { push: 'listening', poll: 'checking' } }), 'the order is read when the pushes come back');
    if (step.event.type === 'xstate.error.actor.watchOrderStatus') {
      // no push can come (the realtime connection lost for good): the QR stays, the poll goes on, nothing is told
      assert.ok(s.matches({ awaitingScan: { push: 'unavailable' } }), 'a lost connection leaves the order to the poll');
      assert.deepEqual(step.effects, [], 'the buyer is not told: the QR and the poll carry on');
    }
    if (step.event.type === `xstate.done.actor.${createSrc}`) assert.deepEqual(step.effects, [{ type: 'persistSnapshot', params: undefined }]);
    if (s.matches({ awaitingScan: { poll: 'checking' } })) assert.deepEqual(step.scripts.inputsOf('getOrder').at(-1), { orderId: 501 });
  } else {
    assert.equal(step.scripts.isOpen('watchOrderStatus'), false, 'the push listener stops with the QR');
  }
  if (s.matches('expired')) {
    assert.equal(phase, 'expired');
    assert.equal(selectPromptPayQr(s), null);
  }
  if (s.matches('failed')) {
    assert.equal(phase, 'failure');
    assert.ok(selectCanRetryPromptPay(s));
    if (step.event.type.startsWith('xstate.error')) assert.deepEqual(step.effects, [FAIL_NOTICE]);
  }
  if (s.matches('creatingQr')) {
    assert.equal(phase, 'loading');
    assert.deepEqual(step.scripts.inputsOf(createSrc).at(-1), { orderId: 501, email: 'somchai@example.com', name: 'สมชาย ใจดี', total_amount: 150000 });
  }
  if (s.matches('paid')) assert.deepEqual(s.output, { result: 'paid' });
  if (s.matches('rejected')) assert.deepEqual(s.output, { result: 'toOrders' });
}

/**
 * A PromptPay QR machine's model: the two differ only in the machine, the method of the order and
 * the call that makes the QR, with its sample answer.
 */
function promptPayModel<M extends typeof omisePromptPayMachine | typeof gbPrimePromptPayMachine>(machine: M, file: string, methodId: 9 | 12, createSrc: string, created: unknown) {
  return defineModel<M>({
    machine,
    file,
    // both machines take the order alone
    input: { order: order(methodId) } as InputFrom<M>,
    userEvents: [{ type: 'payment.retry' }, { type: 'payment.resume' }],
    callbacks: { watchOrderStatus: ORDER_STATUS_PUSHES },
    outcomes: {
      watchOrderStatus: { error: [new Error('socket closed')] },
      [createSrc]: { done: [created], error: [new Error('network')] },
      getOrder: { done: reads, error: [new Error('network')] },
    },
    effects: ['notify', 'persistSnapshot'],
    accepts,
    check: (s, step) => check(s, step, createSrc),
  });
}

export const omisePromptPayModel = promptPayModel(omisePromptPayMachine, 'machines/payments/omise-promptpay.machine.ts', 9, 'createOmisePromptPay', {
  success: true,
  QrcodeUrl: { image: { download_uri: 'https://api.omise.test/qr/1.svg' } },
  charge_id: 'chrg_1',
  expires_at: '2030-01-01T00:10:00Z',
});

export const gbPrimePromptPayModel = promptPayModel(gbPrimePromptPayMachine, 'machines/payments/gb-prime-promptpay.machine.ts', 12, 'createGbPrimePromptPay', {
  success: true,
  data: { qrImage: 'iVBORw0KGgo=', referenceNo: 'ref-501', expires_at: '2030-01-01T00:10:00Z' },
});
