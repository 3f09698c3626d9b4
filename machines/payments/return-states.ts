/**
 * The states every flow that sends the buyer to another page ends with: waiting for the return
 * (`payment.resume` after the restore, or `payment.abandon` -> the order list), then reading the
 * order: approved -> paid, rejected -> `onRejected`, otherwise waiting again.
 */
import type { OrderRead, PaymentOrder } from './payment';

const orderOf = ({ event }: { event: { output: OrderRead } }) => event.output;

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
  return {
    [waiting]: {
      on: { 'payment.resume': 'reconciling', 'payment.abandon': 'leftForOrders' },
    },
    reconciling: {
      invoke: readOrderInvoke({ approved: 'paid', rejected: onRejected, otherwise: waiting, error: waiting }),
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
          { target: Waiting },
        ];
        onError: { target: Waiting };
      };
    };
  };
}
