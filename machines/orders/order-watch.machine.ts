/**
 * Keeps a page that shows the buyer's orders (the order list, the thank-you page) true to the
 * server while it is open: every status change the server pushes for this buyer (the shop
 * approving a transfer or rejecting it, a late provider success, a refund) asks the page to read
 * its orders again (`ordersChanged`, provided by the page), and so does the connection coming back
 * after a gap, or signing in for the first time after the page read its orders
 * (`order.pushesResumed`: a push sent meanwhile is not replayed). When no push can come (`watchMyOrders`
 * fails: the realtime connection refused, closed or never loaded, the sign-in refused; the same
 * rules as the payment machines' watchOrderStatus) the page reads its orders on a timer instead
 * (`polling`), so what it says (e.g. "this page updates by itself once the shop approves") stays true.
 */
import { fromEventObservable, setup, type EventObject } from 'xstate';
import type { OrderWatchPushed } from '../payments/qr.family';

export type OrderWatchEvent = OrderWatchPushed;

export const orderWatchMachine = setup({
  types: {
    events: {} as OrderWatchEvent,
  },
  actors: {
    /** Sends `order.statusChanged` for every push of the buyer's orders (the realtime connection); fails once no push can come. */
    watchMyOrders: fromEventObservable<OrderWatchPushed & EventObject, unknown>(() => ({ subscribe: () => ({ unsubscribe: () => {} }) })),
  },
  actions: {
    /** The page reads its orders again (react-router's revalidation). */
    ordersChanged: () => {},
  },
  delays: {
    /** Without pushes, how often the page reads its orders (a list and its documents: slower than a QR's 6-second poll of one order). */
    ordersPollInterval: 10_000,
  },
}).createMachine({
  id: 'orderWatch',
  initial: 'watching',
  states: {
    watching: {
      invoke: { id: 'watchMyOrders', src: 'watchMyOrders', onError: { target: 'polling', actions: 'ordersChanged' } },
      // a push, or the connection back after a gap (a push sent meanwhile is lost): read again
      on: { 'order.statusChanged': { actions: 'ordersChanged' }, 'order.pushesResumed': { actions: 'ordersChanged' } },
    },
    /** No push can come: the orders are read at once (a push may have been lost meanwhile), then on every interval. */
    polling: {
      after: { ordersPollInterval: { target: 'polling', reenter: true, actions: 'ordersChanged' } },
    },
  },
});
