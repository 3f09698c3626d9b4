import assert from 'node:assert/strict';
import { orderPaymentMachine } from '../../../machines/payments/order-payment.machine';
import { selectChosenMethod, selectOrderPaymentChild, selectOrderPaymentPhase } from '../../../machines/payments/order-payment.selectors';
import { MSG } from '../../../domain/messages';
import { defineModel } from '../support/model';
import { FAIL_NOTICE, orderRead, paymentOutcomes, student } from './fixtures';

const ACTORS: Record<number, string> = {
  1: 'bankTransfer', 2: 'paypal', 3: 'twoC2pCard', 4: 'scbQr', 8: 'omiseCard', 9: 'omisePromptPay', 10: 'twoC2pLink', 11: 'gbPrimeCard', 12: 'gbPrimePromptPay', 13: 'paySolutions',
};

/** The order as read, with the outcome the server computed. */
const read = (state: string, payment_status: 'notYetReceived' | 'pendingApproved' | 'approved' | 'rejected', reason: string | null = null) => {
  const r = orderRead(payment_status, 8);
  return { ...r, data: { ...r.data, created_at: '2030-01-01T00:00:00Z', cancel_at: null, outcome: { state, reason, method_id: 8 } } };
};

/** A free order (total 0) the checkout could not record: nothing to pay, only its free report to file. */
const FREE = (() => {
  const r = read('awaitingPayment', 'notYetReceived');
  return { ...r, data: { ...r.data, price: 0, total_amount: 0, outcome: { state: 'awaitingPayment', reason: null, method_id: null } } };
})();
const isFree = (e: unknown) => (e as { output?: { data?: { total_amount?: number } } }).output?.data?.total_amount === 0;

const ALL = Object.keys(ACTORS).map((id) => ({ id: Number(id), name: `method ${id}`, payment_type: 'online' }));

export const orderPaymentModel = defineModel({
  machine: orderPaymentMachine,
  file: 'machines/payments/order-payment.machine.ts',
  input: { user: student, thankYouPage: true, slipRequired: false },
  variants: [
    {
      name: 'order list after payment',
      input: { user: student, thankYouPage: false, slipRequired: false },
      userEvents: [{ type: 'order.pay', orderId: 501 }, { type: 'payment.start' }],
    },
    {
      // The route's pay link (?pay=501): the machine asks for that order's payment itself, once.
      name: 'opened to pay one order',
      input: { user: student, thankYouPage: true, slipRequired: false, payOrderId: 501 },
      userEvents: [{ type: 'payment.leave' }],
    },
  ],
  userEvents: [
    { type: 'order.pay', orderId: 501 },
    { type: 'order.cancel', orderId: 501 },
    { type: 'method.choose', methodId: 1 },
    { type: 'method.choose', methodId: 7 },
    ...Object.keys(ACTORS).filter((id) => id !== '8').map((id) => ({ type: 'method.choose', methodId: Number(id) })),
    { type: 'payment.start' },
    { type: 'payment.retry' },
    { type: 'payment.changeMethod' },
    { type: 'payment.leave' },
    { type: 'cancel.confirm' },
    { type: 'cancel.dismiss' },
  ],
  outcomes: {
    getOrder: {
      done: [read('failed', 'notYetReceived', 'insufficientFunds'), read('paid', 'approved'), read('expired', 'rejected'), FREE],
      error: [new Error('network')],
    },
    createPaymentReportPublic: { done: [{ success: true, orderPaymentId: 9, order_token: 'tok-501' }], error: [new Error('network')] },
    getPaymentMethodsForOrder: { done: [{ success: true, data: ALL }, { success: true, data: [] }], error: [new Error('network')] },
    deleteOrder: { done: [{ success: true }], error: [{ status: 409, code: 'ORDER_NOT_PAYABLE', msg: 'paid' }] },
    ...Object.fromEntries(Object.values(ACTORS).map((id) => [id, paymentOutcomes(id)])),
  },
  effects: ['notify', 'navigate', 'ordersChanged'],
  serialize: (s) => JSON.stringify({ value: s.value, orderId: s.context.orderId, order: s.context.order?.outcome?.state ?? null, methods: s.context.methods.length, methodId: s.context.methodId, thankYou: s.context.thankYouPage }),
  /** Keep the walk small: the other methods are chosen and paid once, their failures walked with the order's own method (8). */
  filter: (s, e) => {
    // A free order is only ever one the buyer asks for (a payment's result is read of a paid order).
    if (e.type === 'xstate.done.actor.getOrder' && isFree(e) && !s.matches('loadingOrder')) return false;
    if (e.type === 'method.choose' && s.context.methodId !== 8) return false;
    if (!s.context.thankYouPage && !['order.pay', 'payment.start', 'xstate.done.actor.getOrder', 'xstate.done.actor.getPaymentMethodsForOrder', 'xstate.done.actor.omiseCard', 'xstate.done.actor.createPaymentReportPublic'].includes(e.type)) return false;
    return true;
  },
  accepts: (s) => {
    if (s.matches('idle')) return ['order.pay', 'order.cancel'];
    if (s.matches('loadingOrder') || s.matches('loadingMethods')) return ['payment.leave'];
    if (s.matches('choosing')) return ['payment.leave', 'order.cancel', ...(s.context.methods.length ? ['method.choose', 'payment.start'] : [])];
    if (s.matches('paying')) return ['payment.leave'];
    if (s.matches('failed')) return ['payment.retry', 'payment.changeMethod', 'order.cancel', 'payment.leave'];
    if (s.matches('confirmingCancel')) return ['cancel.confirm', 'cancel.dismiss'];
    return [];
  },
  check: (s, step) => {
    const phase = selectOrderPaymentPhase(s);
    const c = s.context;
    // Opened by the pay link: the order's payment is asked for at start, without any event from the page.
    if (step.event.type === 'xstate.init') {
      assert.equal(s.matches('loadingOrder'), c.payOrderId === 501);
      if (c.payOrderId === 501) assert.deepEqual(step.scripts.inputsOf('getOrder').at(-1), { orderId: 501 });
    }
    if (s.matches('idle')) {
      assert.equal(phase, 'closed');
      assert.equal(c.orderId, null, 'an idle flow holds no order');
    }
    if (s.matches('choosing')) {
      assert.equal(phase, 'choosing');
      // The order's own method (8) is chosen first when it is allowed.
      if (step.event.type === 'xstate.done.actor.getPaymentMethodsForOrder') assert.equal(selectChosenMethod(s), c.methods.length ? 8 : null);
      assert.deepEqual(step.scripts.inputsOf('getPaymentMethodsForOrder').at(-1), { orderId: 501 });
    }
    if (step.event.type === 'method.choose' && (step.event as unknown as { methodId: number }).methodId === 7) assert.notEqual(c.methodId, 7, 'an unlisted method is not chosen');
    if (s.matches('paying')) {
      const child = selectOrderPaymentChild(s);
      assert.equal(phase, 'paying');
      const actor = ACTORS[c.methodId!]!;
      assert.equal(child?.methodId, c.methodId);
      // The same order, never a new one: the server's amount and token.
      const given = step.scripts.inputsOf(actor).at(-1) as { order: { orderId: number; orderToken: string; amount: number; methodId: number } };
      assert.deepEqual([given.order.orderId, given.order.orderToken, given.order.amount, given.order.methodId], [501, 'tok-501', 150000, c.methodId]);
    }
    if (s.matches('failed')) {
      assert.equal(phase, 'failed');
      assert.equal(c.order?.outcome?.reason, step.event.type === 'xstate.error.actor.getOrder' ? c.order?.outcome?.reason : 'insufficientFunds');
    }
    if (s.matches('confirmingCancel')) assert.equal(phase, 'confirmingCancel');
    // A free order: never its methods, never a payment machine; its free report, for this order.
    if (s.matches('recordingFree')) {
      assert.equal(phase, 'loading');
      assert.ok(isFree(step.event), 'only a free payable order is recorded');
      const report = step.scripts.inputsOf('createPaymentReportPublic').at(-1) as Record<string, unknown>;
      assert.deepEqual(
        [report.order_id, report.order_token, report.transfer_amount, report.payment, report.contact_name, report.email],
        [501, 'tok-501', 0, 'AutoFree', 'สมชาย ใจดี', 'somchai@example.com'],
      );
      assert.match(String(report.transfer_datetime), /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(step.scripts.inputsOf('getPaymentMethodsForOrder').length, 0);
    }
    if (step.event.type === 'xstate.done.actor.createPaymentReportPublic') {
      const to = c.thankYouPage ? [{ type: 'navigate', params: { to: '/thankyou?orderId=tok-501', external: false } }] : [];
      assert.deepEqual(step.effects.filter((e) => e.type === 'navigate'), to);
      if (!c.thankYouPage) assert.ok(step.effects.some((e) => e.type === 'ordersChanged'));
      assert.ok(s.matches('idle'));
    }
    if (step.event.type === 'xstate.error.actor.createPaymentReportPublic') {
      assert.ok(s.matches('idle'), 'not recorded: the panel closes, the order keeps its button');
      assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.FREE_ORDER_NOT_RECORDED } }]);
    }
    if (step.event.type === 'xstate.done.actor.deleteOrder') {
      assert.deepEqual(step.scripts.inputsOf('deleteOrder').at(-1), { order_id: 501 });
      assert.deepEqual(step.effects.map((e) => e.type), ['ordersChanged']);
    }
    if (step.event.type === 'xstate.error.actor.deleteOrder') assert.deepEqual(step.effects.at(-1), FAIL_NOTICE);
    // Paid: the thank-you page of this order, or the list read again.
    const paidNow = step.event.type.startsWith('xstate.done.actor.') && (step.event as unknown as { output?: { result?: string; data?: { outcome?: { state: string } } } }).output;
    if (paidNow && (paidNow.result === 'paid' || (s.matches('idle') && step.event.type === 'xstate.done.actor.getOrder' && paidNow.data?.outcome?.state === 'paid' && step.effects.some((e) => e.type === 'navigate')))) {
      if (c.thankYouPage) assert.deepEqual(step.effects.filter((e) => e.type === 'navigate'), [{ type: 'navigate', params: { to: '/thankyou?orderId=tok-501', external: false } }]);
      else assert.ok(step.effects.some((e) => e.type === 'ordersChanged'));
    }
  },
});
