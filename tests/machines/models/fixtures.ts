import type { OrderPaymentStatus, PaymentMethodId } from '../../../machines/shared/api';
import { finalOutputs, type PaymentOrder } from '../../../machines/payments/payment';
import { PAYMENT_MACHINES, type PaymentActorId } from '../../../machines/payments/methods';
import { MSG } from '../../../domain/messages';

export function order(methodId: PaymentMethodId, amount = 150000): PaymentOrder {
  return { orderId: 501, orderToken: 'tok-501', amount, currency: 'THB', methodId, email: 'somchai@example.com', name: 'สมชาย ใจดี', tel: '0812345678' };
}

export function orderRead(payment_status: OrderPaymentStatus, methodId: PaymentMethodId = 4) {
  return {
    success: true as const,
    data: {
      id: 501,
      price: 150000,
      discount: 0,
      shipping_fee: 0,
      withholding_price: 0,
      total_amount: 150000,
      email: 'somchai@example.com',
      tel: '0812345678',
      order_token: 'tok-501',
      payment_status,
      currency_code: 'THB' as const,
      payment_method_id: methodId,
    },
  };
}

/** The failure notice of spec section 8 "Payment". */
export const FAIL_NOTICE = { type: 'notify', params: { kind: 'error', topic: 'fail', title: MSG.PAYMENT_FAILED_TITLE, message: MSG.PAYMENT_FAILED } };

export const student = {
  id: 42,
  role: 'student' as const,
  role_id: 1,
  firstname: 'สมชาย',
  lastname: 'ใจดี',
  email: 'somchai@example.com',
  username: 'somchai',
  is_non_member: false,
  user_group_id: null,
};

/**
 * What a QR machine hears from its realtime watch: its order paid, rejected, awaiting approval,
 * another order paid, and the connection back after a drop (a push sent meanwhile is lost).
 */
export const ORDER_STATUS_PUSHES = [
  { type: 'order.statusChanged', orderId: 501, payment_status: 'approved' },
  { type: 'order.statusChanged', orderId: 501, payment_status: 'rejected' },
  { type: 'order.statusChanged', orderId: 501, payment_status: 'pendingApproved' },
  { type: 'order.statusChanged', orderId: 999, payment_status: 'approved' },
  { type: 'order.pushesResumed' },
] as const;

/**
 * What a flow's model answers for a payment machine it invokes: each output the real machine can end
 * with (its final states', payment.ts `finalOutputs`), and a crash. Not an output the machine never
 * gives: the flow has no transition for it, and a walk with it would prove nothing about the app.
 */
export function paymentOutcomes(id: string): { done: unknown[]; error: unknown[] } {
  const machine = (PAYMENT_MACHINES as Record<string, (typeof PAYMENT_MACHINES)[PaymentActorId] | undefined>)[id];
  if (!machine) throw new Error(`no payment machine ${id}`);
  return { done: finalOutputs(machine), error: [new Error('payment machine crashed')] };
}
