/** A typed in-process event bus. Realtime push (server/realtime.ts) subscribes to order events. */
export interface EventMap {
  /** Every order status change (created, payment approved, rejected, cancelled, deleted). */
  'order.statusChanged': { orderId: number; userId: number; status: string; paymentStatus: string };
}

export type EventName = keyof EventMap;
export type Listener<K extends EventName> = (payload: EventMap[K]) => void;

export interface EventBus {
  on<K extends EventName>(name: K, fn: Listener<K>): () => void;
  emit<K extends EventName>(name: K, payload: EventMap[K]): void;
}

export function createEventBus(onError: (err: unknown) => void = () => undefined): EventBus {
  const listeners = new Map<EventName, Set<(p: never) => void>>();
  return {
    on(name, fn) {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(fn as (p: never) => void);
      return () => set.delete(fn as (p: never) => void);
    },
    emit(name, payload) {
      for (const fn of listeners.get(name) ?? []) {
        try {
          (fn as (p: typeof payload) => void)(payload);
        } catch (err) {
          onError(err);
        }
      }
    },
  };
}
