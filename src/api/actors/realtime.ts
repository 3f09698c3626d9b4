/** Realtime actors: the order status push as events for the payment machines. */
import { fromCallback } from 'xstate';
import type { OrderIdBody } from '../../../machines/shared/api';
import type { OrderStatusPushed } from '../../../machines/payments/omise-promptpay.machine';
import { connectRealtime, onOrderStatus } from '../realtime';
import { keptUserId } from '../storage';

export const realtimeActors = {
  /** Sends `order.statusChanged` for this order while the machine waits (PromptPay QR). */
  watchOrderStatus: fromCallback<{ type: 'never' }, OrderIdBody>(({ sendBack, input }) => {
    const userId = keptUserId();
    if (userId !== null) void connectRealtime(userId).catch(() => undefined);
    return onOrderStatus((push) => {
      if (push.orderId !== input.orderId) return;
      const event: OrderStatusPushed = { type: 'order.statusChanged', orderId: push.orderId, payment_status: push.payment_status };
      sendBack(event as never);
    });
  }),
};
