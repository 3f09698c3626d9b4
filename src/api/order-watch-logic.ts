/**
 * The order list's and the thank-you page's watch on the server's pushes
 * (machines/orders/order-watch.machine.ts) with the real realtime actor; `useOrderWatch` gives a
 * page the actor with its own "read the orders again".
 */
import { useActorRef } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { orderWatchMachine } from '../../machines/orders/order-watch.machine';
import { actorOptions } from './actor-options';
import { realtimeActors } from './actors';

export const orderWatchLogic = orderWatchMachine.provide({ actors: { watchMyOrders: realtimeActors.watchMyOrders } });

/** The page's watch: `onOrdersChanged` runs for every status change the server pushes for this buyer. */
export function useOrderWatch(onOrdersChanged: () => void): void {
  const changed = useRef(onOrdersChanged);
  useEffect(() => {
    changed.current = onOrdersChanged;
  });
  useActorRef(orderWatchLogic.provide({ actions: { ordersChanged: () => changed.current() } }), actorOptions('orderWatch'));
}
