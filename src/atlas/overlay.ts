/**
 * What the atlas draws on a chart (an inline SVG of docs/machines): the tests' coverage, and a
 * running actor's state. Works on the drawing's data attributes only: `data-state` / `data-path`
 * on states, `data-transition` (the coverage key), `data-event`, `data-source`, `data-targets` on
 * transitions.
 */

/** .test-reports/machines-report.json (npm run machines:report): what the model tests walked. */
export interface ModelReport {
  generatedAt?: string;
  machines: Record<string, { file?: string; walkedStates: string[]; walkedTransitions: string[] }>;
}

/** .test-reports/e2e-report.json (npm run e2e:report): what the browser engine walked, and the named gaps. */
export interface E2eReport {
  generatedAt?: string;
  tests?: number;
  machines: Record<string, { tests?: number; walkedStates: string[]; walkedTransitions: string[] }>;
  knownGaps?: Record<string, string>;
}

export type Walked = 'both' | 'model' | 'browser' | 'never';

export function walkedIn(key: string, model: Set<string>, browser: Set<string>): Walked {
  const m = model.has(key);
  const b = browser.has(key);
  return m && b ? 'both' : m ? 'model' : b ? 'browser' : 'never';
}

export interface CoverageSummary {
  transitions: Record<Walked, number>;
  states: Record<Walked, number>;
  gaps: { state: string; reason: string }[];
  hasModel: boolean;
  hasBrowser: boolean;
}

const COVERAGE_CLASSES = ['cov-both', 'cov-model', 'cov-browser', 'cov-never'];

export function clearCoverage(svg: Element): void {
  for (const el of svg.querySelectorAll('.cov-both, .cov-model, .cov-browser, .cov-never, .gap')) el.classList.remove(...COVERAGE_CLASSES, 'gap');
  for (const el of svg.querySelectorAll('.gap-badge')) el.remove();
}

/**
 * Colours every transition and state of the chart by where it was walked (both, model tests
 * only, browser only, never) and marks the named gaps with their reason. Returns the counts.
 */
export function applyCoverage(svg: Element, machine: string, model: ModelReport | null, e2e: E2eReport | null): CoverageSummary {
  clearCoverage(svg);
  const m = model?.machines[machine];
  const b = e2e?.machines[machine];
  const mt = new Set(m?.walkedTransitions ?? []);
  const bt = new Set(b?.walkedTransitions ?? []);
  const ms = new Set(m?.walkedStates ?? []);
  const bs = new Set(b?.walkedStates ?? []);
  const zero = (): Record<Walked, number> => ({ both: 0, model: 0, browser: 0, never: 0 });
  const summary: CoverageSummary = { transitions: zero(), states: zero(), gaps: [], hasModel: !!m, hasBrowser: !!b };
  const seen = new Set<string>();
  for (const el of svg.querySelectorAll('[data-transition]')) {
    const key = el.getAttribute('data-transition')!;
    const w = walkedIn(key, mt, bt);
    el.classList.add(`cov-${w}`);
    if (!seen.has(key)) {
      seen.add(key);
      summary.transitions[w] += 1;
    }
  }
  const ns = 'http://www.w3.org/2000/svg';
  for (const el of svg.querySelectorAll('g.state[data-state]')) {
    const id = el.getAttribute('data-state')!;
    const w = walkedIn(id, ms, bs);
    el.classList.add(`cov-${w}`);
    summary.states[w] += 1;
    const reason = e2e?.knownGaps?.[id];
    if (reason) {
      el.classList.add('gap');
      summary.gaps.push({ state: id, reason });
      const box = el.querySelector('rect.box');
      if (box) {
        // just above the box's right corner, clear of its name
        const x = Number(box.getAttribute('x')) + Number(box.getAttribute('width'));
        const y = Number(box.getAttribute('y')) - 3;
        const badge = svg.ownerDocument.createElementNS(ns, 'text');
        badge.setAttribute('class', 'gap-badge');
        badge.setAttribute('x', String(x));
        badge.setAttribute('y', String(y));
        badge.setAttribute('text-anchor', 'end');
        badge.textContent = 'known gap';
        const title = svg.ownerDocument.createElementNS(ns, 'title');
        title.textContent = `known gap: ${reason}`;
        badge.append(title);
        el.append(badge);
      }
    }
  }
  return summary;
}

/** The state paths (`''` the root, `paying`, `paying.bankTransfer`) a state value makes active. */
export function activePaths(value: unknown, prefix: string[] = []): Set<string> {
  const out = new Set<string>([prefix.join('.')]);
  if (typeof value === 'string') out.add([...prefix, value].join('.'));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) for (const p of activePaths(v, [...prefix, k])) out.add(p);
  }
  return out;
}

/**
 * The transitions of the chart an event took from `before` to `after` (read from the snapshots):
 * the event's transitions out of a state active before into states active after, and the eventless
 * ones out of states entered and left in the same step (a transient state such as a router): their
 * sources count as reached for the event's targets.
 */
export function firedTransitions(svg: Element, eventType: string, before: Set<string>, after: Set<string>): Element[] {
  const pathOf = new Map<string, string>();
  for (const el of svg.querySelectorAll('g.state[data-state]')) pathOf.set(el.getAttribute('data-state')!, el.getAttribute('data-path') ?? '');
  const all = [...svg.querySelectorAll('[data-transition]')].map((el) => {
    const sourceId = el.getAttribute('data-source') ?? el.closest('g.state')?.getAttribute('data-state') ?? '';
    return {
      el,
      event: el.getAttribute('data-event') ?? '',
      source: pathOf.get(sourceId),
      targets: (el.getAttribute('data-targets') ?? '').split(' ').filter(Boolean).map((t) => pathOf.get(t) ?? '\u0000'),
    };
  });
  const fired = new Set<Element>();
  // eventless transitions through transient states, to a fixpoint (a chain of them)
  const transient = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const t of all) {
      if (t.event || t.source === undefined || t.targets.length === 0 || fired.has(t.el) || after.has(t.source)) continue;
      if (t.targets.every((p) => after.has(p) || transient.has(p)) && t.targets.some((p) => !before.has(p))) {
        fired.add(t.el);
        transient.add(t.source);
        changed = true;
      }
    }
  }
  const eventFired: Element[] = [];
  for (const t of all) {
    if (!t.event || t.event !== eventType || t.source === undefined || !before.has(t.source)) continue;
    if (t.targets.length === 0 ? after.has(t.source) : t.targets.every((p) => after.has(p) || transient.has(p))) eventFired.push(t.el);
  }
  // of those eventless ones, only the ones the event led to: out of a state it entered (or one inside
  // it), or out of the state it stayed in (a targetless transition); all of them at the start
  const frontier = before.size === 0 ? [''] : eventFired.flatMap((el) => {
    const t = all.find((a) => a.el === el)!;
    return t.targets.length ? t.targets : [t.source!];
  });
  const within = (p: string) => frontier.some((f) => f === '' || p === f || p.startsWith(`${f}.`));
  const kept: Element[] = [];
  for (let changed = true; changed; ) {
    changed = false;
    for (const el of fired) {
      const t = all.find((a) => a.el === el)!;
      if (kept.includes(el) || !within(t.source!)) continue;
      kept.push(el);
      frontier.push(...t.targets);
      changed = true;
    }
  }
  return [...eventFired, ...kept];
}

export function showLive(svg: Element, active: Set<string>, fired: Element[]): void {
  for (const el of svg.querySelectorAll('.active, .fired')) el.classList.remove('active', 'fired');
  for (const el of svg.querySelectorAll('g.state[data-path]')) if (active.has(el.getAttribute('data-path') ?? '')) el.classList.add('active');
  for (const el of fired) el.classList.add('fired');
}
