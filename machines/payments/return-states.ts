/**
 * The states every flow that sends the buyer to another page ends with: waiting for the return
 * (`payment.resume` after the restore, or `payment.abandon` -> the order list), then reading the
 * order: approved -> paid, rejected -> `onRejected`, otherwise waiting again — with what the read
 * found kept in `context.returned` (the order not paid yet, or the read failed), so the page tells
 * the buyer who came back (the browser's back button) what the server knows instead of a spinner.
 * A machine using returnStates has `returned: ReturnCheck` in its context and the `noteReturn` action.
 */
import type { OrderRead, PaymentOrder } from './payment';

const orderOf = ({ event }: { event: { output: OrderRead } }) => event.output;

/** What the last read on return found: 'unpaid' (the server has no payment yet), 'unchecked' (the read failed); null before any return. */
export type ReturnCheck = 'unpaid' | 'unchecked' | null;

/**
 * Reads the order (getOrder) and goes on by its payment status: approved, rejected, or anything
 * else (still pending); a failed read goes to `error`. One piece for every payment machine that
 * checks the order after a return, a QR or a pending charge.
 */
export function readOrderInvoke<A extends string, R extends string, O extends string, E extends string>(to: { approved: A; rejected: R; otherwise: O; error: E }) {
  return {
    id: 'getOrder' as const,
    src: 'getOrder' as const,
    input: ({ context }: { context: { order: PaymentOrder } }) => ({ orderId: context.order.orderId }),
    onDone: [
      { guard: { type: 'approved' as const, params: orderOf }, target: to.approved },
      { guard: { type: 'rejected' as const, params: orderOf }, target: to.rejected },
      { target: to.otherwise },
    ] as const,
    onError: { target: to.error },
  };
}

export function returnStates<Waiting extends string, Rejected extends string>(waiting: Waiting, onRejected: Rejected) {
  const read = readOrderInvoke({ approved: 'paid', rejected: onRejected, otherwise: waiting, error: waiting });
  return {
    [waiting]: {
      on: { 'payment.resume': 'reconciling', 'payment.abandon': 'leftForOrders' },
    },
    reconciling: {
      invoke: {
        ...read,
        onDone: [read.onDone[0], read.onDone[1], { target: waiting, actions: { type: 'noteReturn', params: 'unpaid' } }],
        onError: { target: waiting, actions: { type: 'noteReturn', params: 'unchecked' } },
      },
    },
  } as { [K in Waiting]: { on: { 'payment.resume': 'reconciling'; 'payment.abandon': 'leftForOrders' } } } & {
    reconciling: {
      invoke: {
        id: 'getOrder';
        src: 'getOrder';
        input: ({ context }: { context: { order: PaymentOrder } }) => { orderId: number };
        onDone: readonly [
          { guard: { type: 'approved'; params: typeof orderOf }; target: 'paid' },
          { guard: { type: 'rejected'; params: typeof orderOf }; target: Rejected },
          { target: Waiting; actions: { type: 'noteReturn'; params: 'unpaid' } },
        ];
        onError: { target: Waiting; actions: { type: 'noteReturn'; params: 'unchecked' } };
      };
    };
  };
}
