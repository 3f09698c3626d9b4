/**
 * The pay-again flow (machines/payments/order-payment.machine.ts) with the app's real actors: the
 * order, its allowed methods, the cancel call and the same ten payment machines as the checkout.
 */
import type { AnyActorLogic } from 'xstate';
import { orderPaymentMachine } from '../../machines/payments/order-payment.machine';
import { orderActors, paymentActors } from './actors';
import { effectActions } from './effects';
import {
  bankTransferLogic,
  gbPrimeCardLogic,
  gbPrimePromptPayLogic,
  omiseCardLogic,
  omisePromptPayLogic,
  paySolutionsLogic,
  paypalLogic,
  scbQrLogic,
  twoC2pCardLogic,
  twoC2pLinkLogic,
} from './payment-logic';

export const orderPaymentLogic = orderPaymentMachine.provide({
  actors: {
    getOrder: orderActors.getOrder,
    getPaymentMethodsForOrder: paymentActors.getPaymentMethodsForOrder,
    deleteOrder: orderActors.deleteOrder,
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
  } satisfies Record<string, AnyActorLogic>,
  actions: effectActions,
});

export type OrderPaymentLogic = typeof orderPaymentLogic;
