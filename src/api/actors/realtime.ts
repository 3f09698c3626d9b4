/** Realtime actors: the session's socket connection, and order status pushes for payment machines. */
import { fromCallback, fromEventObservable, toObserver, type EventObject } from 'xstate';
import type { OrderIdBody } from '../../../machines/shared/api';
import type { OrderWatchPushed } from '../../../machines/payments/qr.family';
import type { RealtimeCommand } from '../../../machines/session/session.machine';
import { closeRealtime, onOrderStatus, onRealtimeJoined, onRealtimeRejoined, onRealtimeUnavailable, openRealtime, realtimeSignIn, type OrderStatusPush, type SocketLoader } from '../realtime';

/** The realtime connection is lost for good (src/api/realtime.ts says when): no push can come. */
export class RealtimeUnavailable extends Error {
  constructor(why: string) {
    super(`realtime pushes unavailable: ${why}`);
    this.name = 'RealtimeUnavailable';
  }
}

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

/**
 * The server's order status pushes that `wanted` keeps, as `order.statusChanged`, and
 * `order.pushesResumed` each time the connection is back after a drop (a push sent meanwhile is
 * lost: the watcher reads the order) — with `firstJoin`, also when the server accepts the socket's
 * first sign-in (for a watcher with no poll of its own) — until no push can come
 * (src/api/realtime.ts says when; at once when that is already so): then an error,
 * RealtimeUnavailable with why.
 */
function pushesOf(wanted: (push: OrderStatusPush) => boolean, { firstJoin = false } = {}) {
  return {
    subscribe(...args: Parameters<typeof toObserver<OrderWatchPushed>>) {
      const observer = toObserver(...args);
      let ended = false;
      const stopPushes = onOrderStatus((push) => {
        if (!wanted(push)) return;
        observer.next?.({ type: 'order.statusChanged', orderId: push.orderId, payment_status: push.payment_status });
      });
      const resumed = () => observer.next?.({ type: 'order.pushesResumed' });
      const stopRejoined = firstJoin ? onRealtimeJoined(resumed) : onRealtimeRejoined(resumed);
      let stopDown = () => {};
      const stop = () => {
        ended = true;
        stopPushes();
        stopRejoined();
        stopDown();
      };
      // called at once when the connection is already lost
      stopDown = onRealtimeUnavailable((why) => {
        if (ended) return;
        stop();
        observer.error?.(new RealtimeUnavailable(why));
      });
      return { unsubscribe: () => stop() };
    },
  };
}

export const realtimeActors = {
  realtimeConnection: createRealtimeConnection(),
  /**
   * Sends `order.statusChanged` for this order while the machine waits (the QR methods), and fails
   * (RealtimeUnavailable) once no push can come: the connection refused or closed by the server,
   * or socket.io-client's attempts failing in a row (src/api/realtime.ts). The machine then leaves
   * the order to its poll (`push.unavailable`).
   */
  watchOrderStatus: fromEventObservable<OrderWatchPushed & EventObject, OrderIdBody>(({ input }) => pushesOf((push) => push.orderId === input.orderId)),
  /**
   * Sends `order.statusChanged` for every push of the buyer's orders (the order list, the
   * thank-you page), `order.pushesResumed` when the socket's first sign-in is accepted and when it
   * is back after a drop (the page read its orders before: what changed meanwhile was not heard),
   * and fails (RealtimeUnavailable) once no push can come, by the same rules as watchOrderStatus:
   * the page then reads its orders on a timer (orderWatch's `polling`).
   */
  watchMyOrders: fromEventObservable<OrderWatchPushed & EventObject, unknown>(() => pushesOf(() => true, { firstJoin: true })),
};
