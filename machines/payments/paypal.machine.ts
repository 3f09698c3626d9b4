/**
 * PayPal (method 2), spec sections 4 and 8: the PayPal buttons show while onPending. Their
 * createOrder asks our server for the PayPal order (createPaypalOrder, amount from OUR order),
 * their onApprove captures it (capturePaypalOrder); the order is paid only when the capture is
 * COMPLETED (the server answers 422 PAYMENT_FAILED otherwise).
 * - success: paid (the checkout then clears the cart);
 * - capture pending (PayPal holds the capture, the server answers status PENDING): nothing is
 *   deleted, the order stays awaiting payment; the modal says so (capturePending) until the buyer
 *   closes it (paypal.close), then the flow ends 'pending' (the order list shows the order, which
 *   PayPal's webhook or the server's re-read later marks paid or failed);
 * - failure (capture refused): the failure notice, the order is deleted (deleteOrder), and the
 *   buyer is back where the PayPal buttons show (onPending of a new order on the next click);
 * - INSTRUMENT_DECLINED: PayPal asks to restart the buttons -> onPending, same order;
 * - a button or technical error: logged, the modal closes, the order list.
 * Events arriving twice (createOrder / onApprove called twice) are refused outside their state.
 */
import { assign, fromPromise, setup } from 'xstate';
import { failureOf } from '../shared/api-error';
import type { DeleteOrderRequest, OrderIdBody, PaypalCaptureRequest, PaypalCaptureResponse, PaypalCreateOrderResponse, SuccessResponse } from '../shared/api';
import { effectDefaults } from '../shared/effects';
import { PAYMENT_FAILED_NOTICE, type PaymentInput, type PaymentOrder, type PaymentOutput, finalStateOutput } from './payment';

export interface PaypalContext {
  order: PaymentOrder;
  paypalOrderId: string | null;
}

export type PaypalEvent =
  | { type: 'paypal.createOrder' }
  | { type: 'paypal.approve'; payerId: string }
  | { type: 'paypal.cancel' }
  | { type: 'paypal.close' }
  | { type: 'paypal.error'; message: string };

const errorOf = ({ event }: { event: { error: unknown } }): unknown => event.error;

function captureIssue(error: unknown): string | null {
  const result = failureOf(error).result as { issue?: unknown } | undefined;
  return typeof result?.issue === 'string' ? result.issue : null;
}

export const paypalMachine = setup({
  types: {
    context: {} as PaypalContext,
    events: {} as PaypalEvent,
    input: {} as PaymentInput,
    output: {} as PaymentOutput,
  },
  actors: {
    createPaypalOrder: fromPromise<PaypalCreateOrderResponse, OrderIdBody>(async () => {
      throw new Error('createPaypalOrder is provided by the app');
    }),
    capturePaypalOrder: fromPromise<PaypalCaptureResponse, PaypalCaptureRequest>(async () => {
      throw new Error('capturePaypalOrder is provided by the app');
    }),
    deleteOrder: fromPromise<SuccessResponse, DeleteOrderRequest>(async () => {
      throw new Error('deleteOrder is provided by the app');
    }),
  },
  guards: {
    completed: (_, answer: PaypalCaptureResponse) => answer.status === 'COMPLETED',
    instrumentDeclined: (_, error: unknown) => captureIssue(error) === 'INSTRUMENT_DECLINED',
    paymentRefused: (_, error: unknown) => failureOf(error).code === 'PAYMENT_FAILED' && failureOf(error).status === 422,
  },
  actions: {
    ...effectDefaults,
    keepPaypalOrder: assign((_, answer: PaypalCreateOrderResponse) => ({ paypalOrderId: answer.paypal_order_id })),
    forgetPaypalOrder: assign({ paypalOrderId: null }),
  },
}).createMachine({
  id: 'paypal',
  context: ({ input }) => ({ order: input.order, paypalOrderId: null }),
  initial: 'onPending',
  states: {
    onPending: {
      on: { 'paypal.createOrder': 'creatingPaypalOrder' },
    },
    creatingPaypalOrder: {
      invoke: {
        id: 'createPaypalOrder',
        src: 'createPaypalOrder',
        input: ({ context }) => ({ orderId: context.order.orderId }),
        onDone: { target: 'awaitingApproval', actions: { type: 'keepPaypalOrder', params: ({ event }) => event.output } },
        onError: { target: 'buttonError' },
      },
    },
    awaitingApproval: {
      on: {
        'paypal.approve': 'capturing',
        'paypal.cancel': { target: 'onPending', actions: 'forgetPaypalOrder' },
        'paypal.error': 'buttonError',
      },
    },
    capturing: {
      invoke: {
        id: 'capturePaypalOrder',
        src: 'capturePaypalOrder',
        input: ({ context }) => ({ paypalOrderId: context.paypalOrderId ?? '', orderId: context.order.orderId }),
        onDone: [
          { guard: { type: 'completed', params: ({ event }) => event.output }, target: 'success' },
          // The contract answers COMPLETED or PENDING only (declined / failed captures are 422).
          { target: 'capturePending' },
        ],
        onError: [
          {
            guard: { type: 'instrumentDeclined', params: errorOf },
            target: 'onPending',
            actions: ['forgetPaypalOrder', { type: 'notify', params: PAYMENT_FAILED_NOTICE }],
          },
          { guard: { type: 'paymentRefused', params: errorOf }, target: 'failure' },
          { target: 'buttonError' },
        ],
      },
    },
    failure: {
      entry: { type: 'notify', params: PAYMENT_FAILED_NOTICE },
      invoke: {
        id: 'deleteOrder',
        src: 'deleteOrder',
        input: ({ context }) => ({ order_id: context.order.orderId }),
        onDone: { target: 'orderDeleted' },
        onError: { target: 'orderDeleted' },
      },
    },
    capturePending: {
      on: { 'paypal.close': 'handedOver' },
    },
    success: { type: 'final', output: { result: 'paid' } },
    handedOver: { type: 'final', output: { result: 'pending' } },
    orderDeleted: { type: 'final', output: { result: 'failed', orderDeleted: true } },
    buttonError: { type: 'final', output: { result: 'toOrders' } },
  },
  output: finalStateOutput,
});
