import { createActor, createMachine, type AnyStateMachine, type EventObject, type AnyMachineSnapshot } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { MachineModel } from './model';

type AnyStateNode = AnyStateMachine['root'];

export interface ModelStep {
  event: EventObject;
  /** The snapshot after the event. */
  state: AnyMachineSnapshot;
}

export interface ModelPath {
  /** steps[0] is xstate.init with the initial snapshot. */
  steps: ModelStep[];
  description: string;
  /** The machine input this path starts from. */
  input: unknown;
  /** The model (with its variant's events and outcomes) the path was walked with. */
  model: MachineModel;
}

export const defaultSerialize = (s: AnyMachineSnapshot): string => JSON.stringify({ value: s.value, context: s.context });

/** An actor scope for computing transitions outside an actor, like xstate/graph's own. */
function scope() {
  const empty = createActor(createMachine({}));
  return {
    self: empty,
    logger: () => {},
    id: '',
    sessionId: 'graph',
    defer: () => {},
    system: empty.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as Parameters<AnyStateMachine['transition']>[2];
}

function activeNodes(s: AnyMachineSnapshot): AnyStateNode[] {
  return (s as unknown as { _nodes: AnyStateNode[] })._nodes;
}

/**
 * The events the outside world may send in snapshot `s`: the user's, the done/error outcomes of
 * each actor running now, the events of each running callback actor, and the delayed events of
 * the active states. Only those the machine takes (snapshot.can) are kept.
 */
export function candidateEvents(model: MachineModel, s: AnyMachineSnapshot): EventObject[] {
  const out: EventObject[] = [...model.userEvents];
  const children = s.children as Record<string, unknown>;
  for (const id of Object.keys(children)) {
    const callbackEvents = model.callbacks?.[id];
    const outcomes = model.outcomes?.[id];
    if (callbackEvents) {
      // A callback actor sends its events; it ends only by failing (when the model says it may).
      out.push(...callbackEvents);
      for (const error of outcomes?.error ?? []) out.push({ type: `xstate.error.actor.${id}`, error } as EventObject);
      continue;
    }
    for (const output of outcomes?.done ?? [undefined]) out.push({ type: `xstate.done.actor.${id}`, output } as EventObject);
    for (const error of outcomes?.error ?? [new Error('failed')]) out.push({ type: `xstate.error.actor.${id}`, error } as EventObject);
  }
  for (const node of activeNodes(s)) {
    for (const t of node.after) out.push({ type: t.eventType });
  }
  return out.filter((e) => (model.filter ? model.filter(s as never, e) : true) && s.can(e));
}

function describe(steps: readonly ModelStep[], model: MachineModel): string {
  const events = steps.slice(1).map((st) => {
    const custom = model.label?.(st.event as never);
    if (custom) return custom;
    const { type, ...rest } = st.event as EventObject & Record<string, unknown>;
    const short = type.replace(/^xstate\.(done|error)\.actor\./, (_m, k: string) => (k === 'done' ? '✓' : '✗')).replace(/^xstate\.after\.([^.]+)\..*$/, '⏱$1');
    const payload = Object.keys(rest).length ? JSON.stringify(rest.output ?? rest.error ?? rest) : '';
    return payload && payload.length < 60 ? `${short}(${payload})` : short;
  });
  const runs: string[] = [];
  for (let i = 0; i < events.length; ) {
    let j = i;
    while (j < events.length && events[j] === events[i]) j++;
    runs.push(j - i > 1 ? `${events[i]}×${j - i}` : events[i]!);
    i = j;
  }
  const last = steps[steps.length - 1]!.state;
  return `${runs.join(' → ') || '(initial)'} ⇒ ${JSON.stringify(last.value)}`;
}

/**
 * The walked paths: the shortest path (xstate/graph getShortestPaths) to every reachable
 * abstract state, each extended by every event the machine takes there, so every transition of
 * the explored graph is on some path ("transition tour"). Paths that are prefixes of others are dropped.
 */
export function walk(model: MachineModel): ModelPath[] {
  const starts = [{ name: '', input: model.input }, ...(model.variants ?? [])];
  return starts.flatMap((start) => {
    const { name, ...overrides } = start;
    const effective: MachineModel = { ...model, ...overrides };
    return walkFrom(effective, start.input).map((p) => ({ ...p, input: start.input, model: effective, description: name ? `[${name}] ${p.description}` : p.description }));
  });
}

function walkFrom(model: MachineModel, input: unknown): { steps: ModelStep[]; description: string }[] {
  const serialize = (model.serialize ?? defaultSerialize) as (s: AnyMachineSnapshot) => string;
  const machine = model.machine;
  const shortest = getShortestPaths(machine, {
    input,
    events: (s: AnyMachineSnapshot) => candidateEvents(model, s),
    serializeState: (s: AnyMachineSnapshot) => serialize(s),
    limit: model.limit ?? 20_000,
  } as never) as unknown as { state: AnyMachineSnapshot; steps: ModelStep[] }[];

  const sc = scope();
  const candidates: ModelStep[][] = [];
  for (const p of shortest) {
    const steps = p.steps.length ? p.steps : [{ event: { type: 'xstate.init' }, state: p.state }];
    candidates.push(steps);
    if (p.state.status !== 'active') continue;
    for (const event of candidateEvents(model, p.state)) {
      const next = machine.transition(p.state, event, sc) as AnyMachineSnapshot;
      candidates.push([...steps, { event, state: next }]);
    }
  }
  return dedupe(candidates).map((steps) => ({ steps, description: describe(steps, model) }));
}

function key(e: EventObject): string {
  return JSON.stringify(e);
}

/** Drops every path that is a prefix of another one. */
function dedupe(paths: ModelStep[][]): ModelStep[][] {
  const sorted = [...paths].sort((a, b) => b.length - a.length);
  const prefixes = new Set<string>();
  const kept: ModelStep[][] = [];
  for (const p of sorted) {
    const sig = p.slice(1).map((s) => key(s.event)).join('\u0001');
    if (prefixes.has(sig)) continue;
    kept.push(p);
    let acc = '';
    p.slice(1).forEach((s, i) => {
      acc = i === 0 ? key(s.event) : `${acc}\u0001${key(s.event)}`;
      prefixes.add(acc);
    });
    prefixes.add('');
  }
  return kept;
}
