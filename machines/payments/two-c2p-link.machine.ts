/**
 * 2C2P payment page (method 10, installments; also method 3 when the site uses the link instead
 * of the card form): the server asks 2C2P for the web payment URL of the order's total, the flow
 * is persisted and the browser goes there. On return (`payment.resume` after the restore) the order
 * is read: approved -> paid, rejected -> the order list, otherwise it keeps waiting.
 * A failure shows the failure notice and goes to the order list (spec section 4: "2c2p variants
 * redirect to /myaccount/student/order").
 */
import { assign, setup } from 'xstate';
import { providedByApp } from '../shared/provided';
import type { OrderIdBody, TwoC2pPaymentLinkRequest, TwoC2pPaymentLinkResponse } from '../shared/api';
import { effectDefaults } from '../shared/effects';
import { HOSTED_ENDS, orderReadGuards, type OrderRead, type PaymentOrder, finalStateOutput, paymentTypes } from './payment';
import { returnStates, type ReturnCheck } from './return-states';

export interface TwoC2pLinkContext {
  order: PaymentOrder;
  /** What the last read on the buyer's return found (return-states.ts). */
  returned: ReturnCheck;
}

export type TwoC2pLinkEvent = { type: 'payment.resume' } | { type: 'payment.abandon' };

export const twoC2pLinkMachine = setup({
  types: paymentTypes<TwoC2pLinkContext, TwoC2pLinkEvent>(),
  actors: {
    create2c2pPaymentLink: providedByApp<TwoC2pPaymentLinkResponse, TwoC2pPaymentLinkRequest>('create2c2pPaymentLink'),
    getOrder: providedByApp<OrderRead, OrderIdBody>('getOrder'),
  },
  guards: {
    linkCreated: (_, answer: TwoC2pPaymentLinkResponse) => answer.success && !!answer.result.webPaymentUrl,
    ...orderReadGuards,
  },
  actions: {
    ...effectDefaults,
    noteReturn: assign((_, returned: ReturnCheck) => ({ returned })),
  },
}).createMachine({
  id: 'twoC2pLink',
  context: ({ input }) => ({ order: input.order, returned: null }),
  initial: 'creatingLink',
  states: {
    creatingLink: {
      invoke: {
        id: 'create2c2pPaymentLink',
        src: 'create2c2pPaymentLink',
        input: ({ context }) => ({ orderId: context.order.orderId, amount: context.order.amount }),
        onDone: [
          {
            guard: { type: 'linkCreated', params: ({ event }) => event.output },
            target: 'awaitingReturn',
            actions: ['persistSnapshot', { type: 'navigate', params: ({ event }) => ({ to: event.output.result.webPaymentUrl, external: true }) }],
          },
          { target: 'failed' },
        ],
        onError: { target: 'failed' },
      },
    },
    ...returnStates('awaitingReturn', 'leftForOrders'),
    ...HOSTED_ENDS.toOrders,
  },
  output: finalStateOutput,
});
