/**
 * Omise credit card (method 8), spec sections 4 and 8: the public key is read, the Omise form
 * tokenises the card in the browser (card.tokenized), the server charges the token:
 * - successful: the payment is approved by the second call (approveOrderPayment) -> paid;
 * - failed: the failure notice, then the order list after 0.5 s (redirectDelay);
 * - pending: 3-D Secure — the flow is persisted and the browser goes to authorize_uri; on return
 *   (`payment.resume` after the snapshot is restored) the order is read: approved -> paid,
 *   rejected -> failed, otherwise read again every 6 s.
 * A request error redirects after 0.5 s; closing the Omise form redirects at once.
 */
import { assign, setup } from 'xstate';
import { providedByApp } from '../shared/provided';
import { toOmiseAmount } from '../../domain/money';
import { failureReason, type PaymentFailureReason } from '../../domain/order-outcome';
import type {
  ApproveOrderPaymentRequest,
  OmiseCardChargeResponse,
  OmiseChargeRequest,
  OmisePublicKeyResponse,
  OrderIdBody,
  OrderTokenResponse,
} from '../shared/api';
import { effectDefaults, type Notice } from '../shared/effects';
import { orderReadGuards, PAYMENT_FAILED_NOTICE, type OrderRead, type PaymentOrder, finalStateOutput, paymentTypes } from './payment';
import { readOrderInvoke } from './return-states';
import { builtOnFirstUse } from '../shared/built-on-first-use';

export interface OmiseCardContext {
  order: PaymentOrder;
  publicKey: string | null;
  chargeId: string | null;
  authorizeUri: string | null;
  orderPaymentId: number | null;
  /** Why the last charge failed, from Omise's failure_code in the shop's words (never Omise's own text). */
  failureReason: PaymentFailureReason | null;
}

export type OmiseCardEvent =
  | { type: 'card.tokenized'; token: string }
  | { type: 'card.close' }
  | { type: 'payment.resume' }
  | { type: 'payment.abandon' };

function failureNotice(reason: PaymentFailureReason | null): Notice {
  return reason ? { ...PAYMENT_FAILED_NOTICE, reason } : PAYMENT_FAILED_NOTICE;
}

export const omiseCardMachine = builtOnFirstUse(() =>
  setup({
    types: paymentTypes<OmiseCardContext, OmiseCardEvent>(),
    actors: {
      getOmiseCardPublicKey: providedByApp<OmisePublicKeyResponse, void>('getOmiseCardPublicKey'),
      chargeOmiseCard: providedByApp<OmiseCardChargeResponse, OmiseChargeRequest>('chargeOmiseCard'),
      approveOrderPayment: providedByApp<OrderTokenResponse, ApproveOrderPaymentRequest>('approveOrderPayment'),
      getOrder: providedByApp<OrderRead, OrderIdBody>('getOrder'),
    },
    guards: {
      /** Successful, and the server recorded the payment: approve it (the spec's second call). */
      chargeRecorded: (_, charge: OmiseCardChargeResponse) => charge.status === 'successful' && typeof charge.orderPaymentId === 'number',
      /** Successful without a recorded payment: read the order to learn its status. */
      chargeSuccessful: (_, charge: OmiseCardChargeResponse) => charge.status === 'successful',
      chargePending: (_, charge: OmiseCardChargeResponse) => charge.status === 'pending' && !!charge.charges.authorize_uri,
      ...orderReadGuards,
    },
    actions: {
      ...effectDefaults,
      keepPublicKey: assign((_, answer: OmisePublicKeyResponse) => ({ publicKey: answer.publicKey })),
      keepCharge: assign((_, charge: OmiseCardChargeResponse) => ({
        chargeId: charge.charges.id,
        authorizeUri: charge.charges.authorize_uri ?? null,
        orderPaymentId: charge.orderPaymentId ?? null,
        failureReason: charge.status === 'failed' ? failureReason('omise', 'failed', charge.charges.failure_code ?? null) : null,
      })),
    },
    delays: {
      redirectDelay: 500,
      pollInterval: 6000,
    },
  }).createMachine({
    id: 'omiseCard',
    context: ({ input }) => ({
      order: input.order,
      publicKey: null,
      chargeId: null,
      authorizeUri: null,
      orderPaymentId: null,
      failureReason: null,
    }),
    initial: 'loadingPublicKey',
    states: {
      loadingPublicKey: {
        invoke: {
          id: 'getOmiseCardPublicKey',
          src: 'getOmiseCardPublicKey',
          onDone: { target: 'enteringCard', actions: { type: 'keepPublicKey', params: ({ event }) => event.output } },
          onError: { target: 'requestFailed' },
        },
      },
      enteringCard: {
        on: {
          'card.tokenized': { target: 'charging' },
          'card.close': { target: 'closed' },
        },
      },
      charging: {
        invoke: {
          id: 'chargeOmiseCard',
          src: 'chargeOmiseCard',
          input: ({ context, event }) => ({
            orderId: context.order.orderId,
            publicKeyOmise: context.publicKey ?? undefined,
            omise_token: event.type === 'card.tokenized' ? event.token : undefined,
            email: context.order.email,
            name: context.order.name,
            total_amount: toOmiseAmount(context.order.amount),
          }),
          onDone: [
            { guard: { type: 'chargeRecorded', params: ({ event }) => event.output }, target: 'approvingPayment', actions: { type: 'keepCharge', params: ({ event }) => event.output } },
            { guard: { type: 'chargeSuccessful', params: ({ event }) => event.output }, target: 'reconciling', actions: { type: 'keepCharge', params: ({ event }) => event.output } },
            { guard: { type: 'chargePending', params: ({ event }) => event.output }, target: 'awaitingAuthorization', actions: { type: 'keepCharge', params: ({ event }) => event.output } },
            { target: 'chargeFailed', actions: { type: 'keepCharge', params: ({ event }) => event.output } },
          ],
          onError: { target: 'requestFailed' },
        },
      },
      approvingPayment: {
        invoke: {
          id: 'approveOrderPayment',
          src: 'approveOrderPayment',
          input: ({ context }) => ({
            order_payment_id: context.orderPaymentId ?? 0,
            order_id: context.order.orderId,
            approve_by: context.order.email,
            payment_method_id: context.order.methodId,
          }),
          onDone: { target: 'paid' },
          onError: { target: 'reconciling' },
        },
      },
      awaitingAuthorization: {
        entry: ['persistSnapshot', { type: 'navigate', params: ({ context }) => ({ to: context.authorizeUri ?? '', external: true }) }],
        on: { 'payment.resume': 'reconciling' },
      },
      reconciling: {
        invoke: readOrderInvoke({ approved: 'paid', rejected: 'chargeFailed', otherwise: 'awaitingConfirmation', error: 'awaitingConfirmation' }),
      },
      awaitingConfirmation: {
        after: { pollInterval: 'reconciling' },
        on: { 'payment.abandon': 'closed' },
      },
      chargeFailed: {
        entry: { type: 'notify', params: ({ context }) => failureNotice(context.failureReason) },
        after: { redirectDelay: 'failedRedirect' },
      },
      requestFailed: {
        after: { redirectDelay: 'failedRedirect' },
      },
      paid: { type: 'final', output: { result: 'paid' } },
      failedRedirect: { type: 'final', output: { result: 'toOrders' } },
      closed: { type: 'final', output: { result: 'toOrders' } },
    },
    output: finalStateOutput,
  }),
);
