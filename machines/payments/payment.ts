/** What every payment-method machine takes and gives. */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import type { Currency } from '../../domain/money';
import { MSG } from '../../domain/messages';
import { freeOrderApproval } from '../../domain/plans';
import type { Id, Order, PaymentMethodId, PaymentReportPublic } from '../shared/api';
import type { Notice } from '../shared/effects';
import { thaiLocalNow } from '../shared/time';

/** The created order a payment machine pays (from createOrder's answer and the buyer). */
export interface PaymentOrder {
  orderId: Id;
  orderToken: string;
  /** Payable total in minor units (price − discount + shipping_fee − withholding_price). */
  amount: number;
  currency: Currency;
  methodId: PaymentMethodId;
  email: string;
  name: string;
  tel: string | null;
}

export interface PaymentInput {
  order: PaymentOrder;
}

/**
 * How a payment ended, for the checkout:
 * - paid: confirmed -> cart cleared, thank-you page or order list;
 * - pending: handed over, not confirmed yet (bank-transfer notice or later, QR 'Done' before the
 *   confirmation) -> same as paid, the order list shows its status;
 * - failed: the buyer stays on the page and may try again (the action flag resets);
 * - toOrders: go to the order list now (2C2P failures, Omise failures, rejected PromptPay, a PayPal modal the buyer closed).
 */
export type PaymentResult = 'paid' | 'pending' | 'failed' | 'toOrders';

export interface PaymentOutput {
  result: PaymentResult;
  /** PayPal deletes the order after a failed payment: the next try needs a new order. */
  orderDeleted?: boolean;
}

/**
 * The report that records a free order (spec 6: a total of 0 is recorded by a payment report,
 * AutoFree or NeedApprovedFree, at the Thai local time), filed by the checkout after its order and
 * by pay again for a free order left unrecorded. The server decides the label and the approval from
 * the order's own plans and never from this report (server/payments/handlers/reports.ts); `approval`
 * is what the page can tell from the plans it holds (the checkout's cart; pay again holds none and
 * says AutoFree). The order's token lets the report through for a buyer without the owner's session.
 */
export function freeOrderReport(
  order: { id: Id; token: string },
  buyer: { name: string; email: string },
  approval: ReturnType<typeof freeOrderApproval> = freeOrderApproval([]),
  now: Date = new Date(),
): PaymentReportPublic {
  const local = thaiLocalNow(now);
  return {
    order_id: order.id,
    order_token: order.token,
    // contact_name is required (minLength 1): a buyer without a name on file is named by the e-mail.
    contact_name: buyer.name || buyer.email,
    email: buyer.email,
    transfer_datetime: local.date,
    time: local.time,
    transfer_amount: 0,
    description: approval.description,
    payment: approval.payment,
  };
}

export const PAYMENT_FAILED_NOTICE: Notice = {
  kind: 'error',
  topic: 'fail',
  title: MSG.PAYMENT_FAILED_TITLE,
  message: MSG.PAYMENT_FAILED,
};

export function isApproved(order: Pick<Order, 'payment_status'>): boolean {
  return order.payment_status === 'approved';
}

/**
 * The attempt is over without paying: the order was rejected, or the server says its
 * latest attempt failed, was cancelled or expired (`outcome.state` 'failed') — a dead QR or a
 * declined card stops waiting and shows the failure, and the order can be paid again.
 */
export function isRejected(order: Pick<Order, 'payment_status' | 'outcome'>): boolean {
  return order.payment_status === 'rejected' || order.outcome?.state === 'failed';
}

/** The order as read back from getOrder, to check the payment. */
export interface OrderRead {
  success: true;
  data: Order;
}

/** The machine's output is its final state's output (every payment machine ends in a final state with one). */
export const finalStateOutput = ({ event }: { event: unknown }): PaymentOutput => (event as { output: PaymentOutput }).output;

/**
 * Every output a payment machine can end with: the outputs its final states declare (the machine's
 * own output is `finalStateOutput`, the final state's), each once. The flows that invoke it take
 * only the ends it has (methods.ts `PAYMENT_RESULTS`), and the models answer for it with exactly
 * these (tests/machines/models): a branch for an output the machine never gives would be a
 * transition nothing can take, in the drawing and in the model's walks. A final state without an
 * output object of its own is refused here, at load.
 */
export function finalOutputs(machine: AnyStateMachine): PaymentOutput[] {
  const seen = new Map<string, PaymentOutput>();
  const visit = (node: AnyStateNode) => {
    if (node.type === 'final') {
      const output = (node.config as { output?: unknown }).output;
      if (!output || typeof output !== 'object' || typeof (output as PaymentOutput).result !== 'string') {
        throw new Error(`${machine.id}: final state ${node.id} gives no PaymentOutput object`);
      }
      seen.set(JSON.stringify(output), output as PaymentOutput);
    }
    for (const child of Object.values(node.states)) visit(child);
  };
  visit(machine.root);
  return [...seen.values()];
}

/** The guards on an order read back (getOrder's answer as params), for every machine that reads it. */
export const orderReadGuards = {
  approved: (_: unknown, order: OrderRead) => isApproved(order.data),
  rejected: (_: unknown, order: OrderRead) => isRejected(order.data),
};

/**
 * The ends of a flow that sends the buyer to the provider's page (hosted-redirect family): the
 * failure notice, then the order list (`toOrders`: the 2C2P variants, spec section 4) or the page
 * (`staying`: `notPaid`, the buyer may try again); `paid` and `leftForOrders` in both.
 */
export const HOSTED_ENDS = {
  toOrders: {
    failed: { entry: { type: 'notify', params: PAYMENT_FAILED_NOTICE }, always: 'leftForOrders' },
    paid: { type: 'final', output: { result: 'paid' } },
    leftForOrders: { type: 'final', output: { result: 'toOrders' } },
  },
  staying: {
    failed: { entry: { type: 'notify', params: PAYMENT_FAILED_NOTICE }, always: 'notPaid' },
    paid: { type: 'final', output: { result: 'paid' } },
    notPaid: { type: 'final', output: { result: 'failed' } },
    leftForOrders: { type: 'final', output: { result: 'toOrders' } },
  },
} as const;

/** The `types` of a payment machine's setup(): its context and events, its input (PaymentInput or more), PaymentOutput. */
export function paymentTypes<TContext extends object, TEvent extends { type: string }, TInput extends PaymentInput = PaymentInput>() {
  return { context: {} as TContext, events: {} as TEvent, input: {} as TInput, output: {} as PaymentOutput };
}
