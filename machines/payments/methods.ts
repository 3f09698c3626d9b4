/**
 * The one registry of payment methods (spec 9 ids) → family, view and machine. The checkout and
 * the pay-again flow (order-payment.machine.ts) both invoke the method's machine from here; the
 * invoke id (`bankTransfer`, `paypal`, …) is also the state the flow is in while it pays.
 */
import type { AnyStateMachine } from 'xstate';
import {
  BANK_TRANSFER,
  GBPRIME_CARD,
  GBPRIME_PROMPTPAY,
  OMISE_CARD,
  OMISE_PROMPTPAY,
  PAYPAL,
  PAYSOLUTIONS,
  SCB_QR,
  TWOC2P_CARD,
  TWOC2P_INSTALLMENT,
  type PaymentMethodId as DomainPaymentMethodId,
} from '../../domain/payment-methods';
import type { PaymentMethodId } from '../shared/api';
import { finalOutputs, type PaymentResult } from './payment';
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

/**
 * The ways of paying. A family is one kind of flow; its members are configurations of it (the QR
 * family is built by `qrMachine`, qr.family.ts; the hosted-redirect family by `hostedMachine`, hosted.family.ts).
 * - hostedRedirect: the buyer goes to the provider's page and comes back (2C2P link and card
 *   gateway, GB Prime Pay card, PaySolutions);
 * - qr: a QR shown while push and poll wait for the payment (Omise and GB Prime Pay PromptPay, SCB QR);
 * - cardForm3ds: a card form tokenized in the page, then 3-D Secure (Omise card);
 * - popupWallet: the provider's window (PayPal);
 * - bankTransfer: the buyer transfers and files a notice with the slip.
 */
export type PaymentFamily = 'hostedRedirect' | 'qr' | 'cardForm3ds' | 'popupWallet' | 'bankTransfer';

/**
 * What the payment view shows for a method: the family's view, or its variant when a member's
 * configuration adds to it (the 2C2P card form before the gateway, SCB's 'Done' and countdown).
 */
export type PaymentView = 'hostedRedirect' | 'hostedCardForm' | 'qr' | 'qrWithDone' | 'cardForm3ds' | 'popupWallet' | 'bankTransfer';

export interface PaymentMethodEntry {
  family: PaymentFamily;
  view: PaymentView;
  /** The invoke id (and the flow's state while it pays); also the machine's id. */
  actor: string;
  machine: AnyStateMachine;
}

/**
 * The one registry: method id (spec 9, the domain's `PAYMENT_METHOD_IDS`) → its family, view,
 * invoke id and machine. Read by the checkout and the pay-again flow (`payingStates`), the
 * payment view (src/features/payments/PaymentHost.tsx) and the app's actors
 * (src/api/payment-logic.ts). Adding a method: a line here (and its machine, a configuration of
 * its family); `satisfies` fails until every domain method has one.
 */
export const PAYMENT_METHODS = {
  [BANK_TRANSFER]: { family: 'bankTransfer', view: 'bankTransfer', actor: 'bankTransfer', machine: bankTransferMachine },
  [PAYPAL]: { family: 'popupWallet', view: 'popupWallet', actor: 'paypal', machine: paypalMachine },
  [TWOC2P_CARD]: { family: 'hostedRedirect', view: 'hostedCardForm', actor: 'twoC2pCard', machine: twoC2pCardMachine },
  [SCB_QR]: { family: 'qr', view: 'qrWithDone', actor: 'scbQr', machine: scbQrMachine },
  [OMISE_CARD]: { family: 'cardForm3ds', view: 'cardForm3ds', actor: 'omiseCard', machine: omiseCardMachine },
  [OMISE_PROMPTPAY]: { family: 'qr', view: 'qr', actor: 'omisePromptPay', machine: omisePromptPayMachine },
  [TWOC2P_INSTALLMENT]: { family: 'hostedRedirect', view: 'hostedRedirect', actor: 'twoC2pLink', machine: twoC2pLinkMachine },
  [GBPRIME_CARD]: { family: 'hostedRedirect', view: 'hostedRedirect', actor: 'gbPrimeCard', machine: gbPrimeCardMachine },
  [GBPRIME_PROMPTPAY]: { family: 'qr', view: 'qr', actor: 'gbPrimePromptPay', machine: gbPrimePromptPayMachine },
  [PAYSOLUTIONS]: { family: 'hostedRedirect', view: 'hostedRedirect', actor: 'paySolutions', machine: paySolutionsMachine },
} as const satisfies Record<DomainPaymentMethodId, PaymentMethodEntry> & Record<PaymentMethodId, PaymentMethodEntry>;

type Entry = (typeof PAYMENT_METHODS)[keyof typeof PAYMENT_METHODS];
export type PaymentActorId = Entry['actor'];

/** The payment machines, by invoke id (from the registry). */
export const PAYMENT_MACHINES = Object.fromEntries(Object.values(PAYMENT_METHODS).map((e) => [e.actor, e.machine])) as {
  [E in Entry as E['actor']]: E['machine'];
};

/** Method id → its machine's invoke id. */
export const METHOD_ACTORS = Object.fromEntries(Object.entries(PAYMENT_METHODS).map(([id, e]) => [id, e.actor])) as {
  readonly [M in keyof typeof PAYMENT_METHODS]: (typeof PAYMENT_METHODS)[M]['actor'];
};

export const PAYMENT_ACTOR_IDS: readonly PaymentActorId[] = Object.values(PAYMENT_METHODS).map((e) => e.actor);

/** The results each payment machine can end with (payment.ts `finalOutputs`, read from its final states). */
export const PAYMENT_RESULTS = Object.fromEntries(
  Object.values(PAYMENT_METHODS).map((e): [PaymentActorId, ReadonlySet<PaymentResult>] => [e.actor, new Set(finalOutputs(e.machine).map((o) => o.result))]),
) as Readonly<Record<PaymentActorId, ReadonlySet<PaymentResult>>>;

/**
 * A flow's `onDone` for one payment machine: of `ends` (in order, each with the results it takes),
 * the ones the machine can end with; the last of them without its guard, since the machine gives
 * no other result. Not a branch for a result the machine never gives (a transition nothing takes).
 */
export function endsFor<T extends { guard?: unknown }>(id: PaymentActorId, ends: readonly (readonly [readonly PaymentResult[], T])[]): T[] {
  const results = PAYMENT_RESULTS[id];
  const taken = ends.filter(([takes]) => takes.some((r) => results.has(r)));
  const missed = [...results].filter((r) => !taken.some(([takes]) => takes.includes(r)));
  if (missed.length) throw new Error(`${id}: no end takes its result ${missed.join(', ')}`);
  if (!taken.length) throw new Error(`${id}: the machine has no final output`);
  const transitions = taken.map(([, t]) => t);
  const { guard: _guard, ...last } = transitions.at(-1)!;
  return [...transitions.slice(0, -1), last as T];
}

/** The registry's entry of a method (bank transfer's for an unknown one). */
export function paymentMethodEntry(methodId: number | undefined): Entry {
  return (PAYMENT_METHODS as Record<number, Entry | undefined>)[methodId ?? 0] ?? PAYMENT_METHODS[BANK_TRANSFER];
}

/** The payment machine (invoke id) of a method (bank transfer for an unknown one). */
export function methodActor(methodId: number | undefined): PaymentActorId {
  return paymentMethodEntry(methodId).actor;
}

/**
 * The `paying` states of a flow: one `routing` state that picks the method's machine, and one
 * state per machine invoking it with `input(context, id)`; every machine ends through `onDone` /
 * `onError` of the flow. Built here so the ten invokes are written once.
 */
export function payingStates<TContext>(o: {
  methodOf: (context: TContext) => number | undefined;
  input: (context: TContext, id: PaymentActorId) => unknown;
  /** The machine's ends for the flow (`endsFor`). */
  onDone: (id: PaymentActorId) => unknown;
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
    states[id] = { invoke: { id, src: id, input: ({ context }: { context: TContext }) => o.input(context, id), onDone: o.onDone(id), onError: o.onError } };
  }
  return { initial: 'routing' as const, states };
}
