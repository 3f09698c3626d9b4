/**
 * Keeps a page that shows the buyer's orders (the order list, the thank-you page) true to the
 * server while it is open: every status change the server pushes for this buyer (the shop
 * approving a transfer or rejecting it, a late provider success, a refund) asks the page to read
 * its orders again (`ordersChanged`, provided by the page). Without a realtime connection
 * (`watchMyOrders` fails) the page stays as it was read; a reload reads it again.
 */
import { fromCallback, setup } from 'xstate';
import type { OrderStatusPushed } from '../payments/qr.family';

export type OrderWatchEvent = OrderStatusPushed;

export const orderWatchMachine = setup({
  types: {
    events: {} as OrderWatchEvent,
  },
  actors: {
    /** Sends `order.statusChanged` for every push of the buyer's orders (the realtime connection). */
    watchMyOrders: fromCallback<{ type: 'never' }>(() => () => {}),
  },
  actions: {
    /** The page reads its orders again (react-router's revalidation). */
    ordersChanged: () => {},
  },
}).createMachine({
  id: 'orderWatch',
  initial: 'watching',
  states: {
    watching: {
      invoke: { id: 'watchMyOrders', src: 'watchMyOrders', onError: { target: 'unavailable' } },
      on: { 'order.statusChanged': { actions: 'ordersChanged' } },
    },
    unavailable: {},
  },
});
