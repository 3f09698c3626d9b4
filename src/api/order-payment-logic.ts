/**
 * The pay-again flow (machines/payments/order-payment.machine.ts) with the app's real actors: the
 * order, its allowed methods, the cancel call, the free order's report and the same ten payment
 * machines as the checkout.
 */
import type { AnyActorLogic } from 'xstate';
import { orderPaymentMachine } from '../../machines/payments/order-payment.machine';
import { orderActors, paymentActors } from './actors';
import { effectActions } from './effects';
import { paymentMachineLogics } from './payment-logic';

export const orderPaymentLogic = orderPaymentMachine.provide({
  actors: {
    getOrder: orderActors.getOrder,
    getPaymentMethodsForOrder: paymentActors.getPaymentMethodsForOrder,
    deleteOrder: orderActors.deleteOrder,
    createPaymentReportPublic: paymentActors.createPaymentReportPublic,
    ...paymentMachineLogics,
  } satisfies Record<string, AnyActorLogic>,
  actions: effectActions,
});

export type OrderPaymentLogic = typeof orderPaymentLogic;
