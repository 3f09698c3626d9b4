/**
 * What the app's machines did in the browser. The init script defines `window.__E2E_INSPECT__`
 * (picked up by src/api/actor-options.ts as the inspector of every root actor, so children such
 * as the payment machines are seen too); each microstep and snapshot of a state machine is sent
 * to the test (`__e2eRecord`, a Playwright binding that survives navigations; with the other
 * records of the same task): the
 * machine id and actor, the state value, the active state nodes, the event and the transitions
 * taken, keyed by the same function as the drawings, the machine tests' coverage and the engine's
 * plan (scripts/transition-key.ts, its source put into the page: `source | event #index`).
 */
import type { BrowserContext } from '@playwright/test';
import { transitionKey } from '../../../scripts/transition-key';

export interface TraceRecord {
  /** Unique per record (page + sequence): a record sent again after a navigation is kept once. */
  id: string;
  /** Machine id. */
  m: string;
  /** The actor (its page and its session id): a machine's macrosteps are grouped by it. */
  a: string;
  /** 'm': a microstep (one transition step); 's': the snapshot that ends a macrostep (an event handled). */
  k: 'm' | 's';
  /** JSON of the state value after this step. */
  v: string;
  /** Snapshot status (active, done, error). */
  s: string;
  /** Active state node ids. */
  n: string[];
  /** Transition keys taken (microsteps only). */
  t: string[];
  /** The event type (a microstep's own event; a snapshot's: the event the macrostep handled). */
  e: string;
}

/**
 * One event handled by one actor (XState's macrostep): its microsteps' transitions in order, and
 * the state value after it. `at` is the index of its closing snapshot record in the trace.
 */
export interface Macrostep {
  at: number;
  m: string;
  event: string;
  keys: string[];
  value: string;
  /** The snapshot's status after it (active, done, error). */
  status: string;
}

export interface MachineCoverage {
  states: string[];
  transitions: string[];
}

/**
 * Runs in the page before any of its scripts. Kept as a string: it is not bundled.
 *
 * Delivery survives leaving the page: a record is kept in sessionStorage until the test has
 * acknowledged it (the binding's promise resolves), and the next page of the same origin in this
 * tab (the provider's sandbox page, the thank-you page, the course page on return) sends what is
 * still kept, before its own scripts run. A record sent just before the app leaves for the
 * provider (`creatingLink → awaitingReturn` sets location.href in the same step) is otherwise lost
 * when Playwright handles the binding call after the page's context is gone, which a loaded
 * machine makes likely (Playwright drops a binding call whose execution context was destroyed).
 * Each record carries an id; MachineTrace.add drops one it already has. The records of one task
 * (an event's microsteps and snapshot) are kept and sent together, at the end of the task.
 */
export const INSPECT_INIT_SCRIPT = `(() => {
  const STORE = '__e2eTracePending';
  const page = Math.random().toString(36).slice(2) + Date.now().toString(36);
  let seq = 0;
  const load = () => {
    try { return JSON.parse(sessionStorage.getItem(STORE) || '[]'); } catch (e) { return []; }
  };
  const save = (list) => {
    try { sessionStorage.setItem(STORE, JSON.stringify(list)); } catch (e) { /* no storage: delivered by the binding alone */ }
  };
  const send = (records) => {
    if (typeof window.__e2eRecord !== 'function') return;
    window.__e2eRecord(records).then(
      () => {
        const sent = new Set(records.map((r) => r.id));
        save(load().filter((r) => !sent.has(r.id)));
      },
      () => {},
    );
  };
  // what the previous page of this tab recorded and the test did not acknowledge
  const left = load();
  if (left.length) send(left);
  // the records of the current task, not yet kept nor sent
  let batch = [];
  const flush = () => {
    const records = batch;
    batch = [];
    save(load().concat(records));
    send(records);
  };
  // scripts/transition-key.ts (the report's and the plan's key), as compiled for the test
  const key = ${transitionKey.toString()};
  window.__E2E_INSPECT__ = (ev) => {
    if (ev.type !== '@xstate.microstep' && ev.type !== '@xstate.snapshot') return;
    const snap = ev.snapshot;
    const logic = ev.actorRef && ev.actorRef.logic;
    if (!snap || !Array.isArray(snap._nodes) || !logic || typeof logic.id !== 'string') return;
    const record = {
      id: page + ':' + (seq++),
      m: logic.id,
      a: page + ':' + ev.actorRef.sessionId,
      k: ev.type === '@xstate.microstep' ? 'm' : 's',
      v: JSON.stringify(snap.value),
      s: snap.status,
      n: snap._nodes.map((n) => n.id),
      t: ev.type === '@xstate.microstep' ? (ev._transitions || []).map(key) : [],
      e: (ev.event && ev.event.type) || '',
    };
    // kept and sent once for all the records of this task (a macrostep's microsteps and its
    // snapshot): the microtask runs before the page can be left (a navigation, a reload or a
    // window closing starts in a task of its own), so a record is in sessionStorage before that
    if (!batch.length) queueMicrotask(flush);
    batch.push(record);
  };
})();`;

export class MachineTrace {
  readonly records: TraceRecord[] = [];
  private readonly seen = new Set<string>();

  add(records: TraceRecord[]): void {
    for (const r of records) {
      if (this.seen.has(r.id)) continue;
      this.seen.add(r.id);
      this.records.push(r);
    }
  }

  /** The state values machine `id` went through, in order (repeats collapsed). */
  values(id: string): string[] {
    const out: string[] = [];
    for (const r of this.records) if (r.m === id && out.at(-1) !== r.v) out.push(r.v);
    return out;
  }

  /**
   * The macrosteps of machine `id` that took a transition, in the order they ended: each actor's
   * microstep records up to its next snapshot record (an ignored event takes none and is left out).
   */
  macrosteps(id: string): Macrostep[] {
    const open = new Map<string, { keys: string[] }>();
    const out: Macrostep[] = [];
    this.records.forEach((r, at) => {
      if (r.m !== id) return;
      const acc = open.get(r.a) ?? { keys: [] };
      if (r.k === 'm') {
        acc.keys.push(...r.t);
        open.set(r.a, acc);
        return;
      }
      open.delete(r.a);
      if (acc.keys.length) out.push({ at, m: id, event: r.e, keys: acc.keys, value: r.v, status: r.s });
    });
    return out;
  }

  coverage(): Record<string, MachineCoverage> {
    const by: Record<string, { states: Set<string>; transitions: Set<string> }> = {};
    for (const r of this.records) {
      const c = (by[r.m] ??= { states: new Set(), transitions: new Set() });
      for (const n of r.n) c.states.add(n);
      for (const t of r.t) {
        c.transitions.add(t);
        // the source of a transition taken was entered, also when it was left at once (transient)
        const source = t.split(' | ')[0]!;
        const parts = source.split('.');
        for (let i = 1; i <= parts.length; i++) c.states.add(parts.slice(0, i).join('.'));
      }
    }
    return Object.fromEntries(Object.entries(by).map(([m, c]) => [m, { states: [...c.states].sort(), transitions: [...c.transitions].sort() }]));
  }
}

/**
 * Records another browser context of the test (a second browser, e.g. the buyer back later with
 * no session) into the same trace, as the `machines` fixture does for the test's own context.
 */
export async function traceContext(context: BrowserContext, trace: MachineTrace): Promise<void> {
  await context.exposeBinding('__e2eRecord', (_source, records: TraceRecord[]) => trace.add(records));
  await context.addInitScript(INSPECT_INIT_SCRIPT);
}
