/**
 * PaySolutions (method 13), spec section 7, a member of the hosted-redirect family
 * (hosted.family.ts): createPaySolutionsPayment answers the merchant id, the course ids and the
 * hosted form; the order is read (its e-mail and status: an order already paid is not paid twice);
 * the flow is persisted and the hidden form is auto-submitted to the provider with customeremail,
 * productdetail, refno, merchantid, cc '00', total, lang 'TH' (plus the return and postback URLs
 * the server adds). A failure shows the failure notice and the buyer stays.
 */
import type { PaySolutionsRequest, PaySolutionsResponse } from '../shared/api';
import type { FormPost } from '../shared/effects';
import type { OrderRead } from './payment';
import { hostedMachine } from './hosted.family';

/** The hosted form: the server's fields, with the buyer's e-mail from the order read back. */
export function paySolutionsForm(answer: PaySolutionsResponse, order: OrderRead): FormPost {
  const f = answer.data.fields;
  return {
    action: answer.data.action,
    fields: {
      customeremail: order.data.email || f.customeremail,
      productdetail: f.productdetail,
      refno: f.refno,
      merchantid: f.merchantid || answer.data.application_id_1,
      cc: '00',
      total: f.total,
      lang: f.lang,
      returnurl: f.returnurl,
      postbackurl: f.postbackurl,
    },
  };
}

export const paySolutionsMachine = hostedMachine({
  id: 'paySolutions',
  /** The server's answer (merchant id, course ids and the hosted form), kept for the read of the order. */
  context: () => ({ answer: null as PaySolutionsResponse | null }),
  create: {
    state: 'preparingForm',
    src: 'createPaySolutionsPayment',
    input: ({ order }): PaySolutionsRequest => ({ order_id: order.orderId }),
  },
  handOver: { by: 'readOrderThenPost', form: paySolutionsForm },
  cardEntry: false,
  waiting: 'awaitingReturn',
  rejected: 'leftForOrders',
  ends: 'staying',
});
