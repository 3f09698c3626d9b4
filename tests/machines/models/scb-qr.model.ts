import assert from 'node:assert/strict';
import { scbQrMachine } from '../../../machines/payments/scb-qr.machine';
import { scbQrCountdown, selectQrImage, selectScbIsChecking, selectScbListeningForPush, selectScbQrExpiresAt, selectScbQrPhase } from '../../../machines/payments/scb-qr.selectors';
import { defineModel } from '../support/model';
import { order, orderRead, ORDER_STATUS_PUSHES } from './fixtures';
import { MSG } from '../../../domain/messages';

const qrOk = { status: { code: 1000, description: 'Success' }, data: { qrImage: 'iVBORw0KGgo=', csExtExpiryTime: 15, expires_at: '2030-01-01T00:15:00Z' } };
const qrRefused = { status: { code: 9999, description: 'Refused' }, data: { qrImage: '', csExtExpiryTime: 15, expires_at: '2030-01-01T00:15:00Z' } };

export const scbQrModel = defineModel({
  machine: scbQrMachine,
  file: 'machines/payments/scb-qr.machine.ts',
  input: { order: order(4) },
  userEvents: [{ type: 'qr.done' }, { type: 'payment.retry' }, { type: 'payment.resume' }],
  callbacks: { watchOrderStatus: ORDER_STATUS_PUSHES },
  outcomes: {
    watchOrderStatus: { error: [new Error('socket closed')] },
    createScbQrCode: { done: [qrOk, qrRefused], error: [new Error('network')] },
    getOrder: { done: [orderRead('approved'), orderRead('rejected'), orderRead('notYetReceived')], error: [new Error('network')] },
  },
  effects: ['notify', 'persistSnapshot'],
  accepts: (s) => {
    if (s.matches('awaitingScan')) return ['qr.done', 'payment.resume'];
    if (s.matches('expired')) return ['payment.retry', 'qr.done'];
    if (s.matches('failed')) return ['payment.retry'];
    return [];
  },
  check: (s, step) => {
    const phase = selectScbQrPhase(s);
    if (s.matches('awaitingScan')) {
      assert.equal(phase, 'qr');
      assert.ok(selectQrImage(s));
      assert.equal(selectScbQrExpiresAt(s), '2030-01-01T00:15:00Z', "the server's expiry, not a count of ticks");
      // The countdown is the wall clock against that expiry.
      assert.deepEqual(scbQrCountdown(selectScbQrExpiresAt(s), Date.parse('2030-01-01T00:13:30Z')), { minutes: 1, seconds: 30, totalSeconds: 90 });
      assert.equal(step.scripts.isOpen('watchOrderStatus'), selectScbListeningForPush(s), 'the realtime push is listened to while the QR is shown');
      // the connection back after a drop: the order is read at once (a push sent meanwhile is lost)
      if (step.event.type === 'order.pushesResumed') assert.ok(s.matches({ awaitingScan: { push: 'listening', poll: 'checking' } }), 'the order is read when the pushes come back');
      if (step.event.type === 'xstate.error.actor.watchOrderStatus') {
        // no push can come (the realtime connection lost for good): the QR stays, the poll goes on, nothing is told
        assert.ok(s.matches({ awaitingScan: { push: 'unavailable' } }), 'a lost connection leaves the order to the poll');
        assert.deepEqual(step.effects, [], 'the buyer is not told: the QR and the poll carry on');
      }
      assert.equal(selectScbIsChecking(s), s.matches({ awaitingScan: { poll: 'checking' } }));
      if (step.event.type === 'xstate.done.actor.createScbQrCode') assert.deepEqual(step.effects.map((e) => e.type), ['persistSnapshot']);
    } else {
      assert.equal(step.scripts.isOpen('watchOrderStatus'), false, 'the push listener stops with the QR');
    }
    if (s.matches('expired')) {
      assert.equal(selectQrImage(s), null);
      assert.equal(phase, 'expired');
    }
    if (s.matches('failed')) {
      assert.equal(phase, 'failure');
      if (step.event.type.startsWith('xstate.')) assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'error', topic: 'fail', title: MSG.PAYMENT_FAILED_TITLE, message: MSG.PAYMENT_FAILED } }]);
    }
    if (s.matches('creatingQr') || s.matches('checkingPayment')) assert.equal(phase, 'loading');
    if (s.matches('checkingPayment')) assert.ok(selectScbIsChecking(s));
    if (s.matches('creatingQr')) assert.deepEqual(step.scripts.inputsOf('createScbQrCode').at(-1), { orderId: 501 });
    if (s.status === 'done') assert.ok(['paid', 'toOrders'].includes((s.output as { result: string }).result));
    // 'Done' with an order the bank has not confirmed never reaches the thank-you page.
    if (s.matches('pending')) assert.deepEqual(s.output, { result: 'toOrders' });
    // A push for another order, or a status that is not final, leaves the QR up.
    if (step.event.type === 'order.statusChanged') {
      const e = step.event as unknown as { orderId: number; payment_status: string };
      if (e.orderId !== 501 || !['approved', 'rejected'].includes(e.payment_status)) assert.ok(s.matches('awaitingScan'));
      else assert.ok(s.matches(e.payment_status === 'approved' ? 'paid' : 'rejected'));
    }
  },
});
