/** The transition key shared by the machine drawings (machines-draw.ts) and the coverage reports of the tests. */
import type { AnyStateMachine } from 'xstate';

export type AnyTransition = NonNullable<AnyStateMachine['root']['always']>[number];

/**
 * A transition's key (the drawings' and the coverage reports' own): source state, event descriptor
 * and its index among that descriptor's candidates (guarded alternatives are distinct transitions),
 * e.g. `checkout.editing | checkout.submit #2`. Eventless (always) transitions use `always`.
 */
export function transitionKey(t: AnyTransition): string {
  const source = t.source;
  const always = source.always ?? [];
  const i = always.indexOf(t);
  if (i >= 0) return `${source.id} | always #${i}`;
  const list = source.transitions.get(t.eventType) ?? [];
  return `${source.id} | ${t.eventType} #${list.indexOf(t)}`;
}
