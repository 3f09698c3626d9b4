/**
 * Browser paths from a machine's graph (xstate/graph): the machine is walked with the events the
 * page can send and, for each invoked actor, the outcomes the real server and its sandboxes can
 * produce (each labelled, e.g. `✓getOrder:approved`, `✗getOrder:network`), plus the machine's
 * delays. The shortest path to every abstract state is completed by the shortest way on to a final
 * state; a greedy cover then keeps the fewest complete paths that together reach every state
 * (every final outcome is a state, so each outcome gets its path).
 */
import { transition, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import { getShortestPaths } from 'xstate/graph';

type AnyStateNode = AnyStateMachine['root'];

/** Where an answer can happen: a state value to match, or a test on the snapshot. */
export type When = string | ((s: AnyMachineSnapshot) => boolean);

const holds = (when: When, s: AnyMachineSnapshot) => (typeof when === 'string' ? s.matches(when) : when(s));

export interface BrowserModel {
  machine: AnyStateMachine;
  input: unknown;
  /** Events the page sends to this machine (sample payloads). */
  userEvents: readonly (EventObject & Record<string, unknown>)[];
  /** Per invoked actor (by id): the labelled answers the server can give, and the ways it can fail. */
  outcomes: Readonly<Record<string, { done?: readonly { label: string; output: unknown; in?: When }[]; error?: readonly (string | { label: string; in?: When; error?: unknown })[] }>>;
  /** Callback actors (by id): the labelled events they may send (and their failures in `outcomes`). */
  callbacks?: Readonly<Record<string, readonly { label: string; event: EventObject & Record<string, unknown> }[]>>;
  /** Keep an event out of the walk (e.g. a per-second countdown tick, which would make every second a state). */
  filter?: (s: AnyMachineSnapshot, event: EventObject) => boolean;
  /**
   * For a machine that never finishes (a page's long-lived actor, e.g. pay again on the order
   * list, idle between two orders): the state a path ends in when the machine is back in it.
   */
  rest?: When;
  /**
   * What the chosen paths must cover together: 'transitions' (default: every state and every
   * transition between different states), or 'states' (every state; for a flow whose methods'
   * transitions are walked by their own machines' paths, to keep the suite's time down).
   */
  cover?: 'states' | 'transitions';
  /**
   * Self-transitions (an event that leaves the machine in the same state, e.g. an invalid file
   * refused, a gateway error told) the cover must take too, by event label: others are walked
   * only when on the way.
   */
  seek?: readonly string[];
}

export interface BrowserStep {
  /** The event label the page map is keyed by: a user event's type, `✓actor:label`, `✗actor:label`, `⇠actor:label`, `⏱delay`. */
  label: string;
  event: EventObject;
  /** The snapshot after the event. */
  state: AnyMachineSnapshot;
  /** The state value as recorded in the browser (JSON of `state.value`). */
  value: string;
  /** The path ends here: a final state, or the machine back at `rest`. */
  final: boolean;
}

export interface BrowserPath {
  /** steps[0] is the initial state (label 'start'). */
  steps: BrowserStep[];
  /** Short title: the labels and the final state. */
  title: string;
}

const labels = new WeakMap<object, string>();

/** An event with its own label (e.g. a user event sent with different payloads: `method.choose:8`). */
export function labelled<E extends EventObject>(event: E, label: string): E {
  labels.set(event, label);
  return event;
}

export function labelOf(event: EventObject): string {
  const known = labels.get(event);
  if (known) return known;
  const after = /^xstate\.after\.([^.]+)\./.exec(event.type);
  if (after) return `⏱${after[1]}`;
  return event.type;
}

function activeNodes(s: AnyMachineSnapshot): AnyStateNode[] {
  return (s as unknown as { _nodes: AnyStateNode[] })._nodes;
}

/** The events the world may send in snapshot `s` (the machine's `can` keeps only those it takes). */
function candidates(model: BrowserModel, cache: Map<string, EventObject[]>, s: AnyMachineSnapshot, ended: WeakSet<object>): EventObject[] {
  if (ended.has(s)) return [];
  const out: EventObject[] = [...model.userEvents];
  const children = s.children as Record<string, unknown>;
  const make = (key: string, build: () => EventObject): EventObject => {
    let list = cache.get(key);
    if (!list) cache.set(key, (list = [build()]));
    return list[0]!;
  };
  for (const id of Object.keys(children)) {
    for (const cb of model.callbacks?.[id] ?? []) out.push(make(`cb:${id}:${cb.label}`, () => labelled({ ...cb.event }, `⇠${id}:${cb.label}`)));
    const o = model.outcomes[id];
    // `in`: an answer the server gives only in that state (e.g. a just-made order is never approved yet).
    for (const d of o?.done ?? []) {
      if (d.in && !holds(d.in, s)) continue;
      out.push(make(`done:${id}:${d.label}`, () => labelled({ type: `xstate.done.actor.${id}`, output: d.output } as EventObject, `✓${id}:${d.label}`)));
    }
    for (const raw of o?.error ?? []) {
      const e = typeof raw === 'string' ? { label: raw } : raw;
      if (e.in && !holds(e.in, s)) continue;
      out.push(make(`error:${id}:${e.label}`, () => labelled({ type: `xstate.error.actor.${id}`, error: 'error' in e && e.error !== undefined ? e.error : new Error(e.label) } as EventObject, `✗${id}:${e.label}`)));
    }
  }
  for (const node of activeNodes(s)) for (const t of node.after) out.push(make(`after:${t.eventType}`, () => ({ type: t.eventType })));
  return out.filter((e) => (model.filter ? model.filter(s, e) : true) && s.can(e));
}

const serialize = (s: AnyMachineSnapshot, ended?: WeakSet<object>) => `${ended?.has(s) ? 'rest:' : ''}${s.status}:${JSON.stringify(s.value)}:${JSON.stringify(s.context)}`;

/**
 * The machine as walked: with `rest`, every snapshot a transition leads back to `rest` is marked
 * ended (a path's end), so the return is a state of its own and is not taken for the start.
 */
function walkLogic(model: BrowserModel, ended: WeakSet<object>): AnyStateMachine {
  const { machine, rest } = model;
  if (rest === undefined) return machine;
  const logic = Object.create(machine) as AnyStateMachine;
  logic.transition = ((s: AnyMachineSnapshot, e: EventObject, scope: unknown) => {
    const next = (machine.transition as (...a: unknown[]) => AnyMachineSnapshot).call(machine, s, e, scope);
    if (holds(rest, next)) ended.add(next);
    return next;
  }) as AnyStateMachine['transition'];
  return logic;
}

type RawStep = { event: EventObject; state: AnyMachineSnapshot };

/** The state nodes a path settles in (a transient state, left at once by an `always`, lies on every path to where it leads). */
function statesOf(steps: RawStep[]): Set<string> {
  const seen = new Set<string>();
  for (const st of steps) for (const n of activeNodes(st.state)) seen.add(n.id);
  return seen;
}

export function browserPaths(model: BrowserModel): BrowserPath[] {
  const cache = new Map<string, EventObject[]>();
  const ended = new WeakSet<object>();
  const logic = walkLogic(model, ended);
  const isFinal = (s: AnyMachineSnapshot) => s.status === 'done' || ended.has(s);
  const options = {
    input: model.input,
    events: (s: AnyMachineSnapshot) => candidates(model, cache, s, ended),
    serializeState: (s: AnyMachineSnapshot) => serialize(s, ended),
    limit: 5000,
  };
  const shortest = getShortestPaths(logic, options as never) as unknown as { state: AnyMachineSnapshot; steps: RawStep[] }[];
  const onwardCache = new Map<string, RawStep[]>();
  /** The shortest way from `from` to a final state (its steps, without the start). */
  const onward = (from: AnyMachineSnapshot): RawStep[] => {
    const key = serialize(from, ended);
    const known = onwardCache.get(key);
    if (known) return known;
    if (isFinal(from)) return [];
    const found = getShortestPaths(logic, { ...options, fromState: from, toState: isFinal } as never) as unknown as { state: AnyMachineSnapshot; steps: RawStep[] }[];
    const best = found.filter((o) => isFinal(o.state)).sort((a, b) => a.steps.length - b.steps.length)[0];
    if (!best) throw new Error(`${model.machine.id}: no way from ${key} to a final state with the outcomes the browser can produce`);
    const rest = best.steps.filter((st) => st.event.type !== 'xstate.init');
    onwardCache.set(key, rest);
    return rest;
  };
  // The shortest path to each state, extended by every event taken there and completed to a final
  // state, so every state and every transition of the graph lies on some complete path.
  const complete: RawStep[][] = [];
  for (const p of shortest) {
    const steps = p.steps.length ? p.steps : [{ event: { type: 'xstate.init' }, state: p.state }];
    complete.push([...steps, ...onward(p.state)]);
    if (p.state.status !== 'active' || isFinal(p.state)) continue;
    for (const event of candidates(model, cache, p.state, ended)) {
      const [next] = transition(logic, p.state as never, event as never) as unknown as [AnyMachineSnapshot];
      complete.push([...steps, { event, state: next }, ...onward(next)]);
    }
  }
  // Greedy cover of the abstract states, state nodes and transitions (state + event label) by complete paths.
  // Covered by state value, not context: the context only steers the walk (guards).
  const valueOf = (st: RawStep) => `${st.state.status}:${JSON.stringify(st.state.value)}`;
  // Self-loops (typing in a form, an invalid submit) are walked when on the way, not sought out,
  // unless the model names them in `seek`.
  const edges = (steps: RawStep[]) =>
    steps
      .slice(1)
      .map((st, i) => [valueOf(steps[i]!), labelOf(st.event), valueOf(st)] as const)
      .filter(([from, label, to]) => from !== to || (model.seek?.includes(label) ?? false))
      .map(([from, label, to]) => `${from} --${label}--> ${to}`);
  const keysOf = (steps: RawStep[]) => new Set([...steps.map(valueOf), ...statesOf(steps), ...(model.cover === 'states' ? [] : edges(steps))]);
  const keyed = complete.map((steps) => ({ steps, keys: keysOf(steps) }));
  const uncovered = new Set(keyed.flatMap((k) => [...k.keys]));
  const chosen: RawStep[][] = [];
  // Each final state (each outcome) first by its own shortest path, then the fewest more to cover the rest.
  const finals = new Set<string>();
  for (const p of [...shortest].sort((a, b) => a.steps.length - b.steps.length)) {
    if (!isFinal(p.state)) continue;
    const value = JSON.stringify(p.state.value);
    if (finals.has(value)) continue;
    finals.add(value);
    chosen.push(p.steps);
    for (const k of keysOf(p.steps)) uncovered.delete(k);
  }
  while (uncovered.size) {
    keyed.sort((a, b) => gain(b.keys) - gain(a.keys) || a.steps.length - b.steps.length);
    const best = keyed.shift()!;
    if (gain(best.keys) === 0) break;
    chosen.push(best.steps);
    for (const k of best.keys) uncovered.delete(k);
  }
  function gain(keys: Set<string>): number {
    let n = 0;
    for (const k of keys) if (uncovered.has(k)) n++;
    return n;
  }
  return chosen
    .map((steps) => {
      const out: BrowserStep[] = steps.map((st, i) => ({ label: i === 0 ? 'start' : labelOf(st.event), event: st.event, state: st.state, value: JSON.stringify(st.state.value), final: isFinal(st.state) }));
      const last = out.at(-1)!;
      return { steps: out, title: `${out.slice(1).map((s) => s.label).join(' → ')} ⇒ ${last.value.replace(/"/g, '')}` };
    })
    .sort((a, b) => a.title.localeCompare(b.title));
}
