/**
 * Loaded into a page by the atlas spec (through the Vite dev server): a scripted shippingAddress
 * actor inspected exactly as the app's actors are with `?inspect=atlas` (src/inspect), driven step
 * by step by the test, its save answered when the test says.
 */
import { createActor, fromPromise } from 'xstate';
import { createInspect } from '../../../src/inspect';
import { shippingAddressMachine, type ShippingAddress } from '../../../machines/shipping/shipping-address.machine';

export function startShipping(): void {
  const inspect = createInspect({ dev: true, search: '?inspect=atlas' });
  if (!inspect) throw new Error('?inspect=atlas gave no inspector');
  let answer: ((a: { success: true; data: ShippingAddress }) => void) | null = null;
  const logic = shippingAddressMachine.provide({
    actors: { createShippingAddress: fromPromise(() => new Promise<{ success: true; data: ShippingAddress }>((r) => (answer = r))) },
  });
  const actor = createActor(logic, { input: { addresses: [] }, inspect });
  actor.start();
  Object.assign(window, {
    __probe: {
      send: (e: Parameters<typeof actor.send>[0]) => actor.send(e),
      value: () => actor.getSnapshot().value,
      saved: (a: ShippingAddress) => answer?.({ success: true, data: a }),
    },
  });
}
