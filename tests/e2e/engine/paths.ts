/**
 * Browser paths from a machine's graph (xstate/graph): the machine is walked with the events the
 * page can send and, for each invoked actor, the outcomes the real server and its sandboxes can
 * produce (each labelled, e.g. `✓getOrder:approved`, `✗getOrder:network`), plus the machine's
 * delays. The shortest path to every abstract state, and each of those extended by every event
 * taken there, is completed by the shortest way on to a final state; a greedy cover then keeps the
 * fewest complete paths that together take every state node, every transition (keyed as the
 * browser trace and `npm run e2e:report` key them: cover.ts replays each candidate against the
 * real machine) and every event label (each answer, failure and user action the map knows is
 * walked at least once). Every final outcome is a state node, so each outcome gets its path.
 *
 * The plan costs seconds of CPU (the whole graph walked, each candidate replayed); `enginePaths`
 * keeps it in a file keyed by the sources it depends on, so a test run computes it once (in
 * Playwright's runner, which loads the spec to list its tests) and its workers rebuild the same
 * paths from the file by replaying their labels, each step checked against the recorded state.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { plannedSteps } from './cover';

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
   * What the chosen paths must cover together: 'transitions' (default: every state node, every
   * transition and every event label), or 'states' (every state node and abstract state; for a flow
   * whose methods' transitions are walked by their own machines' paths, to keep the suite's time down).
   */
  cover?: 'states' | 'transitions';
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
  // Greedy cover of what the browser report counts: the state nodes, and the transitions as the
  // page's trace keys them (each candidate replayed against the real machine, cover.ts), plus every
  // event label (each outcome and user action the map knows, walked at least once). Two paths that
  // take the same transitions through other combinations of a parallel machine's regions, or with
  // other context, are one: the context only steers the walk (guards).
  const valueOf = (st: RawStep) => `${st.state.status}:${JSON.stringify(st.state.value)}`;
  const transitionsOf = (steps: RawStep[]) => plannedSteps(model, { steps: steps.map((st) => ({ event: st.event })) } as unknown as BrowserPath).flatMap((p) => p.keys);
  const keysOf = (steps: RawStep[]) =>
    new Set(model.cover === 'states' ? [...steps.map(valueOf), ...statesOf(steps)] : [...statesOf(steps), ...transitionsOf(steps), ...steps.slice(1).map((st) => `label ${labelOf(st.event)}`)]);
  // the same complete path is often made more than once (the shortest path to a state, completed, is that to the next one)
  const distinct = new Map<string, RawStep[]>();
  for (const steps of complete) {
    const id = steps.map((st) => `${labelOf(st.event)}>${serialize(st.state, ended)}`).join('\n');
    if (!distinct.has(id)) distinct.set(id, steps);
  }
  const keyed = [...distinct.values()].map((steps) => ({ steps, keys: keysOf(steps) }));
  const uncovered = new Set(keyed.flatMap((k) => [...k.keys]));
  const chosen: RawStep[][] = [];
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

/** The sources a plan depends on: the machines, what they and the maps import, the engine and its maps, the machine models, XState. */
const PLAN_SOURCES = ['machines', 'domain', 'src/i18n', 'tests/e2e/engine', 'tests/e2e/support.ts', 'tests/machines/models', 'tests/machines/support', 'scripts/transition-key.ts', 'node_modules/xstate/package.json'];
const PLAN_CACHE = 'node_modules/.cache/course-e2e-paths';

let planHash: string | undefined;
function sourcesHash(): string {
  if (planHash) return planHash;
  const h = createHash('sha256');
  const add = (file: string) => h.update(file).update('\0').update(readFileSync(file)).update('\0');
  for (const src of PLAN_SOURCES) {
    if (!existsSync(src)) continue;
    if (statSync(src).isFile()) add(src);
    else for (const f of (readdirSync(src, { recursive: true }) as string[]).sort()) if (/\.(ts|mjs|js|json)$/.test(f) && statSync(join(src, f)).isFile()) add(join(src, f));
  }
  return (planHash = h.digest('hex').slice(0, 16));
}

/** A path as kept in the file: its labels and, to check the rebuild, the state value after each. */
type StoredPath = { labels: string[]; values: string[] };

/** The path again from its labels: each step's event is the candidate with that label in the state reached (as browserPaths made it). */
function rebuild(model: BrowserModel, stored: StoredPath): BrowserPath | undefined {
  const cache = new Map<string, EventObject[]>();
  const ended = new WeakSet<object>();
  const logic = walkLogic(model, ended);
  const [first] = initialTransition(logic, model.input as never) as unknown as [AnyMachineSnapshot];
  const steps: BrowserStep[] = [{ label: 'start', event: { type: 'xstate.init' }, state: first, value: JSON.stringify(first.value), final: false }];
  for (const label of stored.labels.slice(1)) {
    const from = steps.at(-1)!.state;
    const event = candidates(model, cache, from, ended).find((e) => labelOf(e) === label);
    if (!event) return undefined;
    const [state] = transition(logic, from as never, event as never) as unknown as [AnyMachineSnapshot];
    steps.push({ label, event, state, value: JSON.stringify(state.value), final: state.status === 'done' || ended.has(state) });
  }
  if (steps.map((s) => s.value).join('\n') !== stored.values.join('\n')) return undefined;
  const last = steps.at(-1)!;
  return { steps, title: `${steps.slice(1).map((s) => s.label).join(' → ')} ⇒ ${last.value.replace(/"/g, '')}` };
}

/**
 * browserPaths, kept in node_modules/.cache/course-e2e-paths/<hash of the sources>.json under
 * `name` (a map's id and variant): computed by the first process of a run that needs it, rebuilt
 * from the file by the others. A file that no longer rebuilds the same states is computed again.
 */
export function enginePaths(model: BrowserModel, name: string): BrowserPath[] {
  const file = join(PLAN_CACHE, `${sourcesHash()}.json`);
  let stored: Record<string, StoredPath[]> = {};
  try {
    stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, StoredPath[]>;
  } catch {
    // not made yet (or half written by a process that was stopped): computed below
  }
  const kept = stored[name]?.map((p) => rebuild(model, p));
  if (kept?.length && kept.every((p) => p !== undefined)) return kept as BrowserPath[];
  const paths = browserPaths(model);
  let now: Record<string, StoredPath[]> = {};
  try {
    now = JSON.parse(readFileSync(file, 'utf8')) as Record<string, StoredPath[]>;
  } catch {
    // first map of the file
  }
  now[name] = paths.map((p) => ({ labels: p.steps.map((s) => s.label), values: p.steps.map((s) => s.value) }));
  try {
    mkdirSync(PLAN_CACHE, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(now));
    renameSync(tmp, file);
  } catch (err) {
    // a folder that cannot be written (read-only node_modules): every process computes its own
    console.warn(`[e2e] the engine's plan is not kept (${String(err)})`);
  }
  return paths;
}
