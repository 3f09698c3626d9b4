/**
 * SCB QR code (method 4), spec section 4 "Bank QR": initial, success (QR shown until its expiry,
 * the server's expires_at — csExtExpiryTime minutes), failure (Try again). The expiry clears the
 * QR image. While the QR is shown the page moves on by itself as the PromptPay flows do: the
 * realtime push of the order's status and a 6-second poll run side by side (awaitingScanState).
 * 'Done' reads the order: approved -> paid, rejected -> the order list, otherwise the order list
 * too (not the thank-you page: SCB's confirmation may still come; the list shows the order
 * waiting for payment). A refresh restores the QR (persisted on entry) and reads the order at once.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { OrderIdBody, ScbQrCodeResponse } from '../shared/api';
import { effectDefaults } from '../shared/effects';
import { readOrderInvoke } from './return-states';
import { PAYMENT_FAILED_NOTICE, type OrderRead, type PaymentInput, type PaymentOrder, type PaymentOutput, finalStateOutput } from './payment';
import { awaitingScanState, promptPayGuards, qrExpiry, type OrderStatusPushed } from './promptpay-shared';

export interface ScbQrContext {
  order: PaymentOrder;
  qrImage: string | null;
  /** ISO time the QR expires (the server's clock); the modal counts down to it on the wall clock. */
  expiresAt: string | null;
}

export type ScbQrEvent = { type: 'qr.done' } | { type: 'payment.retry' } | { type: 'payment.resume' } | OrderStatusPushed;

export const scbQrMachine = setup({
  types: {
    context: {} as ScbQrContext,
    events: {} as ScbQrEvent,
    input: {} as PaymentInput,
    output: {} as PaymentOutput,
  },
  actors: {
    createScbQrCode: fromPromise<ScbQrCodeResponse, OrderIdBody>(async () => {
      throw new Error('createScbQrCode is provided by the app');
    }),
    getOrder: fromPromise<OrderRead, OrderIdBody>(async () => {
      throw new Error('getOrder is provided by the app');
    }),
    watchOrderStatus: fromCallback<{ type: 'never' }, OrderIdBody>(() => () => {}),
  },
  guards: {
    ...promptPayGuards,
    qrCreated: (_, answer: ScbQrCodeResponse) => answer.status.code === 1000 && answer.data.qrImage.length > 0,
  },
  actions: {
    ...effectDefaults,
    showQr: assign((_, answer: ScbQrCodeResponse) => ({ qrImage: answer.data.qrImage, expiresAt: answer.data.expires_at })),
    clearQr: assign({ qrImage: null }),
  },
  delays: {
    pollInterval: 6000,
    qrExpiry,
  },
}).createMachine({
  id: 'scbQr',
  context: ({ input }) => ({ order: input.order, qrImage: null, expiresAt: null }),
  initial: 'creatingQr',
  states: {
    creatingQr: {
      invoke: {
        id: 'createScbQrCode',
        src: 'createScbQrCode',
        input: ({ context }) => ({ orderId: context.order.orderId }),
        onDone: [
          { guard: { type: 'qrCreated', params: ({ event }) => event.output }, target: 'awaitingScan', actions: { type: 'showQr', params: ({ event }) => event.output } },
          { target: 'failed' },
        ],
        onError: { target: 'failed' },
      },
    },
    awaitingScan: {
      ...awaitingScanState('scbQr'),
      on: {
        ...awaitingScanState('scbQr').on,
        'qr.done': 'checkingPayment',
      },
    },
    expired: {
      entry: 'clearQr',
      on: {
        'payment.retry': 'creatingQr',
        'qr.done': 'checkingPayment',
      },
    },
    failed: {
      entry: { type: 'notify', params: PAYMENT_FAILED_NOTICE },
      on: { 'payment.retry': 'creatingQr' },
    },
    checkingPayment: {
      invoke: readOrderInvoke({ approved: 'paid', rejected: 'rejected', otherwise: 'pending', error: 'pending' }),
    },
    paid: { type: 'final', output: { result: 'paid' } },
    // 'Done' before the bank confirmed: no thank-you page; the order list shows the order
    // waiting for payment (SCB's confirmation may still come) with Pay / Cancel.
    pending: { type: 'final', output: { result: 'toOrders' } },
    rejected: { type: 'final', output: { result: 'toOrders' } },
  },
  output: finalStateOutput,
});
