/** The card-payment return page's flow: the 2C2P card payment it runs, and where the page goes at its end. */
import assert from 'node:assert/strict';
import { cardReturnMachine } from '../../../machines/payments/card-return.machine';
import { selectCardPayment } from '../../../machines/payments/card-return.selectors';
import { defineModel } from '../support/model';
import { order } from './fixtures';

const card = { encryptedCardInfo: 'ENC', maskedCardInfo: '411111XXXXXX1111', expMonthCardInfo: '12', expYearCardInfo: '2030' };

export const cardReturnModel = defineModel({
  machine: cardReturnMachine,
  file: 'machines/payments/card-return.machine.ts',
  input: { order: order(3), card },
  userEvents: [],
  outcomes: {
    // How the 2C2P card machine ends (payment.ts PaymentOutput): paid on the return read, or sent to the order list.
    twoC2pCard: { done: [{ result: 'paid' }, { result: 'toOrders' }], error: [new Error('the card machine stopped')] },
  },
  effects: ['navigate'],
  accepts: () => [],
  check: (s, step) => {
    if (s.matches('paying')) {
      assert.deepEqual(step.scripts.inputsOf('twoC2pCard').at(-1), { order: order(3), card }, 'the card machine pays this order with the card from the query');
      assert.deepEqual(step.effects, [], 'the page stays while the card is paid');
    }
    // The page's only way on at the end: paid -> the thank-you page, anything else -> the order list; the return page is not kept in the history.
    if (s.matches('paid')) assert.deepEqual(step.effects, [{ type: 'navigate', params: { to: '/thankyou?orderId=tok-501', external: false, replace: true } }]);
    if (s.matches('leftForOrders')) assert.deepEqual(step.effects, [{ type: 'navigate', params: { to: '/myaccount/student/order', external: false, replace: true } }]);
    assert.equal(s.status === 'done', s.matches('paid') || s.matches('leftForOrders'));
    if (s.status === 'done') assert.deepEqual(s.output, { result: s.matches('paid') ? 'paid' : 'toOrders' });
    assert.equal(selectCardPayment(s) === undefined, s.status === 'done', 'the card payment runs until the flow ends');
  },
});
