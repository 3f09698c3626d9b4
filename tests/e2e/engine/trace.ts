/**
 * What the app's machines did in the browser. The init script defines `window.__E2E_INSPECT__`
 * (picked up by src/api/actor-options.ts as the inspector of every root actor, so children such
 * as the payment machines are seen too); each microstep and snapshot of a state machine is sent
 * at once to the test (`__e2eRecord`, a Playwright binding that survives navigations): the
 * machine id, the state value, the active state nodes and the transitions taken, keyed exactly as
 * tests/machines/support/coverage.ts keys them (`source | event #index`).
 */

export interface TraceRecord {
  /** Machine id. */
  m: string;
  /** JSON of the state value after this step. */
  v: string;
  /** Snapshot status (active, done, error). */
  s: string;
  /** Active state node ids. */
  n: string[];
  /** Transition keys taken (microsteps only). */
  t: string[];
  /** The event type. */
  e: string;
}

export interface MachineCoverage {
  states: string[];
  transitions: string[];
}

/** Runs in the page before any of its scripts. Kept as a string: it is not bundled. */
export const INSPECT_INIT_SCRIPT = `(() => {
  const key = (t) => {
    const s = t.source;
    const always = s.always || [];
    const i = always.indexOf(t);
    if (i >= 0) return s.id + ' | always #' + i;
    const list = (s.transitions && s.transitions.get(t.eventType)) || [];
    return s.id + ' | ' + t.eventType + ' #' + list.indexOf(t);
  };
  window.__E2E_INSPECT__ = (ev) => {
    if (ev.type !== '@xstate.microstep' && ev.type !== '@xstate.snapshot') return;
    const snap = ev.snapshot;
    const logic = ev.actorRef && ev.actorRef.logic;
    if (!snap || !Array.isArray(snap._nodes) || !logic || typeof logic.id !== 'string') return;
    const record = {
      m: logic.id,
      v: JSON.stringify(snap.value),
      s: snap.status,
      n: snap._nodes.map((n) => n.id),
      t: ev.type === '@xstate.microstep' ? (ev._transitions || []).map(key) : [],
      e: (ev.event && ev.event.type) || '',
    };
    if (typeof window.__e2eRecord === 'function') window.__e2eRecord([record]).catch(() => {});
  };
})();`;

export class MachineTrace {
  readonly records: TraceRecord[] = [];

  add(records: TraceRecord[]): void {
    this.records.push(...records);
  }

  /** The state values machine `id` went through, in order (repeats collapsed). */
  values(id: string): string[] {
    const out: string[] = [];
    for (const r of this.records) if (r.m === id && out.at(-1) !== r.v) out.push(r.v);
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
