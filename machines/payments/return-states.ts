/**
 * The states every flow that sends the buyer to another page ends with: waiting for the return
 * (`payment.resume` after the restore, or `payment.abandon` -> the order list), then reading the
 * order: approved -> paid, rejected -> `onRejected`, otherwise waiting again.
 */
import type { OrderRead, PaymentOrder } from './payment';

const orderOf = ({ event }: { event: { output: OrderRead } }) => event.output;

export function returnStates<Waiting extends string, Rejected extends string>(waiting: Waiting, onRejected: Rejected) {
  return {
    [waiting]: {
      on: { 'payment.resume': 'reconciling', 'payment.abandon': 'leftForOrders' },
    },
    reconciling: {
      invoke: {
        id: 'getOrder',
        src: 'getOrder',
        input: ({ context }: { context: { order: PaymentOrder } }) => ({ orderId: context.order.orderId }),
        onDone: [
          { guard: { type: 'approved', params: orderOf }, target: 'paid' },
          { guard: { type: 'rejected', params: orderOf }, target: onRejected },
          { target: waiting },
        ],
        onError: { target: waiting },
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
          { target: Waiting },
        ];
        onError: { target: Waiting };
      };
    };
  };
}
