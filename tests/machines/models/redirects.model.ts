import assert from 'node:assert/strict';
import { gbPrimeCardMachine } from '../../../machines/payments/gb-prime-card.machine';
import { selectGbPrimeCardPhase } from '../../../machines/payments/gb-prime-card.selectors';
import { paySolutionsMachine } from '../../../machines/payments/pay-solutions.machine';
import { selectPaySolutionsPhase } from '../../../machines/payments/pay-solutions.selectors';
import { twoC2pCardMachine } from '../../../machines/payments/two-c2p-card.machine';
import { selectCardFormEnabled, selectTwoC2pCardPhase } from '../../../machines/payments/two-c2p-card.selectors';
import { twoC2pLinkMachine } from '../../../machines/payments/two-c2p-link.machine';
import { selectTwoC2pLinkPhase } from '../../../machines/payments/two-c2p-link.selectors';
import { defineModel } from '../support/model';
import { FAIL_NOTICE, order, orderRead } from './fixtures';
import { MSG } from '../../../domain/messages';

const reads = (m: 3 | 10 | 11 | 13) => [orderRead('approved', m), orderRead('rejected', m), orderRead('pendingApproved', m)];
const resumeEvents = [{ type: 'payment.resume' }, { type: 'payment.abandon' }];
const persistThen = (effect: unknown) => [{ type: 'persistSnapshot', params: undefined }, effect];

/**
 * What the world does to a machine that sends the buyer to the provider's page by address: the
 * call that prepares the page answers one of `created` (or fails), the order is read on the way
 * back; the page resumes or leaves for the order list while the buyer is away.
 */
const sentAway = (methodId: 10 | 11, createSrc: string, created: readonly unknown[]) => ({
  userEvents: resumeEvents,
  outcomes: {
    [createSrc]: { done: created, error: [new Error('network')] },
    getOrder: { done: reads(methodId), error: [new Error('network')] },
  },
  effects: ['notify', 'navigate', 'persistSnapshot'],
  accepts: (s: { matches: (v: 'awaitingReturn') => boolean }) => (s.matches('awaitingReturn') ? ['payment.resume', 'payment.abandon'] : []),
});

export const twoC2pLinkModel = defineModel({
  machine: twoC2pLinkMachine,
  file: 'machines/payments/two-c2p-link.machine.ts',
  input: { order: order(10) },
  ...sentAway(10, 'create2c2pPaymentLink', [{ success: true, result: { webPaymentUrl: 'https://pgw.2c2p.test/payment/abc' } }, { success: true, result: { webPaymentUrl: '' } }]),
  check: (s, step) => {
    const phase = selectTwoC2pLinkPhase(s);
    if (s.matches('creatingLink')) assert.deepEqual(step.scripts.inputsOf('create2c2pPaymentLink').at(-1), { orderId: 501, amount: 150000 });
    if (s.matches('awaitingReturn')) {
      assert.equal(phase, 'awaitingReturn');
      if (step.event.type === 'xstate.done.actor.create2c2pPaymentLink') {
        assert.deepEqual(step.effects, persistThen({ type: 'navigate', params: { to: 'https://pgw.2c2p.test/payment/abc', external: true } }));
      } else assert.deepEqual(step.effects, []);
    }
    if (s.matches('leftForOrders')) {
      assert.deepEqual(s.output, { result: 'toOrders' });
      if (step.event.type === 'xstate.error.actor.create2c2pPaymentLink') assert.deepEqual(step.effects, [FAIL_NOTICE]);
    }
    if (s.matches('paid')) assert.deepEqual(s.output, { result: 'paid' });
    if (s.status === 'done') assert.equal(phase, 'finished');
  },
});

export const gbPrimeCardModel = defineModel({
  machine: gbPrimeCardMachine,
  file: 'machines/payments/gb-prime-card.machine.ts',
  input: { order: order(11), thankYouPage: true },
  ...sentAway(11, 'createGbPrimeCardPayment', [{ success: true, data: { invoice_url: 'https://gbp.test/invoice/1' } }, { success: true, data: { invoice_url: '' } }]),
  check: (s, step) => {
    const phase = selectGbPrimeCardPhase(s);
    if (s.matches('startingPayment')) {
      assert.equal(phase, 'preparing');
      assert.deepEqual(step.scripts.inputsOf('createGbPrimeCardPayment').at(-1), {
        orderId: 501,
        total_amount: 150000,
        email: 'somchai@example.com',
        name: 'สมชาย ใจดี',
        success_url: '/thankyou?orderId=tok-501',
        failure_url: '/myaccount/student/order',
      });
    }
    if (s.matches('awaitingReturn') && step.event.type === 'xstate.done.actor.createGbPrimeCardPayment') {
      assert.deepEqual(step.effects, persistThen({ type: 'navigate', params: { to: 'https://gbp.test/invoice/1', external: true } }));
    }
    if (s.matches('notPaid')) {
      assert.deepEqual(s.output, { result: 'failed' });
      assert.deepEqual(step.effects, [FAIL_NOTICE]);
    }
    if (s.matches('paid')) assert.deepEqual(s.output, { result: 'paid' });
    if (s.matches('leftForOrders')) assert.deepEqual(s.output, { result: 'toOrders' });
  },
});

const card = { encryptedCardInfo: 'ENC', maskedCardInfo: '411111XXXXXX1111', expMonthCardInfo: '12', expYearCardInfo: '2030' };
const signed = {
  success: true,
  data: { action: 'https://demo2.2c2p.test/2C2PFrontEnd/SecurePayment/PaymentAuth.aspx', method: 'POST', fields: { paymentRequest: 'UGF5bWVudFJlcXVlc3Q=' } },
};

const twoC2pCardBase = {
  machine: twoC2pCardMachine,
  file: 'machines/payments/two-c2p-card.machine.ts',
  userEvents: [{ type: 'card.encrypted', card }, { type: 'card.gatewayError', code: '99', description: 'Invalid card' }, ...resumeEvents],
  outcomes: {
    create2c2pCardRequest: { done: [signed], error: [new Error('network')] },
    getOrder: { done: reads(3), error: [new Error('network')] },
  },
  effects: ['notify', 'postForm', 'persistSnapshot'],
  accepts: (s: Parameters<typeof selectTwoC2pCardPhase>[0]) => {
    if (s.matches('enteringCard')) return ['card.encrypted', 'card.gatewayError'];
    if (s.matches('awaitingResult')) return ['payment.resume', 'payment.abandon'];
    return [];
  },
  check: (s: Parameters<typeof selectTwoC2pCardPhase>[0], step: Parameters<NonNullable<Parameters<typeof defineModel>[0]['check']>>[1]) => {
    assert.equal(selectCardFormEnabled(s), s.matches('enteringCard'));
    if (s.matches('enteringCard') && step.event.type === 'card.gatewayError') {
      assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'error', topic: 'fail', title: MSG.PAYMENT_FAILED_TITLE, message: 'Invalid card (99)' } }]);
    }
    if (s.matches('signingForm')) {
      assert.equal(selectTwoC2pCardPhase(s), 'signing');
      assert.deepEqual(step.scripts.inputsOf('create2c2pCardRequest').at(-1), { orderId: 501, ...card });
    }
    if (s.matches('awaitingResult')) {
      assert.equal(s.context.card, null, 'the card data is not kept (nor persisted) once the form is signed');
      if (step.event.type === 'xstate.done.actor.create2c2pCardRequest') {
        assert.deepEqual(step.effects, persistThen({ type: 'postForm', params: { action: signed.data.action, fields: signed.data.fields } }));
      }
    }
    if (s.matches('leftForOrders')) assert.deepEqual(s.output, { result: 'toOrders' });
    if (s.matches('paid')) assert.deepEqual(s.output, { result: 'paid' });
  },
};

export const twoC2pCardModel = defineModel({
  ...twoC2pCardBase,
  input: { order: order(3) },
  /** The card-payment return page: the encrypted card comes in the query, the form is signed at once. */
  variants: [{ name: 'return page', input: { order: order(3), card } }],
});

const paySolutionsAnswer = {
  success: true,
  data: {
    application_id_1: 'M123',
    course_ids: [11],
    action: 'https://www.thaiepay.test/epaylink/payment.aspx?lang=TH',
    fields: {
      customeremail: '',
      productdetail: 'Course 11',
      refno: '000000000501',
      merchantid: 'M123',
      cc: '00',
      total: '1500.00',
      lang: 'TH',
      returnurl: 'https://shop.test/thankyou?orderId=tok-501',
      postbackurl: 'https://shop.test/api/pay-solutions/postback',
    },
  },
};

export const paySolutionsModel = defineModel({
  machine: paySolutionsMachine,
  file: 'machines/payments/pay-solutions.machine.ts',
  input: { order: order(13) },
  userEvents: resumeEvents,
  outcomes: {
    createPaySolutionsPayment: { done: [paySolutionsAnswer], error: [new Error('network')] },
    getOrder: { done: [orderRead('notYetReceived', 13), ...reads(13)], error: [new Error('network')] },
  },
  effects: ['notify', 'postForm', 'persistSnapshot'],
  accepts: (s) => (s.matches('awaitingReturn') ? ['payment.resume', 'payment.abandon'] : []),
  check: (s, step) => {
    const phase = selectPaySolutionsPhase(s);
    if (s.matches('preparingForm')) assert.deepEqual(step.scripts.inputsOf('createPaySolutionsPayment').at(-1), { order_id: 501 });
    if (s.matches('awaitingReturn')) {
      assert.equal(phase, 'awaitingReturn');
      if (step.event.type === 'xstate.done.actor.getOrder' && step.index === 2) {
        const { returnurl: _r, postbackurl: _p, ...shown } = paySolutionsAnswer.data.fields;
        const posted = step.effects[1]!.params as { action: string; fields: Record<string, string> };
        assert.equal(step.effects[0]!.type, 'persistSnapshot');
        assert.equal(posted.action, paySolutionsAnswer.data.action);
        assert.deepEqual(
          Object.fromEntries(Object.keys(shown).map((k) => [k, posted.fields[k]])),
          { ...shown, customeremail: 'somchai@example.com', cc: '00', lang: 'TH' },
        );
      }
    }
    if (s.matches('notPaid')) assert.deepEqual(step.effects, [FAIL_NOTICE]);
    if (s.status === 'done') assert.equal(phase, 'finished');
  },
});
