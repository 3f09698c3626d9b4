/**
 * 2C2P payment page (method 10, installments; also method 3 when the site uses the link instead
 * of the card form), a member of the hosted-redirect family (hosted.family.ts): the server asks
 * 2C2P for the web payment URL of the order's total and the browser goes there. A rejected order
 * and a failure go to the order list (spec section 4: "2c2p variants redirect to
 * /myaccount/student/order").
 */
import type { TwoC2pPaymentLinkRequest, TwoC2pPaymentLinkResponse } from '../shared/api';
import { hostedMachine } from './hosted.family';

export const twoC2pLinkMachine = hostedMachine({
  id: 'twoC2pLink',
  context: () => ({}),
  create: {
    state: 'creatingLink',
    src: 'create2c2pPaymentLink',
    input: ({ order }): TwoC2pPaymentLinkRequest => ({ orderId: order.orderId, amount: order.amount }),
    accepted: (answer: TwoC2pPaymentLinkResponse) => answer.success && !!answer.result.webPaymentUrl,
  },
  handOver: { by: 'navigate', url: (answer: TwoC2pPaymentLinkResponse) => answer.result.webPaymentUrl },
  cardEntry: false,
  waiting: 'awaitingReturn',
  rejected: 'leftForOrders',
  ends: 'toOrders',
});
