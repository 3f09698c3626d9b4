/**
 * The payment machines with the app's real actors and effects (machine.provide). The checkout
 * runs them as its children; the card-payment return page runs the 2C2P card machine itself. Each
 * is built when a payment first uses it (machines/shared/built-on-first-use.ts), not while the
 * course page loads the checkout's code.
 */
import { fromPromise } from 'xstate';
import { bankTransferMachine } from '../../machines/payments/bank-transfer.machine';
import { cardReturnMachine } from '../../machines/payments/card-return.machine';
import { gbPrimeCardMachine } from '../../machines/payments/gb-prime-card.machine';
import { gbPrimePromptPayMachine } from '../../machines/payments/gb-prime-promptpay.machine';
import { omiseCardMachine } from '../../machines/payments/omise-card.machine';
import { omisePromptPayMachine } from '../../machines/payments/omise-promptpay.machine';
import type { PAYMENT_MACHINES, PaymentActorId } from '../../machines/payments/methods';
import { paySolutionsMachine } from '../../machines/payments/pay-solutions.machine';
import { paypalMachine } from '../../machines/payments/paypal.machine';
import { scbQrMachine } from '../../machines/payments/scb-qr.machine';
import { twoC2pCardMachine, type TwoC2pCardAnswer } from '../../machines/payments/two-c2p-card.machine';
import { twoC2pLinkMachine } from '../../machines/payments/two-c2p-link.machine';
import type { TwoC2pCardRequest } from '../../machines/shared/api';
import { orderActors, paymentActors, realtimeActors, studentActors } from './actors';
import { api } from './client';
import { unwrap } from './errors';
import { effectActions } from './effects';
import { approvalWindow } from './paypal-window';
import { builtOnFirstUse } from '../../machines/shared/built-on-first-use';

const actions = effectActions;
const { getOrder, approveOrderPayment, deleteOrder } = orderActors;

/**
 * The contract answers the signed 2C2P form at the top level ({ success, action, method, fields });
 * the machine reads it under `data` (TwoC2pCardAnswer): adapted here until the machine follows the contract.
 */
const create2c2pCardRequest = fromPromise<TwoC2pCardAnswer, TwoC2pCardRequest>(async ({ input, signal }) => {
  const body = unwrap(await api.POST('/api/payment/2c2p/card/request', { body: input, signal }), 'create2c2pCardRequest');
  return { success: true, data: body };
});

export const bankTransferLogic = builtOnFirstUse(() =>
  bankTransferMachine.provide({
    actors: { uploadFile: studentActors.uploadFile, createPaymentReportPrivate: paymentActors.createPaymentReportPrivate, sendPaymentOrderEmail: paymentActors.sendPaymentOrderEmail },
    actions,
  }),
);
const paypalWindow = approvalWindow();
export const paypalLogic = builtOnFirstUse(() =>
  paypalMachine.provide({
    actors: { createPaypalOrder: paymentActors.createPaypalOrder, capturePaypalOrder: paymentActors.capturePaypalOrder, deleteOrder, ...paypalWindow.actors },
    actions: { ...actions, ...paypalWindow.actions },
  }),
);
export const twoC2pCardLogic = builtOnFirstUse(() => twoC2pCardMachine.provide({ actors: { create2c2pCardRequest, getOrder }, actions }));
/** The card-payment return page's flow: the 2C2P card machine above, and where the page goes at its end. */
export const cardReturnLogic = builtOnFirstUse(() => cardReturnMachine.provide({ actors: { twoC2pCard: twoC2pCardLogic }, actions }));
export const twoC2pLinkLogic = builtOnFirstUse(() => twoC2pLinkMachine.provide({ actors: { create2c2pPaymentLink: paymentActors.create2c2pPaymentLink, getOrder }, actions }));
export const scbQrLogic = builtOnFirstUse(() => scbQrMachine.provide({ actors: { createScbQrCode: paymentActors.createScbQrCode, getOrder, watchOrderStatus: realtimeActors.watchOrderStatus }, actions }));
export const omiseCardLogic = builtOnFirstUse(() =>
  omiseCardMachine.provide({
    actors: { getOmiseCardPublicKey: paymentActors.getOmiseCardPublicKey, chargeOmiseCard: paymentActors.chargeOmiseCard, approveOrderPayment, getOrder },
    actions,
  }),
);
export const omisePromptPayLogic = builtOnFirstUse(() =>
  omisePromptPayMachine.provide({
    actors: { createOmisePromptPay: paymentActors.createOmisePromptPay, getOrder, watchOrderStatus: realtimeActors.watchOrderStatus },
    actions,
  }),
);
export const gbPrimeCardLogic = builtOnFirstUse(() => gbPrimeCardMachine.provide({ actors: { createGbPrimeCardPayment: paymentActors.createGbPrimeCardPayment, getOrder }, actions }));
export const gbPrimePromptPayLogic = builtOnFirstUse(() =>
  gbPrimePromptPayMachine.provide({
    actors: { createGbPrimePromptPay: paymentActors.createGbPrimePromptPay, getOrder, watchOrderStatus: realtimeActors.watchOrderStatus },
    actions,
  }),
);
export const paySolutionsLogic = builtOnFirstUse(() => paySolutionsMachine.provide({ actors: { createPaySolutionsPayment: paymentActors.createPaySolutionsPayment, getOrder }, actions }));

/**
 * The payment machines with the app's real actors, by the invoke id of the registry
 * (machines/payments/methods.ts): the type fails when a registered method has no provided machine here.
 */
export const paymentMachineLogics = {
  bankTransfer: bankTransferLogic,
  paypal: paypalLogic,
  twoC2pCard: twoC2pCardLogic,
  scbQr: scbQrLogic,
  omiseCard: omiseCardLogic,
  omisePromptPay: omisePromptPayLogic,
  twoC2pLink: twoC2pLinkLogic,
  gbPrimeCard: gbPrimeCardLogic,
  gbPrimePromptPay: gbPrimePromptPayLogic,
  paySolutions: paySolutionsLogic,
} as const satisfies { [K in PaymentActorId]: (typeof PAYMENT_MACHINES)[K] };
