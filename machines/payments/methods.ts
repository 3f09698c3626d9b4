/**
 * The one map of payment method → payment machine (spec 9 ids). The checkout and the pay-again
 * flow (order-payment.machine.ts) both invoke the method's machine from here; the invoke id is the
 * key (`bankTransfer`, `paypal`, …), which is also the state the flow is in while it pays.
 */
import type { PaymentMethodId } from '../shared/api';
import { bankTransferMachine } from './bank-transfer.machine';
import { gbPrimeCardMachine } from './gb-prime-card.machine';
import { gbPrimePromptPayMachine } from './gb-prime-promptpay.machine';
import { omiseCardMachine } from './omise-card.machine';
import { omisePromptPayMachine } from './omise-promptpay.machine';
import { paySolutionsMachine } from './pay-solutions.machine';
import { paypalMachine } from './paypal.machine';
import { scbQrMachine } from './scb-qr.machine';
import { twoC2pCardMachine } from './two-c2p-card.machine';
import { twoC2pLinkMachine } from './two-c2p-link.machine';

/** The payment machines, by invoke id. */
export const PAYMENT_MACHINES = {
  bankTransfer: bankTransferMachine,
  paypal: paypalMachine,
  twoC2pCard: twoC2pCardMachine,
  scbQr: scbQrMachine,
  omiseCard: omiseCardMachine,
  omisePromptPay: omisePromptPayMachine,
  twoC2pLink: twoC2pLinkMachine,
  gbPrimeCard: gbPrimeCardMachine,
  gbPrimePromptPay: gbPrimePromptPayMachine,
  paySolutions: paySolutionsMachine,
} as const;

export type PaymentActorId = keyof typeof PAYMENT_MACHINES;

/** Method id → its machine's invoke id. */
export const METHOD_ACTORS: Readonly<Record<PaymentMethodId, PaymentActorId>> = {
  1: 'bankTransfer',
  2: 'paypal',
  3: 'twoC2pCard',
  4: 'scbQr',
  8: 'omiseCard',
  9: 'omisePromptPay',
  10: 'twoC2pLink',
  11: 'gbPrimeCard',
  12: 'gbPrimePromptPay',
  13: 'paySolutions',
};

export const PAYMENT_ACTOR_IDS = Object.values(METHOD_ACTORS);

/** The payment machine (invoke id) of a method (bank transfer for an unknown one). */
export function methodActor(methodId: number | undefined): PaymentActorId {
  return (METHOD_ACTORS as Record<number, PaymentActorId | undefined>)[methodId ?? 0] ?? 'bankTransfer';
}

/**
 * The `paying` states of a flow: one `routing` state that picks the method's machine, and one
 * state per machine invoking it with `input(context, id)`; every machine ends through `onDone` /
 * `onError` of the flow. Built here so the ten invokes are written once.
 */
export function payingStates<TContext>(o: {
  methodOf: (context: TContext) => number | undefined;
  input: (context: TContext, id: PaymentActorId) => unknown;
  onDone: unknown;
  onError: unknown;
}) {
  // The state configs are typed by the flow that spreads them (their guards and inputs only read TContext).
  const states = {
    routing: {
      always: PAYMENT_ACTOR_IDS.map((id) => ({ guard: ({ context }: { context: TContext }) => methodActor(o.methodOf(context)) === id, target: id })),
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  } as Record<'routing' | PaymentActorId, any>;
  for (const id of PAYMENT_ACTOR_IDS) {
    states[id] = { invoke: { id, src: id, input: ({ context }: { context: TContext }) => o.input(context, id), onDone: o.onDone, onError: o.onError } };
  }
  return { initial: 'routing' as const, states };
}
