/** Realtime actors: the session's socket connection, and order status pushes for payment machines. */
import { fromCallback } from 'xstate';
import type { OrderIdBody } from '../../../machines/shared/api';
import type { OrderStatusPushed } from '../../../machines/payments/qr.family';
import type { RealtimeCommand } from '../../../machines/session/session.machine';
import { closeRealtime, onOrderStatus, openRealtime, realtimeSignIn, type SocketLoader } from '../realtime';

export function createRealtimeConnection(load?: SocketLoader) {
  /**
   * The session's connection while logged in: reports realtime.connected / realtime.disconnected
   * (the session answers a connect with realtime.signIn, so every reconnect signs in again).
   */
  return fromCallback<RealtimeCommand, { userId: number }>(({ sendBack, receive }) => {
    let stopped = false;
    let detach = () => {};
    openRealtime(load).then(
      (s) => {
        if (stopped) return;
        const up = () => sendBack({ type: 'realtime.connected' } as never);
        const down = () => sendBack({ type: 'realtime.disconnected' } as never);
        s.on('connect', up);
        s.on('disconnect', down);
        detach = () => {
          s.off('connect', up);
          s.off('disconnect', down);
        };
        if (s.connected) up();
      },
      () => {
        // socket.io-client could not load: the session goes on without pushes (payments poll)
      },
    );
    receive((command) => {
      if (command.type === 'realtime.signIn') realtimeSignIn(command.userId);
    });
    return () => {
      stopped = true;
      detach();
      closeRealtime();
    };
  });
}

export const realtimeActors = {
  realtimeConnection: createRealtimeConnection(),
  /** Sends `order.statusChanged` for this order while the machine waits (PromptPay QR). */
  watchOrderStatus: fromCallback<{ type: 'never' }, OrderIdBody>(({ sendBack, input }) =>
    onOrderStatus((push) => {
      if (push.orderId !== input.orderId) return;
      const event: OrderStatusPushed = { type: 'order.statusChanged', orderId: push.orderId, payment_status: push.payment_status };
      sendBack(event as never);
    }),
  ),
  /** Sends `order.statusChanged` for every push of the buyer's orders (the order list, the thank-you page). */
  watchMyOrders: fromCallback<{ type: 'never' }>(({ sendBack }) =>
    onOrderStatus((push) => {
      const event: OrderStatusPushed = { type: 'order.statusChanged', orderId: push.orderId, payment_status: push.payment_status };
      sendBack(event as never);
    }),
  ),
};
