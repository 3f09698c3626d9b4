/**
 * Omise PromptPay (method 9), spec section 4 "PromptPay": once the QR is shown, the order is read
 * every 6 s (pollInterval) until approved or rejected; the realtime push of the order's status
 * (watchOrderStatus, a callback actor) ends the wait at once. The QR expires at its expires_at
 * (qrExpiry); a refresh restores the flow (persisted on entry) and `payment.resume` reads the order now.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { OmiseChargeRequest, OmisePromptPayResponse, OrderIdBody } from '../shared/api';
import { effectDefaults } from '../shared/effects';
import { PAYMENT_FAILED_NOTICE, type OrderRead, type PaymentInput, type PaymentOrder, type PaymentOutput, finalStateOutput } from './payment';
import { awaitingScanState, promptPayGuards, qrExpiry, type OrderStatusPushed } from './promptpay-shared';

export type { OrderStatusPushed } from './promptpay-shared';

export interface OmisePromptPayContext {
  order: PaymentOrder;
  qrImageUrl: string | null;
  /** ISO time the QR expires. */
  expiresAt: string | null;
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
  guards: promptPayGuards,
  actions: {
    ...effectDefaults,
    showQr: assign((_, answer: OmisePromptPayResponse) => ({ qrImageUrl: answer.QrcodeUrl.image.download_uri, expiresAt: answer.expires_at })),
    clearQr: assign({ qrImageUrl: null }),
  },
  delays: {
    pollInterval: 6000,
    qrExpiry,
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
    awaitingScan: awaitingScanState('omisePromptPay'),
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
