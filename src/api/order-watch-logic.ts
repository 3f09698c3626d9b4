/**
 * The order list's and the thank-you page's watch on the server's pushes
 * (machines/orders/order-watch.machine.ts) with the real realtime actor; `useOrderWatch` gives a
 * page the actor with its own "read the orders again"; `useOrdersReadAgain` is what both pages do
 * around it.
 */
import { useActorRef } from '@xstate/react';
import { useEffect } from 'react';
import { orderWatchMachine } from '../../machines/orders/order-watch.machine';
import { actorOptions } from './actor-options';
import { realtimeActors } from './actors';
import { flowPersistence } from './effects';
import { useLatest } from '../ui/latest';

export const orderWatchLogic = orderWatchMachine.provide({ actors: { watchMyOrders: realtimeActors.watchMyOrders } });

/** The page's watch: `onOrdersChanged` runs for every status change the server pushes for this buyer. */
export function useOrderWatch(onOrdersChanged: () => void): void {
  const changed = useLatest(onOrdersChanged);
  useActorRef(orderWatchLogic.provide({ actions: { ordersChanged: () => changed.current() } }), actorOptions('orderWatch'));
}

/**
 * A page that shows the buyer's orders once a purchase has ended (the order list, the thank-you
 * page): the saved checkout flow is forgotten, and `readAgain` runs when the server pushes a change
 * (the shop approving or rejecting, a late payment, a refund). At a login or logout the page reads
 * again through the session's `useReadAgainOnLogInOut` (src/session), as the cart does.
 */
export function useOrdersReadAgain(readAgain: () => void): void {
  useOrderWatch(readAgain);
  useEffect(() => {
    flowPersistence.actions.clearPersistedSnapshot();
  }, []);
}
