/**
 * Family "QR with polling and push": the server creates a QR for the order, the QR is shown while
 * the realtime push of the order's status and a 6-second poll run side by side (spec section 4
 * "PromptPay", "Bank QR"); the QR expires at its expires_at (`qrExpiry`), then Try again makes a
 * new one. Members: Omise PromptPay (9), GB Prime Pay PromptPay (12), SCB QR (4, with 'Done').
 *
 * `qrMachine(config)` builds one method's machine: the machine id, the actor that creates the QR
 * (named after its operationId), its request, what the answer shows, and — for a bank QR the buyer
 * closes with 'Done' — `finish: true` (states `checkingPayment` and `pending`). Every member has
 * the states `creatingQr`, `awaitingScan` (parallel `push` / `poll`), `expired`, `failed`, `paid`,
 * `rejected`, the events `payment.retry`, `payment.resume`, the pushed `order.statusChanged` and
 * the watch's `order.pushesResumed`.
 */
import { assign, fromCallback, setup, type UnknownActorLogic } from 'xstate';
import { providedByApp } from '../shared/provided';
import type { OrderIdBody, OrderPaymentStatus } from '../shared/api';
import { effectDefaults } from '../shared/effects';
import { orderReadGuards, PAYMENT_FAILED_NOTICE, type OrderRead, type PaymentInput, type PaymentOrder, finalStateOutput, paymentTypes } from './payment';
import { readOrderInvoke } from './return-states';
import { builtOnFirstUse } from '../shared/built-on-first-use';

/** Pushed by the realtime connection when the order's payment status changes. */
export interface OrderStatusPushed {
  type: 'order.statusChanged';
  orderId: number;
  payment_status: OrderPaymentStatus;
}

/**
 * Sent by the realtime watch when its connection dropped and has signed in again: a push sent
 * meanwhile is not replayed (socket.io's PostgreSQL adapter has no connection state recovery),
 * so whoever watches reads the order now instead of waiting for a push that may be gone.
 */
export interface PushesResumed {
  type: 'order.pushesResumed';
}

/** What the realtime watch of orders sends: a status pushed, or the pushes back after a gap. */
export type OrderWatchPushed = OrderStatusPushed | PushesResumed;

/** The longest delay a timer can hold (2^31 - 1 ms, about 24.8 days); a longer one would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Until the QR's expires_at (at least one poll; at most what a timer can hold). */
export const qrExpiry = ({ context }: { context: { expiresAt: string | null } }) =>
  Math.min(MAX_TIMER_MS, Math.max(6000, Date.parse(context.expiresAt ?? '') - Date.now() || 0));

type PushArgs = { context: { order: PaymentOrder }; event: { type: string } };

function pushed(args: PushArgs, status: OrderPaymentStatus): boolean {
  const e = args.event as Partial<OrderStatusPushed>;
  return e.type === 'order.statusChanged' && e.orderId === args.context.order.orderId && e.payment_status === status;
}

const orderIdOf = ({ context }: { context: { order: PaymentOrder } }) => ({ orderId: context.order.orderId });

/** What a member of the family says about itself. */
export interface QrMethodConfig<Id extends string, Src extends string, TAnswer, TRequest, TShown extends object, Finish extends boolean> {
  /** The machine id (the checkout's invoke id). */
  id: Id;
  /** The actor creating the QR: its operationId, its request from the order, and what its answer shows. */
  create: {
    src: Src;
    input: (order: PaymentOrder) => TRequest;
    /** When given, an answer it refuses is a failure (else every answer shows a QR). */
    created?: (answer: TAnswer) => boolean;
    shown: (answer: TAnswer) => TShown & { expiresAt: string | null };
  };
  /** The context before a QR and after it expired (the QR fields cleared). */
  noQr: TShown;
  /** 'Done' (`qr.done`) while a QR is or was shown reads the order; not confirmed yet ends `toOrders`. */
  finish: Finish;
}

export type QrContext<TShown extends object> = { order: PaymentOrder; expiresAt: string | null } & TShown;
export type QrEvent = { type: 'payment.retry' } | { type: 'payment.resume' } | { type: 'qr.done' } | OrderWatchPushed;

/**
 * The states of the family, as the machine's type sees them (snapshot.matches is typed by it): the
 * definition is built from the configuration, so its shape is stated here once. `checkingPayment`
 * and `pending` exist only in a member with `finish`.
 */
type QrStates = {
  creatingQr: object;
  awaitingScan: {
    type: 'parallel';
    states: { push: { states: { listening: object; unavailable: object } }; poll: { states: { waiting: object; checking: object } } };
  };
  expired: object;
  failed: object;
  paid: object;
  rejected: object;
  checkingPayment: object;
  pending: object;
};
type QrShape = { initial: 'creatingQr'; states: QrStates };

/** The QR is shown: the realtime push and the 6-second poll run side by side until approved or rejected. */
function awaitingScanState(machineId: string, finish: boolean) {
  return {
    type: 'parallel',
    entry: 'persistSnapshot',
    after: { qrExpiry: 'expired' },
    on: {
      // A refresh restored this state: a restored snapshot has no timers (XState does not persist
      // delayed events), so the state is entered again, which schedules the QR's expiry (the time
      // left) and the poll anew, and the order is read at once.
      'payment.resume': { target: '.poll.checking', reenter: true },
      // The watch's connection came back after a gap: a push sent meanwhile is lost, so the order
      // is read now rather than at the next poll.
      'order.pushesResumed': { target: '.poll.checking' },
      'order.statusChanged': [
        { guard: 'pushedApproved', target: 'paid' },
        { guard: 'pushedRejected', target: 'rejected' },
      ],
      ...(finish ? { 'qr.done': 'checkingPayment' } : {}),
    },
    states: {
      push: {
        initial: 'listening',
        states: {
          // Without pushes the poll still finds the payment.
          listening: { invoke: { id: 'watchOrderStatus', src: 'watchOrderStatus', input: orderIdOf, onError: { target: 'unavailable' } } },
          unavailable: {},
        },
      },
      poll: {
        initial: 'waiting',
        states: {
          waiting: { after: { pollInterval: 'checking' } },
          checking: {
            invoke: {
              ...readOrderInvoke({ approved: `#${machineId}.paid`, rejected: `#${machineId}.rejected`, otherwise: 'waiting', error: 'waiting' }),
            },
          },
        },
      },
    },
  } as const;
}

/**
 * One QR method's machine, built from its configuration. Its actors are the creating actor (the
 * method's operationId), `getOrder` and `watchOrderStatus`; the app provides them with `.provide`
 * (src/api/payment-logic.ts, which types them by the method's entry in methods.ts).
 */
export function qrMachine<const Id extends string, const Src extends string, TAnswer, TRequest, TShown extends object, const Finish extends boolean>(
  config: QrMethodConfig<Id, Src, TAnswer, TRequest, TShown, Finish>,
) {
  const { id, create, noQr, finish } = config;
  const showQr = { type: 'showQr', params: ({ event }: { event: { output: TAnswer } }) => event.output } as const;
  const shown = { target: 'awaitingScan', actions: showQr };
  const definition = {
    id,
    context: ({ input }: { input: PaymentInput }) => ({ order: input.order, expiresAt: null, ...noQr }),
    initial: 'creatingQr',
    states: {
      creatingQr: {
        invoke: {
          id: create.src,
          src: create.src,
          input: ({ context }: { context: QrContext<TShown> }) => create.input(context.order),
          onDone: create.created ? [{ ...shown, guard: { type: 'qrCreated', params: ({ event }: { event: { output: TAnswer } }) => event.output } }, { target: 'failed' }] : shown,
          onError: { target: 'failed' },
        },
      },
      awaitingScan: awaitingScanState(id, finish),
      expired: {
        entry: 'clearQr',
        on: { 'payment.retry': 'creatingQr', ...(finish ? { 'qr.done': 'checkingPayment' } : {}) },
      },
      failed: {
        entry: { type: 'notify', params: PAYMENT_FAILED_NOTICE },
        on: { 'payment.retry': 'creatingQr' },
      },
      ...(finish
        ? {
            checkingPayment: { invoke: readOrderInvoke({ approved: 'paid', rejected: 'rejected', otherwise: 'pending', error: 'pending' }) },
            // 'Done' before the bank confirmed: no thank-you page; the order list shows the order
            // waiting for payment (the bank's confirmation may still come) with Pay / Cancel.
            pending: { type: 'final', output: { result: 'toOrders' } },
          }
        : {}),
      paid: { type: 'final', output: { result: 'paid' } },
      rejected: { type: 'final', output: { result: 'toOrders' } },
    },
    output: finalStateOutput,
  };
  return builtOnFirstUse(() =>
    setup({
      types: paymentTypes<QrContext<TShown>, QrEvent>(),
      // The creating actor's name is the member's: the actors are typed by name only where the
      // member is (payment-logic.ts types what it provides by the registry's entry).
      actors: {
        [create.src]: providedByApp<TAnswer, TRequest>(create.src),
        getOrder: providedByApp<OrderRead, OrderIdBody>('getOrder'),
        watchOrderStatus: fromCallback<{ type: 'never' }, OrderIdBody>(() => () => {}),
      } as Record<string, UnknownActorLogic>,
      guards: {
        ...orderReadGuards,
        pushedApproved: (args) => pushed(args, 'approved'),
        pushedRejected: (args) => pushed(args, 'rejected'),
        qrCreated: (_, answer: TAnswer) => create.created?.(answer) ?? true,
      },
      actions: {
        ...effectDefaults,
        showQr: assign((_, answer: TAnswer) => create.shown(answer) as Partial<QrContext<TShown>>),
        clearQr: assign(() => noQr as Partial<QrContext<TShown>>),
      },
      delays: {
        pollInterval: 6000,
        qrExpiry,
      },
      // The definition is checked against the family's shape here, where its names are known.
    }).createMachine(definition as unknown as QrShape & { context: typeof definition.context }),
  );
}
