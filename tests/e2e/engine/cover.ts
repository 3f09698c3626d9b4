/**
 * What a set of browser paths covers, worked out without a browser: each path is replayed
 * against the real machine (its actors stand-ins that never settle by themselves, its timers on a
 * simulated clock), the path's events sent in order, and the transitions taken are keyed as
 * tests/machines/support/coverage.ts keys them (`source | event #index`, `source | always #i`),
 * the same keys the browser trace records (trace.ts). `npm run e2e:report` and
 * tests/machines/e2e-plan.test.ts compare this with the machine's definition, so a transition no
 * generated path takes is known before any browser starts.
 */
import { createActor, fromCallback, fromPromise, SimulatedClock, type AnyActorLogic, type AnyStateMachine, type EventObject, type InspectionEvent } from 'xstate';
import { transitionKey } from '../../machines/support/coverage';
import type { BrowserModel, BrowserPath } from './paths';

type AnyTransition = Parameters<typeof transitionKey>[0];

/** The real machine with stand-ins for its actors (they never settle by themselves: the path's events say how they end). */
export function replayable(model: BrowserModel): AnyStateMachine {
  const srcs = Object.keys(model.machine.implementations.actors ?? {});
  const callbacks = new Set(Object.keys(model.callbacks ?? {}));
  const logic: Record<string, AnyActorLogic> = {};
  for (const src of srcs) {
    logic[src] = callbacks.has(src) ? fromCallback(() => () => undefined) : fromPromise(() => new Promise<never>(() => undefined));
  }
  // Every callback actor's id is its src in these machines; a child invoked under another id keeps the stand-in by src.
  return model.machine.provide({ actors: logic } as never) as AnyStateMachine;
}

/** The transition keys and state node ids the paths take, replayed against the real machine. */
export function plannedCover(model: BrowserModel, paths: readonly BrowserPath[]): { states: Set<string>; transitions: Set<string> } {
  const states = new Set<string>();
  const transitions = new Set<string>();
  const machine = replayable(model);
  for (const path of paths) {
    const inspect = (ev: InspectionEvent) => {
      if (ev.actorRef.sessionId !== ev.rootId) return;
      const snap = (ev as { snapshot?: { _nodes?: { id: string }[] } }).snapshot;
      for (const n of snap?._nodes ?? []) states.add(n.id);
      if (ev.type !== '@xstate.microstep') return;
      for (const t of (ev as unknown as { _transitions: AnyTransition[] })._transitions) {
        transitions.add(transitionKey(t));
        for (let n: AnyTransition['source'] | undefined = t.source; n; n = n.parent) states.add(n.id);
      }
    };
    const actor = createActor(machine, { input: model.input, clock: new SimulatedClock(), inspect } as never);
    actor.subscribe({ error: () => undefined });
    actor.start();
    for (const step of path.steps.slice(1)) actor.send(step.event as EventObject);
    actor.stop();
  }
  return { states, transitions };
}

/** What one step of a path plans: the event the machine handles and the transitions it takes (in order). */
export interface PlannedStep {
  event: string;
  keys: string[];
}

/**
 * Each step's planned transitions (steps[0], the start, plans none), replayed against the real
 * machine as plannedCover does: what the browser's trace must show for the step, keyed alike.
 */
export function plannedSteps(model: BrowserModel, path: BrowserPath): PlannedStep[] {
  let keys: string[] = [];
  const inspect = (ev: InspectionEvent) => {
    if (ev.actorRef.sessionId !== ev.rootId || ev.type !== '@xstate.microstep') return;
    for (const t of (ev as unknown as { _transitions: AnyTransition[] })._transitions) keys.push(transitionKey(t));
  };
  const actor = createActor(replayable(model), { input: model.input, clock: new SimulatedClock(), inspect } as never);
  actor.subscribe({ error: () => undefined });
  actor.start();
  const out: PlannedStep[] = [{ event: 'xstate.init', keys: [] }];
  for (const step of path.steps.slice(1)) {
    keys = [];
    actor.send(step.event as EventObject);
    out.push({ event: step.event.type, keys });
  }
  actor.stop();
  return out;
}
