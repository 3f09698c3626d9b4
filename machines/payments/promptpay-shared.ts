/**
 * What the two PromptPay machines (Omise, method 9; GB Prime Pay, method 12) share: the guards on
 * the order read and on the realtime push, and the QR-shown state where the push and the 6-second
 * poll run side by side (spec section 4 "PromptPay").
 */
import type { OrderPaymentStatus } from '../shared/api';
import { isApproved, isRejected, type OrderRead, type PaymentOrder } from './payment';

/** Pushed by the realtime connection when the order's payment status changes. */
export interface OrderStatusPushed {
  type: 'order.statusChanged';
  orderId: number;
  payment_status: OrderPaymentStatus;
}

type PushArgs = { context: { order: PaymentOrder }; event: { type: string } };

function pushed(args: PushArgs, status: OrderPaymentStatus): boolean {
  const e = args.event as Partial<OrderStatusPushed>;
  return e.type === 'order.statusChanged' && e.orderId === args.context.order.orderId && e.payment_status === status;
}

export const promptPayGuards = {
  approved: (_: unknown, order: OrderRead) => isApproved(order.data),
  rejected: (_: unknown, order: OrderRead) => isRejected(order.data),
  pushedApproved: (args: PushArgs) => pushed(args, 'approved'),
  pushedRejected: (args: PushArgs) => pushed(args, 'rejected'),
};

const orderOf = ({ event }: { event: { output: OrderRead } }) => event.output;
const orderIdOf = ({ context }: { context: { order: PaymentOrder } }) => ({ orderId: context.order.orderId });

/** The QR is shown: the realtime push and the 6-second poll run side by side until approved or rejected. */
export function awaitingScanState<Id extends string>(machineId: Id) {
  return {
    type: 'parallel',
    entry: 'persistSnapshot',
    after: { qrExpiry: 'expired' },
    on: {
      // A refresh restored this state: a restored snapshot has no timers (XState does not persist
      // delayed events), so the state is entered again, which schedules the QR's expiry (the time
      // left) and the poll anew, and the order is read at once.
      'payment.resume': { target: '.poll.checking', reenter: true },
      'order.statusChanged': [
        { guard: 'pushedApproved', target: 'paid' },
        { guard: 'pushedRejected', target: 'rejected' },
      ],
    },
    states: {
      push: {
        initial: 'listening',
        states: {
          listening: {
            invoke: {
              id: 'watchOrderStatus',
              src: 'watchOrderStatus',
              input: orderIdOf,
              // Without pushes the poll still finds the payment.
              onError: { target: 'unavailable' },
            },
          },
          unavailable: {},
        },
      },
      poll: {
        initial: 'waiting',
        states: {
          waiting: {
            after: { pollInterval: 'checking' },
          },
          checking: {
            invoke: {
              id: 'getOrder',
              src: 'getOrder',
              input: orderIdOf,
              onDone: [
                { guard: { type: 'approved', params: orderOf }, target: `#${machineId}.paid` },
                { guard: { type: 'rejected', params: orderOf }, target: `#${machineId}.rejected` },
                { target: 'waiting' },
              ],
              onError: { target: 'waiting' },
            },
          },
        },
      },
    },
  } as const;
}

/** The longest delay a timer can hold (2^31 - 1 ms, about 24.8 days); a longer one would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Until the QR's expires_at (at least one poll; at most what a timer can hold). */
export const qrExpiry = ({ context }: { context: { expiresAt: string | null } }) =>
  Math.min(MAX_TIMER_MS, Math.max(6000, Date.parse(context.expiresAt ?? '') - Date.now() || 0));
