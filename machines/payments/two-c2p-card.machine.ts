/**
 * 2C2P card gateway form (method 3). The card form (number, MM, YYYY, CVV) is encrypted in the
 * browser by 2C2P's script (card.encrypted) — or the card-payment return page starts the flow with
 * the encrypted card from its query (input.card). The server builds and signs the gateway form
 * (create2c2pCardRequest: one `paymentRequest` field, 2C2P's signed 3DS API 9.9 envelope, computed
 * on the server); the flow is
 * persisted and the form is auto-posted to the gateway (postForm). On return (`payment.resume`)
 * the order is read. The gateway's error callback shows an alert with its description and code.
 * A failure goes to the order list (spec section 4).
 */
import { assign, setup } from 'xstate';
import { providedByApp } from '../shared/provided';
import type { OrderIdBody, TwoC2pCardForm, TwoC2pCardRequest } from '../shared/api';
import { effectDefaults } from '../shared/effects';
import { HOSTED_ENDS, orderReadGuards, PAYMENT_FAILED_NOTICE, type OrderRead, type PaymentInput, type PaymentOrder, finalStateOutput, paymentTypes } from './payment';
import { returnStates, type ReturnCheck } from './return-states';

/** The card as 2C2P's script encrypted it (the return page's query). */
export type EncryptedCard = Omit<TwoC2pCardRequest, 'orderId'>;

export interface TwoC2pCardInput extends PaymentInput {
  card?: EncryptedCard | null;
}

export interface TwoC2pCardContext {
  order: PaymentOrder;
  card: EncryptedCard | null;
  /** What the read on return found (the browser's back button from the gateway): see return-states.ts. */
  returned: ReturnCheck;
}

export type TwoC2pCardEvent =
  | { type: 'card.encrypted'; card: EncryptedCard }
  | { type: 'card.gatewayError'; code: string; description: string }
  | { type: 'payment.resume' }
  | { type: 'payment.abandon' };

export interface TwoC2pCardAnswer {
  success: true;
  data: TwoC2pCardForm;
}

export const twoC2pCardMachine = setup({
  types: paymentTypes<TwoC2pCardContext, TwoC2pCardEvent, TwoC2pCardInput>(),
  actors: {
    create2c2pCardRequest: providedByApp<TwoC2pCardAnswer, TwoC2pCardRequest>('create2c2pCardRequest'),
    getOrder: providedByApp<OrderRead, OrderIdBody>('getOrder'),
  },
  guards: {
    hasEncryptedCard: ({ context }) => context.card !== null,
    ...orderReadGuards,
  },
  actions: {
    ...effectDefaults,
    noteReturn: assign((_, returned: ReturnCheck) => ({ returned })),
    keepCard: assign((_, card: EncryptedCard) => ({ card })),
    /** The card data is not kept once the signed form left (it is not persisted). */
    forgetCard: assign({ card: null }),
  },
}).createMachine({
  id: 'twoC2pCard',
  context: ({ input }) => ({ order: input.order, card: input.card ?? null, returned: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasEncryptedCard', target: 'signingForm' }, { target: 'enteringCard' }],
    },
    enteringCard: {
      on: {
        'card.encrypted': { target: 'signingForm', actions: { type: 'keepCard', params: ({ event }) => event.card } },
        'card.gatewayError': {
          actions: {
            type: 'notify',
            params: ({ event }) => ({ kind: 'error', topic: 'fail', title: PAYMENT_FAILED_NOTICE.title, message: `${event.description} (${event.code})` }),
          },
        },
      },
    },
    signingForm: {
      invoke: {
        id: 'create2c2pCardRequest',
        src: 'create2c2pCardRequest',
        input: ({ context }) => ({ orderId: context.order.orderId, ...(context.card as EncryptedCard) }),
        onDone: {
          target: 'awaitingResult',
          actions: [
            'forgetCard',
            'persistSnapshot',
            { type: 'postForm', params: ({ event }) => ({ action: event.output.data.action, fields: event.output.data.fields }) },
          ],
        },
        onError: { target: 'failed', actions: 'forgetCard' },
      },
    },
    ...returnStates('awaitingResult', 'failed'),
    ...HOSTED_ENDS.toOrders,
  },
  output: finalStateOutput,
});
