/**
 * The card-payment return page's flow: 2C2P's card page sends the buyer back to
 * /cardpayment/<order id> with the card it encrypted in the query; the page starts this machine
 * with the order and that card. It runs the 2C2P card machine (method 3, `twoC2pCard`: it signs the
 * gateway form on our server and posts it) and, being that machine's only parent here, takes its
 * end where the checkout and pay again take it: paid -> the thank-you page, anything else (the form
 * could not be signed: the failure is told) -> the order list, where the order can be paid again.
 * The page left is not kept in the history: going back to it would sign the form again.
 */
import { setup } from 'xstate';
import { effectDefaults, ROUTES } from '../shared/effects';
import { finalStateOutput, type PaymentOutput } from './payment';
import { twoC2pCardMachine, type EncryptedCard, type TwoC2pCardInput } from './two-c2p-card.machine';

export interface CardReturnInput extends TwoC2pCardInput {
  card: EncryptedCard;
}

export interface CardReturnContext {
  order: CardReturnInput['order'];
  card: EncryptedCard;
}

const outputOf = ({ event }: { event: { output: unknown } }) => event.output as PaymentOutput | undefined;

export const cardReturnMachine = setup({
  types: { context: {} as CardReturnContext, input: {} as CardReturnInput, output: {} as PaymentOutput },
  actors: { twoC2pCard: twoC2pCardMachine },
  guards: {
    paid: (_, output: PaymentOutput | undefined) => output?.result === 'paid',
  },
  actions: { ...effectDefaults },
}).createMachine({
  id: 'cardReturn',
  context: ({ input }) => ({ order: input.order, card: input.card }),
  initial: 'paying',
  states: {
    /** The 2C2P card machine signs and posts the gateway form (the buyer usually leaves the page here). */
    paying: {
      invoke: {
        id: 'twoC2pCard',
        src: 'twoC2pCard',
        input: ({ context }) => ({ order: context.order, card: context.card }),
        onDone: [
          {
            guard: { type: 'paid', params: outputOf },
            target: 'paid',
            actions: { type: 'navigate', params: ({ context }) => ({ to: ROUTES.thankYou(context.order.orderToken), external: false, replace: true }) },
          },
          { target: 'leftForOrders', actions: { type: 'navigate', params: { to: ROUTES.orders, external: false, replace: true } } },
        ],
        onError: { target: 'leftForOrders', actions: { type: 'navigate', params: { to: ROUTES.orders, external: false, replace: true } } },
      },
    },
    paid: { type: 'final', output: { result: 'paid' } },
    leftForOrders: { type: 'final', output: { result: 'toOrders' } },
  },
  output: finalStateOutput,
});
