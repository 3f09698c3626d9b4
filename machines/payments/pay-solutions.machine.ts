/**
 * PaySolutions (method 13), spec section 7: createPaySolutionsPayment answers the merchant id,
 * the course ids and the hosted form; the order is read (its e-mail and status: an order already
 * paid is not paid twice); the flow is persisted and the hidden form is auto-submitted to the
 * provider with customeremail, productdetail, refno, merchantid, cc '00', total, lang 'TH'
 * (plus the return and postback URLs the server adds). On return (`payment.resume`) the order is read.
 */
import { assign, setup } from 'xstate';
import { providedByApp } from '../shared/provided';
import type { OrderIdBody, PaySolutionsRequest, PaySolutionsResponse } from '../shared/api';
import { effectDefaults, type FormPost } from '../shared/effects';
import { HOSTED_ENDS, orderReadGuards, type OrderRead, type PaymentOrder, finalStateOutput, paymentTypes } from './payment';
import { returnStates, type ReturnCheck } from './return-states';

export interface PaySolutionsContext {
  order: PaymentOrder;
  /** The server's answer: merchant id, course ids and the hosted form. */
  answer: PaySolutionsResponse | null;
  /** What the last read on the buyer's return found (return-states.ts). */
  returned: ReturnCheck;
}

export type PaySolutionsEvent = { type: 'payment.resume' } | { type: 'payment.abandon' };

/** The hosted form: the server's fields, with the buyer's e-mail from the order read back. */
export function paySolutionsForm(answer: PaySolutionsResponse, order: OrderRead): FormPost {
  const f = answer.data.fields;
  return {
    action: answer.data.action,
    fields: {
      customeremail: order.data.email || f.customeremail,
      productdetail: f.productdetail,
      refno: f.refno,
      merchantid: f.merchantid || answer.data.application_id_1,
      cc: '00',
      total: f.total,
      lang: f.lang,
      returnurl: f.returnurl,
      postbackurl: f.postbackurl,
    },
  };
}

export const paySolutionsMachine = setup({
  types: paymentTypes<PaySolutionsContext, PaySolutionsEvent>(),
  actors: {
    createPaySolutionsPayment: providedByApp<PaySolutionsResponse, PaySolutionsRequest>('createPaySolutionsPayment'),
    getOrder: providedByApp<OrderRead, OrderIdBody>('getOrder'),
  },
  guards: {
    ...orderReadGuards,
    /**
     * Before the form is posted only the shop's own rejection stops the payment: an earlier
     * attempt that failed (declined, cancelled) is why the buyer pays again, not a reason to stay.
     */
    shopRejected: (_, order: OrderRead) => order.data.payment_status === 'rejected',
  },
  actions: {
    ...effectDefaults,
    noteReturn: assign((_, returned: ReturnCheck) => ({ returned })),
    keepAnswer: assign((_, answer: PaySolutionsResponse) => ({ answer })),
  },
}).createMachine({
  id: 'paySolutions',
  context: ({ input }) => ({ order: input.order, answer: null, returned: null }),
  initial: 'preparingForm',
  states: {
    preparingForm: {
      invoke: {
        id: 'createPaySolutionsPayment',
        src: 'createPaySolutionsPayment',
        input: ({ context }) => ({ order_id: context.order.orderId }),
        onDone: { target: 'readingOrder', actions: { type: 'keepAnswer', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    readingOrder: {
      invoke: {
        id: 'getOrder',
        src: 'getOrder',
        input: ({ context }) => ({ orderId: context.order.orderId }),
        onDone: [
          { guard: { type: 'approved', params: ({ event }) => event.output }, target: 'paid' },
          { guard: { type: 'shopRejected', params: ({ event }) => event.output }, target: 'leftForOrders' },
          {
            target: 'awaitingReturn',
            actions: [
              'persistSnapshot',
              { type: 'postForm', params: ({ context, event }) => paySolutionsForm(context.answer as PaySolutionsResponse, event.output) },
            ],
          },
        ],
        onError: { target: 'failed' },
      },
    },
    ...returnStates('awaitingReturn', 'leftForOrders'),
    ...HOSTED_ENDS.staying,
  },
  output: finalStateOutput,
});

