/**
 * GB Prime Pay PromptPay (method 12): the server creates the QR (base64 PNG), then, as for every
 * PromptPay (spec section 4), the order is read every 6 s until approved or rejected, and the
 * realtime push of the order's status ends the wait at once. The QR expires at its expires_at.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { GbPrimePromptPayRequest, GbPrimePromptPayResponse, OrderIdBody } from '../shared/api';
import { effectDefaults } from '../shared/effects';
import type { OrderStatusPushed } from './omise-promptpay.machine';
import { isApproved, isRejected, PAYMENT_FAILED_NOTICE, type OrderRead, type PaymentInput, type PaymentOrder, type PaymentOutput } from './payment';

export interface GbPrimePromptPayContext {
  order: PaymentOrder;
  /** Base64 PNG. */
  qrImage: string | null;
  referenceNo: string | null;
  expiresAt: string | null;
}

export type GbPrimePromptPayEvent = { type: 'payment.retry' } | { type: 'payment.resume' } | OrderStatusPushed;

export const gbPrimePromptPayMachine = setup({
  types: {
    context: {} as GbPrimePromptPayContext,
    events: {} as GbPrimePromptPayEvent,
    input: {} as PaymentInput,
    output: {} as PaymentOutput,
  },
  actors: {
    createGbPrimePromptPay: fromPromise<GbPrimePromptPayResponse, GbPrimePromptPayRequest>(async () => {
      throw new Error('createGbPrimePromptPay is provided by the app');
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
    showQr: assign((_, answer: GbPrimePromptPayResponse) => ({
      qrImage: answer.data.qrImage,
      referenceNo: answer.data.referenceNo,
      expiresAt: answer.data.expires_at,
    })),
    clearQr: assign({ qrImage: null }),
  },
  delays: {
    pollInterval: 6000,
    qrExpiry: ({ context }) => Math.max(6000, Date.parse(context.expiresAt ?? '') - Date.now() || 0),
  },
}).createMachine({
  id: 'gbPrimePromptPay',
  context: ({ input }) => ({ order: input.order, qrImage: null, referenceNo: null, expiresAt: null }),
  initial: 'creatingQr',
  states: {
    creatingQr: {
      invoke: {
        id: 'createGbPrimePromptPay',
        src: 'createGbPrimePromptPay',
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
                  { guard: { type: 'approved', params: ({ event }) => event.output }, target: '#gbPrimePromptPay.paid' },
                  { guard: { type: 'rejected', params: ({ event }) => event.output }, target: '#gbPrimePromptPay.rejected' },
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
