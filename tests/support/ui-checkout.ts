/**
 * The checkout with scripted actors at every leaf (no network), and the session likewise: the
 * real machines run, only their calls are scripted.
 */
import { fromCallback } from 'xstate';
import type { cartMachine } from '../../machines/cart/cart.machine';
import { checkoutMachine } from '../../machines/checkout/checkout.machine';
import { bankTransferMachine } from '../../machines/payments/bank-transfer.machine';
import { omiseCardMachine } from '../../machines/payments/omise-card.machine';
import { omisePromptPayMachine } from '../../machines/payments/omise-promptpay.machine';
import { registerAndLoginMachine } from '../../machines/registration/register-and-login.machine';
import { setPasswordMachine } from '../../machines/registration/set-password.machine';
import { sessionMachine } from '../../machines/session/session.machine';
import { taxGateMachine } from '../../machines/tax/tax-gate.machine';
import { effectActions } from '../../src/api/effects';
import { scripted, type Answer } from './ui-actors';

export function scriptedCheckout(answers: Record<string, Answer | Answer[]>) {
  const s = scripted(answers);
  const a = new Proxy({} as Record<string, never>, { get: (_, src: string) => s.actor(src) as never });
  const actions = { ...effectActions, log: () => {} };
  const cart = (checkoutMachine.implementations.actors.cart as typeof cartMachine).provide({ actors: { getCouponByCouponCode: a.getCouponByCouponCode }, actions: { notify: effectActions.notify } });
  const logic = checkoutMachine.provide({
    actors: {
      cart,
      registerAndLogin: registerAndLoginMachine.provide({ actors: { registerStudent: a.registerStudent, login: a.login, loginNonMember: a.loginNonMember }, actions }),
      setPassword: setPasswordMachine.provide({ actors: { setStudentPassword: a.setStudentPassword } }),
      taxGate: taxGateMachine.provide({ actors: { getStudentProfile: a.getStudentProfile, updateStudentTax: a.updateStudentTax, uploadFile: a.uploadFile }, actions }),
      createOrder: a.createOrder,
      createPaymentReportPublic: a.createPaymentReportPublic,
      clearCart: a.clearCart,
      bankTransfer: bankTransferMachine.provide({ actors: { uploadFile: a.uploadFile, createPaymentReportPrivate: a.createPaymentReportPrivate, sendPaymentOrderEmail: a.sendPaymentOrderEmail }, actions }),
      omiseCard: omiseCardMachine.provide({ actors: { getOmiseCardPublicKey: a.getOmiseCardPublicKey, chargeOmiseCard: a.chargeOmiseCard, approveOrderPayment: a.approveOrderPayment, getOrder: a.getOrder }, actions }),
      omisePromptPay: omisePromptPayMachine.provide({ actors: { createOmisePromptPay: a.createOmisePromptPay, getOrder: a.getOrder, watchOrderStatus: fromCallback(() => () => {}) }, actions }),
    },
    actions,
  });
  const session = sessionMachine.provide({ actors: { login: a.login, logout: a.logout, realtimeConnection: fromCallback(() => () => {}) }, actions: { notify: actions.notify } });
  return { logic, session, ...s };
}

export function createOrderAnswer(total: number, id = 501) {
  return {
    success: true,
    orderId: id,
    order_detail: { payment_status: 'notYetReceived', id, price: total, discount: 0, shipping_fee: 0, withholding_price: 0, total_amount: total, currency_code: 'THB', coupon_list_code: [], order_course_list: [], order_token: `tok-${id}` },
  };
}
