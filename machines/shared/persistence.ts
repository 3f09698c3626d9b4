import type { ActorSystem, AnyActorRef, Snapshot } from 'xstate';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any system shape
type AnyActorSystem = ActorSystem<any>;

/**
 * Flows that leave the page (3-D Secure, hosted payment pages, QR codes a refresh would lose)
 * save the whole checkout actor's persisted snapshot (actor.getPersistedSnapshot(), children
 * included) before the page may go, so a refresh or a return restores the same order and
 * payment instead of creating another:
 *
 *   const persistence = createFlowPersistence(sessionStorageLike);
 *   const logic = checkoutMachine.provide({ actions: persistence.actions, actors: { ... } });
 *   const actor = createActor(logic, { systemId: FLOW_ROOT, snapshot: persistence.restore() ?? undefined, input });
 *   actor.start(); if (restored) actor.send({ type: 'payment.resume' });
 *
 * The machine calls `persistSnapshot` on entry to the state the page is left from; the
 * implementation waits for the step to finish (queueMicrotask) so the saved snapshot is the one
 * in that state, not the one before it.
 */
export const FLOW_ROOT = 'checkout';

export interface FlowStorage {
  save(key: string, value: string): void;
  load(key: string): string | null;
  remove(key: string): void;
}

export function createFlowPersistence(storage: FlowStorage, key = 'checkout-flow', rootSystemId = FLOW_ROOT) {
  const root = (system: AnyActorSystem, self: AnyActorRef): AnyActorRef => (system.get(rootSystemId) as AnyActorRef | undefined) ?? self;
  return {
    actions: {
      persistSnapshot: ({ system, self }: { system: AnyActorSystem; self: AnyActorRef }) => {
        queueMicrotask(() => storage.save(key, JSON.stringify(root(system, self).getPersistedSnapshot())));
      },
      clearPersistedSnapshot: () => storage.remove(key),
    },
    restore(): Snapshot<unknown> | null {
      const text = storage.load(key);
      if (!text) return null;
      try {
        return JSON.parse(text) as Snapshot<unknown>;
      } catch {
        storage.remove(key);
        return null;
      }
    },
  };
}
