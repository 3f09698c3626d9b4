/**
 * Omise PromptPay (method 9), spec section 4 "PromptPay": once the QR is shown, the order is read
 * every 6 s (pollInterval) until approved or rejected; the realtime push of the order's status
 * (watchOrderStatus, a callback actor) ends the wait at once. The QR expires at its expires_at
 * (qrExpiry); a refresh restores the flow (persisted on entry) and `payment.resume` reads the order now.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { OmiseChargeRequest, OmisePromptPayResponse, OrderIdBody, OrderPaymentStatus } from '../shared/api';
import { effectDefaults } from '../shared/effects';
import { isApproved, isRejected, PAYMENT_FAILED_NOTICE, type OrderRead, type PaymentInput, type PaymentOrder, type PaymentOutput } from './payment';

export interface OmisePromptPayContext {
  order: PaymentOrder;
  qrImageUrl: string | null;
  /** ISO time the QR expires. */
  expiresAt: string | null;
}

/** Pushed by the realtime connection when the order's payment status changes. */
export interface OrderStatusPushed {
  type: 'order.statusChanged';
  orderId: number;
  payment_status: OrderPaymentStatus;
}

export type OmisePromptPayEvent = { type: 'payment.retry' } | { type: 'payment.resume' } | OrderStatusPushed;

export const omisePromptPayMachine = setup({
  types: {
    context: {} as OmisePromptPayContext,
    events: {} as OmisePromptPayEvent,
    input: {} as PaymentInput,
    output: {} as PaymentOutput,
  },
  actors: {
    createOmisePromptPay: fromPromise<OmisePromptPayResponse, OmiseChargeRequest>(async () => {
      throw new Error('createOmisePromptPay is provided by the app');
    }),
    getOrder: fromPromise<OrderRead, OrderIdBody>(async () => {
      throw new Error('getOrder is provided by the app');
    }),
    watchOrderStatus: fromCallback<{ type: 'never' }, OrderIdBody>(() => () => {}),
  },
  guards: {
    approved: (_, order: OrderRead) => isApproved(order.data),
    rejected: (_, order: OrderRead) => isRejected(order.data),
    pushedApproved: ({ context, event }) =>
      event.type === 'order.statusChanged' && event.orderId === context.order.orderId && event.payment_status === 'approved',
    pushedRejected: ({ context, event }) =>
      event.type === 'order.statusChanged' && event.orderId === context.order.orderId && event.payment_status === 'rejected',
  },
  actions: {
    ...effectDefaults,
    showQr: assign((_, answer: OmisePromptPayResponse) => ({ qrImageUrl: answer.QrcodeUrl.image.download_uri, expiresAt: answer.expires_at })),
    clearQr: assign({ qrImageUrl: null }),
  },
  delays: {
    pollInterval: 6000,
    /** Until the QR's expires_at (at least one poll). */
    qrExpiry: ({ context }) => Math.max(6000, Date.parse(context.expiresAt ?? '') - Date.now() || 0),
  },
}).createMachine({
  id: 'omisePromptPay',
  context: ({ input }) => ({ order: input.order, qrImageUrl: null, expiresAt: null }),
  initial: 'creatingQr',
  states: {
    creatingQr: {
      invoke: {
        id: 'createOmisePromptPay',
        src: 'createOmisePromptPay',
        input: ({ context }) => ({
          orderId: context.order.orderId,
          email: context.order.email,
          name: context.order.name,
          total_amount: context.order.amount,
        }),
        onDone: { target: 'awaitingScan', actions: { type: 'showQr', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    /** The QR is shown: the realtime push and the 6-second poll run side by side until approved or rejected. */
    awaitingScan: {
      type: 'parallel',
      entry: 'persistSnapshot',
      after: { qrExpiry: 'expired' },
      on: {
        'order.statusChanged': [
          { guard: 'pushedApproved', target: 'paid' },
          { guard: 'pushedRejected', target: 'rejected' },
        ],
      },
      states: {
        push: {
          initial: 'listening',
          states: {
            listening: {
              invoke: {
                id: 'watchOrderStatus',
                src: 'watchOrderStatus',
                input: ({ context }) => ({ orderId: context.order.orderId }),
                // Without pushes the poll still finds the payment.
                onError: { target: 'unavailable' },
              },
            },
            unavailable: {},
          },
        },
        poll: {
          initial: 'waiting',
          on: { 'payment.resume': '.checking' },
          states: {
            waiting: {
              after: { pollInterval: 'checking' },
            },
            checking: {
              invoke: {
                id: 'getOrder',
                src: 'getOrder',
                input: ({ context }) => ({ orderId: context.order.orderId }),
                onDone: [
                  { guard: { type: 'approved', params: ({ event }) => event.output }, target: '#omisePromptPay.paid' },
                  { guard: { type: 'rejected', params: ({ event }) => event.output }, target: '#omisePromptPay.rejected' },
                  { target: 'waiting' },
                ],
                onError: { target: 'waiting' },
              },
            },
          },
        },
      },
    },
    expired: {
      entry: 'clearQr',
      on: { 'payment.retry': 'creatingQr' },
    },
    failed: {
      entry: { type: 'notify', params: PAYMENT_FAILED_NOTICE },
      on: { 'payment.retry': 'creatingQr' },
    },
    paid: { type: 'final', output: { result: 'paid' } },
    rejected: { type: 'final', output: { result: 'toOrders' } },
  },
  output: ({ event }) => (event as unknown as { output: PaymentOutput }).output,
});
