/**
 * PayPal (method 2), spec sections 4 and 8: the PayPal buttons show while onPending. Their
 * createOrder asks our server for the PayPal order (createPaypalOrder, amount from OUR order),
 * their onApprove captures it (capturePaypalOrder); the order is paid only when the capture is
 * COMPLETED (the server answers 422 PAYMENT_FAILED otherwise).
 * - the approval window: opened on the click (`openApprovalWindow`, inside the buyer's gesture so
 *   no popup blocker stops it), watched by the `watchApproval` callback actor while
 *   awaitingApproval (it points the window at PayPal and sends back paypal.approve with the
 *   PayerID when the window returns to our origin, paypal.cancel when it is closed or returns
 *   without one, paypal.error when it cannot be opened); `closeApprovalWindow` on the way out;
 * - success: paid (the checkout then clears the cart);
 * - capture pending (PayPal holds the capture, the server answers status PENDING): nothing is
 *   deleted, the order stays awaiting payment; the modal says so (capturePending) until the buyer
 *   closes it (paypal.close), then the flow ends 'pending' (the order list shows the order, which
 *   PayPal's webhook or the server's re-read later marks paid or failed);
 * - failure (capture refused): the failure notice, the order is deleted (deleteOrder), and the
 *   buyer is back where the PayPal buttons show (onPending of a new order on the next click);
 * - INSTRUMENT_DECLINED: PayPal asks to restart the buttons -> onPending, same order, the reason
 *   shown in the modal (`problem` 'declined'); a cancelled approval the same (`problem` 'cancelled');
 * - PayPal unreachable (createPaypalOrder failed, the window could not open): buttonError, the
 *   reason in the modal, pay again (paypal.createOrder) or close;
 * - a capture that got no answer (network, 5xx): captureUnconfirmed — the payment may have gone
 *   through, so no second try here: the modal says so and the buyer closes to the order list,
 *   which shows the order's real state;
 * - paypal.close (the modal's close button, Escape, "pay another way") from every state that is not
 *   final: the flow ends 'toOrders' (closed); the order is kept and stays payable there by any method.
 * Events arriving twice (createOrder / onApprove called twice) are refused outside their state.
 */
import { assign, fromCallback, setup } from 'xstate';
import { providedByApp } from '../shared/provided';
import { failureOf } from '../shared/api-error';
import type { DeleteOrderRequest, OrderIdBody, PaypalCaptureRequest, PaypalCaptureResponse, PaypalCreateOrderResponse, SuccessResponse } from '../shared/api';
import { effectDefaults } from '../shared/effects';
import { PAYMENT_FAILED_NOTICE, type PaymentOrder, finalStateOutput, paymentTypes } from './payment';
import { builtOnFirstUse } from '../shared/built-on-first-use';

/** Why the modal is back at its PayPal button (or stopped): shown to the buyer in the modal. */
export type PaypalProblem = 'declined' | 'cancelled' | 'unreachable' | 'unconfirmed';

export interface PaypalContext {
  order: PaymentOrder;
  paypalOrderId: string | null;
  problem: PaypalProblem | null;
}

/** What the approval-window watcher is given: the PayPal order the buyer approves. */
export interface ApprovalWatchInput {
  paypalOrderId: string;
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

export const paypalMachine = builtOnFirstUse(() =>
  setup({
    types: paymentTypes<PaypalContext, PaypalEvent>(),
    actors: {
      createPaypalOrder: providedByApp<PaypalCreateOrderResponse, OrderIdBody>('createPaypalOrder'),
      capturePaypalOrder: providedByApp<PaypalCaptureResponse, PaypalCaptureRequest>('capturePaypalOrder'),
      deleteOrder: providedByApp<SuccessResponse, DeleteOrderRequest>('deleteOrder'),
      /** Watches PayPal's approval window; sends back paypal.approve / paypal.cancel / paypal.error. */
      watchApproval: fromCallback<PaypalEvent, ApprovalWatchInput>(() => {
        throw new Error('watchApproval is provided by the app');
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
      problem: assign((_, problem: PaypalProblem | null) => ({ problem })),
      /** Opens the approval window (blank until the PayPal order exists); the app provides it. */
      openApprovalWindow: () => {},
      /** Closes the approval window if it is still open; the app provides it. */
      closeApprovalWindow: () => {},
    },
  }).createMachine({
    id: 'paypal',
    context: ({ input }) => ({ order: input.order, paypalOrderId: null, problem: null }),
    initial: 'onPending',
    // The buyer may close the modal in every state that is not final: the order stays payable from the order list.
    on: { 'paypal.close': { target: '.closed' } },
    states: {
      onPending: {
        on: { 'paypal.createOrder': { target: 'creatingPaypalOrder', actions: { type: 'problem', params: null } } },
      },
      creatingPaypalOrder: {
        entry: 'openApprovalWindow',
        invoke: {
          id: 'createPaypalOrder',
          src: 'createPaypalOrder',
          input: ({ context }) => ({ orderId: context.order.orderId }),
          onDone: { target: 'awaitingApproval', actions: { type: 'keepPaypalOrder', params: ({ event }) => event.output } },
          onError: { target: 'buttonError', actions: 'closeApprovalWindow' },
        },
      },
      awaitingApproval: {
        invoke: {
          id: 'watchApproval',
          src: 'watchApproval',
          input: ({ context }) => ({ paypalOrderId: context.paypalOrderId ?? '' }),
          onError: { target: 'buttonError' },
        },
        exit: 'closeApprovalWindow',
        on: {
          'paypal.approve': 'capturing',
          'paypal.cancel': { target: 'onPending', actions: ['forgetPaypalOrder', { type: 'problem', params: 'cancelled' }] },
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
              actions: ['forgetPaypalOrder', { type: 'problem', params: 'declined' }, { type: 'notify', params: PAYMENT_FAILED_NOTICE }],
            },
            { guard: { type: 'paymentRefused', params: errorOf }, target: 'failure' },
            { target: 'captureUnconfirmed', actions: { type: 'log', params: ({ event }) => ({ message: 'PayPal capture unanswered', detail: failureOf(event.error) }) } },
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
      // PayPal could not be reached or its window not opened: the reason, pay again or close.
      buttonError: {
        entry: [{ type: 'forgetPaypalOrder' }, { type: 'problem', params: 'unreachable' }],
        on: { 'paypal.createOrder': { target: 'creatingPaypalOrder', actions: { type: 'problem', params: null } } },
      },
      // The capture got no answer: it may have gone through; the order list shows what happened.
      captureUnconfirmed: {
        entry: { type: 'problem', params: 'unconfirmed' },
      },
      success: { type: 'final', output: { result: 'paid' } },
      handedOver: { type: 'final', output: { result: 'pending' } },
      orderDeleted: { type: 'final', output: { result: 'failed', orderDeleted: true } },
      closed: { type: 'final', output: { result: 'toOrders' } },
    },
    output: finalStateOutput,
  }),
);
