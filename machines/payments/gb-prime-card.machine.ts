/**
 * GB Prime Pay card (method 11), a member of the hosted-redirect family (hosted.family.ts): the
 * server starts the payment for the order's total and answers the page to go to
 * (data.invoice_url), with the return paths (thank-you page or order list on success, the order
 * list on failure). A failure or a rejected order shows the failure notice and the buyer stays
 * (spec section 4: "On payment failure the action flag resets and the user stays").
 */
import type { GbPrimeCardRequest, GbPrimeCardResponse } from '../shared/api';
import { ROUTES } from '../shared/effects';
import type { PaymentInput } from './payment';
import { hostedMachine } from './hosted.family';

export interface GbPrimeCardInput extends PaymentInput {
  /** Site setting is_thank_you_page: where a successful payment returns to. */
  thankYouPage: boolean;
}

export const gbPrimeCardMachine = hostedMachine({
  id: 'gbPrimeCard',
  context: (input: GbPrimeCardInput) => ({ thankYouPage: input.thankYouPage }),
  create: {
    state: 'startingPayment',
    src: 'createGbPrimeCardPayment',
    input: ({ order, thankYouPage }): GbPrimeCardRequest => ({
      orderId: order.orderId,
      total_amount: order.amount,
      email: order.email,
      name: order.name,
      success_url: thankYouPage ? ROUTES.thankYou(order.orderToken) : ROUTES.orders,
      failure_url: ROUTES.orders,
    }),
    accepted: (answer: GbPrimeCardResponse) => !!answer.data.invoice_url,
  },
  handOver: { by: 'navigate', url: (answer: GbPrimeCardResponse) => answer.data.invoice_url },
  cardEntry: false,
  waiting: 'awaitingReturn',
  rejected: 'failed',
  ends: 'staying',
});
