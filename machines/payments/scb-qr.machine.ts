/**
 * SCB QR code (method 4), spec section 4 "Bank QR": initial, success (QR shown with a countdown
 * from its expiry, csExtExpiryTime minutes), failure (Try again). The countdown's end clears the
 * QR image. 'Done' (or a return to the page) reads the order: approved -> paid, rejected -> the
 * order list, otherwise the order list too (not the thank-you page: SCB's confirmation may still
 * come; the order list shows the order waiting for payment).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { OrderIdBody, ScbQrCodeResponse } from '../shared/api';
import { effectDefaults } from '../shared/effects';
import { readOrderInvoke } from './return-states';
import { isApproved, isRejected, PAYMENT_FAILED_NOTICE, type OrderRead, type PaymentInput, type PaymentOrder, type PaymentOutput, finalStateOutput } from './payment';

export interface ScbQrContext {
  order: PaymentOrder;
  qrImage: string | null;
  /** Seconds until the QR expires (counted down by qrTick). */
  secondsLeft: number;
}

export type ScbQrEvent =
  | { type: 'qr.done' }
  | { type: 'payment.retry' }
  | { type: 'payment.resume' };

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
  },
  guards: {
    qrCreated: (_, answer: ScbQrCodeResponse) => answer.status.code === 1000 && answer.data.qrImage.length > 0,
    timeLeft: ({ context }) => context.secondsLeft > 1,
    approved: (_, order: OrderRead) => isApproved(order.data),
    rejected: (_, order: OrderRead) => isRejected(order.data),
  },
  actions: {
    ...effectDefaults,
    showQr: assign((_, answer: ScbQrCodeResponse) => ({
      qrImage: answer.data.qrImage,
      secondsLeft: Math.max(1, answer.data.csExtExpiryTime) * 60,
    })),
    countDown: assign({ secondsLeft: ({ context }) => Math.max(0, context.secondsLeft - 1) }),
    clearQr: assign({ qrImage: null, secondsLeft: 0 }),
  },
  delays: {
    qrTick: 1000,
  },
}).createMachine({
  id: 'scbQr',
  context: ({ input }) => ({ order: input.order, qrImage: null, secondsLeft: 0 }),
  initial: 'creatingQr',
  states: {
    creatingQr: {
      invoke: {
        id: 'createScbQrCode',
        src: 'createScbQrCode',
        input: ({ context }) => ({ orderId: context.order.orderId }),
        onDone: [
          { guard: { type: 'qrCreated', params: ({ event }) => event.output }, target: 'showingQr', actions: { type: 'showQr', params: ({ event }) => event.output } },
          { target: 'failed' },
        ],
        onError: { target: 'failed' },
      },
    },
    showingQr: {
      entry: 'persistSnapshot',
      after: {
        qrTick: [{ guard: 'timeLeft', target: 'showingQr', reenter: true, actions: 'countDown' }, { target: 'expired' }],
      },
      on: {
        'qr.done': 'checkingPayment',
        'payment.resume': 'checkingPayment',
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
    // 'Done' before the bank confirmed (issue 9): no thank-you page; the order list shows the order
    // waiting for payment (SCB's confirmation may still come) with Pay / Cancel.
    pending: { type: 'final', output: { result: 'toOrders' } },
    rejected: { type: 'final', output: { result: 'toOrders' } },
  },
  output: finalStateOutput,
});
