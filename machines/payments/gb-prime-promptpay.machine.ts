/**
 * GB Prime Pay PromptPay (method 12): the server creates the QR (base64 PNG), then, as for every
 * PromptPay (spec section 4), the order is read every 6 s until approved or rejected, and the
 * realtime push of the order's status ends the wait at once. The QR expires at its expires_at.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { GbPrimePromptPayRequest, GbPrimePromptPayResponse, OrderIdBody } from '../shared/api';
import { effectDefaults } from '../shared/effects';
import { PAYMENT_FAILED_NOTICE, type OrderRead, type PaymentInput, type PaymentOrder, type PaymentOutput, finalStateOutput } from './payment';
import { awaitingScanState, promptPayGuards, qrExpiry, type OrderStatusPushed } from './promptpay-shared';

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
  guards: promptPayGuards,
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
    qrExpiry,
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
    awaitingScan: awaitingScanState('gbPrimePromptPay'),
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
  output: finalStateOutput,
});
