/**
 * GB Prime Pay card (method 11): the server starts the payment for the order's total and answers
 * the page to go to (data.invoice_url); the flow is persisted and the browser goes there, with
 * the return paths (thank-you page or order list on success, the order list on failure).
 * On return (`payment.resume`) the order is read. A failure shows the failure notice and the
 * buyer stays (spec section 4: "On payment failure the action flag resets and the user stays").
 */
import { assign, setup } from 'xstate';
import { providedByApp } from '../shared/provided';
import type { GbPrimeCardRequest, GbPrimeCardResponse, OrderIdBody } from '../shared/api';
import { effectDefaults, ROUTES } from '../shared/effects';
import { HOSTED_ENDS, orderReadGuards, type OrderRead, type PaymentInput, type PaymentOrder, finalStateOutput, paymentTypes } from './payment';
import { returnStates, type ReturnCheck } from './return-states';

export interface GbPrimeCardInput extends PaymentInput {
  /** Site setting is_thank_you_page: where a successful payment returns to. */
  thankYouPage: boolean;
}

export interface GbPrimeCardContext {
  order: PaymentOrder;
  thankYouPage: boolean;
  /** What the last read on the buyer's return found (return-states.ts). */
  returned: ReturnCheck;
}

export type GbPrimeCardEvent = { type: 'payment.resume' } | { type: 'payment.abandon' };

export const gbPrimeCardMachine = setup({
  types: paymentTypes<GbPrimeCardContext, GbPrimeCardEvent, GbPrimeCardInput>(),
  actors: {
    createGbPrimeCardPayment: providedByApp<GbPrimeCardResponse, GbPrimeCardRequest>('createGbPrimeCardPayment'),
    getOrder: providedByApp<OrderRead, OrderIdBody>('getOrder'),
  },
  guards: {
    invoiceReady: (_, answer: GbPrimeCardResponse) => !!answer.data.invoice_url,
    ...orderReadGuards,
  },
  actions: {
    ...effectDefaults,
    noteReturn: assign((_, returned: ReturnCheck) => ({ returned })),
  },
}).createMachine({
  id: 'gbPrimeCard',
  context: ({ input }) => ({ order: input.order, thankYouPage: input.thankYouPage, returned: null }),
  initial: 'startingPayment',
  states: {
    startingPayment: {
      invoke: {
        id: 'createGbPrimeCardPayment',
        src: 'createGbPrimeCardPayment',
        input: ({ context }) => ({
          orderId: context.order.orderId,
          total_amount: context.order.amount,
          email: context.order.email,
          name: context.order.name,
          success_url: context.thankYouPage ? ROUTES.thankYou(context.order.orderToken) : ROUTES.orders,
          failure_url: ROUTES.orders,
        }),
        onDone: [
          {
            guard: { type: 'invoiceReady', params: ({ event }) => event.output },
            target: 'awaitingReturn',
            actions: ['persistSnapshot', { type: 'navigate', params: ({ event }) => ({ to: event.output.data.invoice_url, external: true }) }],
          },
          { target: 'failed' },
        ],
        onError: { target: 'failed' },
      },
    },
    ...returnStates('awaitingReturn', 'failed'),
    ...HOSTED_ENDS.staying,
  },
  output: finalStateOutput,
});
