/**
 * 2C2P card gateway form (method 3), a member of the hosted-redirect family (hosted.family.ts)
 * with a card entry first: the card form (number, MM, YYYY, CVV) is encrypted in the browser by
 * 2C2P's script (card.encrypted) — or the card-payment return page starts the flow with the
 * encrypted card from its query (input.card). The server builds and signs the gateway form
 * (create2c2pCardRequest: one `paymentRequest` field, 2C2P's signed 3DS API 9.9 envelope, computed
 * on the server); the flow is persisted and the form is auto-posted to the gateway (postForm). The
 * gateway's error callback shows an alert with its description and code. A failure goes to the
 * order list (spec section 4).
 */
import type { TwoC2pCardForm, TwoC2pCardRequest } from '../shared/api';
import type { PaymentInput } from './payment';
import { hostedMachine, type EncryptedCard } from './hosted.family';

export type { EncryptedCard } from './hosted.family';

export interface TwoC2pCardInput extends PaymentInput {
  card?: EncryptedCard | null;
}

export interface TwoC2pCardAnswer {
  success: true;
  data: TwoC2pCardForm;
}

export const twoC2pCardMachine = hostedMachine({
  id: 'twoC2pCard',
  context: (input: TwoC2pCardInput) => ({ card: input.card ?? null }),
  create: {
    state: 'signingForm',
    src: 'create2c2pCardRequest',
    input: ({ order, card }): TwoC2pCardRequest => ({ orderId: order.orderId, ...(card as EncryptedCard) }),
  },
  handOver: { by: 'postForm', form: (answer: TwoC2pCardAnswer) => ({ action: answer.data.action, fields: answer.data.fields }) },
  cardEntry: true,
  waiting: 'awaitingResult',
  rejected: 'failed',
  ends: 'toOrders',
});
