/**
 * The flow atlas: every machine's statechart (docs/machines, `npm run machines:draw`), searchable;
 * the app's running actors live on their charts (the current state highlighted, the last event's
 * transition animated, the context inspectable), fed by the inspection stream — a
 * BroadcastChannel from app tabs opened with `?inspect=atlas`, or the local WebSocket inspector
 * server (`?inspect=ws`); and the tests' coverage on the charts (.test-reports, read through
 * /__atlas/reports). A developer page: `npm run dev` and the demo shop (`npm start`) serve it at
 * /__atlas/, a production server never does (server/web/atlas.ts). English only, not buyer-facing.
 */
import './atlas.css';
import { CHARTS, chartMeta } from './charts';
import { LiveActors, listenBroadcast, listenWebSocket, type LiveActor } from './live';
import { activePaths, applyCoverage, clearCoverage, firedTransitions, showLive, type CoverageSummary, type E2eReport, type ModelReport } from './overlay';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const params = new URLSearchParams(location.search);

const state = {
  machine: decodeURIComponent(/machine=([^&]+)/.exec(location.hash)?.[1] ?? '') || (CHARTS.checkout ? 'checkout' : (Object.keys(CHARTS)[0] ?? '')),
  query: params.get('q') ?? '',
  coverage: params.get('coverage') === '1',
  follow: true,
  zoom: 0,
  /** A live actor chosen in the list (else the latest of the shown machine). */
  pinned: null as string | null,
  model: null as ModelReport | null,
  e2e: null as E2eReport | null,
  wsStatus: '',
};

const live = new LiveActors();
const machines = Object.keys(CHARTS).sort();
const chartText = new Map(machines.map((m) => [m, CHARTS[m]!.replace(/<[^>]+>/g, ' ').toLowerCase()]));

const root = document.getElementById('atlas')!;
root.innerHTML = `
<div class="atlas">
  <header>
    <h1>Flow atlas</h1>
    <input type="search" id="q" placeholder="Search machines, states, events…" aria-label="Search machines, states and events" />
    <label><input type="checkbox" id="coverage" /> coverage</label>
    <label><input type="checkbox" id="follow" checked /> follow live</label>
    <span><button id="zoom-out" title="Zoom out">−</button> <button id="zoom-fit" title="Fit the width">fit</button> <button id="zoom-in" title="Zoom in">+</button></span>
    <label class="ws">inspector server <input id="ws" placeholder="ws://localhost:8088" /></label>
    <span class="status" id="status"></span>
  </header>
  <aside>
    <h2>Machines</h2>
    <ul id="machines"></ul>
    <h2>Live actors</h2>
    <ul id="actors" data-testid="live-actors"></ul>
    <p class="hint" id="live-hint">Open the shop in another tab with <code>?inspect=atlas</code> (e.g. <code>/course/1?inspect=atlas</code>): its machines show here as they run.</p>
  </aside>
  <main id="main"><div class="chart-head" id="chart-head"></div><div class="chart" id="chart"></div></main>
  <section class="panel">
    <h2>Live</h2>
    <div id="live"></div>
    <h2>Coverage</h2>
    <div id="coverage-panel"></div>
  </section>
</div>`;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const qInput = $<HTMLInputElement>('q');
const covInput = $<HTMLInputElement>('coverage');
const followInput = $<HTMLInputElement>('follow');
const wsInput = $<HTMLInputElement>('ws');
const chartBox = $<HTMLDivElement>('chart');
const mainBox = $<HTMLElement>('main');
qInput.value = state.query;
covInput.checked = state.coverage;

function svgEl(): SVGSVGElement | null {
  return chartBox.querySelector('svg');
}

// ---------------------------------------------------------------------------------------------

function matches(machine: string, q: string): boolean {
  if (!q) return true;
  const s = q.toLowerCase();
  return machine.toLowerCase().includes(s) || (chartText.get(machine) ?? '').includes(s);
}

function renderMachines(): void {
  const q = state.query.trim();
  $('machines').innerHTML = machines
    .filter((m) => matches(m, q))
    .map((m) => {
      const meta = chartMeta(CHARTS[m]!);
      const running = [...live.actors.values()].some((a) => a.machine === m && a.status === 'active');
      return `<li><button data-machine="${esc(m)}" aria-current="${m === state.machine}">${esc(m)}${running ? '<span class="live-dot" title="running"></span>' : ''}<small>${esc(meta?.file ?? '')}</small></button></li>`;
    })
    .join('') || '<li class="hint">No machine matches.</li>';
}

function renderActors(): void {
  const list = [...live.actors.values()].filter((a) => a.machine);
  $('live-hint').hidden = list.length > 0;
  $('actors').innerHTML = list
    .map((a) => {
      const current = (state.pinned ?? live.latestOf(state.machine)?.sessionId) === a.sessionId;
      return `<li><button data-session="${esc(a.sessionId)}" data-machine="${esc(a.machine!)}" aria-current="${current}">${esc(a.name)}${a.status === 'active' ? '<span class="live-dot"></span>' : ''}<small>${esc(a.machine!)} · ${esc(JSON.stringify(a.value) ?? '')} · ${esc(a.status)}</small></button></li>`;
    })
    .join('');
}

function jsonTree(value: unknown, key: string | null, depth: number): string {
  const k = key === null ? '' : `<span class="k">${esc(key)}</span>: `;
  if (value === null || typeof value !== 'object') {
    const cls = typeof value === 'string' ? 's' : 'n';
    return `<div>${k}<span class="${cls}">${esc(JSON.stringify(value) ?? 'undefined')}</span></div>`;
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
  const label = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  if (entries.length === 0) return `<div>${k}${Array.isArray(value) ? '[]' : '{}'}</div>`;
  return `<details${depth < 1 ? ' open' : ''}><summary>${k}${label}</summary>${entries.map(([kk, v]) => jsonTree(v, kk, depth + 1)).join('')}</details>`;
}

function shownActor(): LiveActor | null {
  if (state.pinned) {
    const a = live.actors.get(state.pinned);
    if (a && a.machine === state.machine) return a;
  }
  return live.latestOf(state.machine);
}

function renderLive(): void {
  const svg = svgEl();
  const actor = shownActor();
  const box = $('live');
  if (!svg) return;
  if (!actor) {
    showLive(svg, new Set(), []);
    box.innerHTML = `<p class="hint">No running <b>${esc(state.machine)}</b> actor seen yet.</p>`;
    return;
  }
  const after = activePaths(actor.value);
  const before = actor.previousValue === undefined ? new Set<string>() : activePaths(actor.previousValue);
  const eventType = actor.lastEvent?.type ?? '';
  const fired = firedTransitions(svg, eventType, before, after);
  showLive(svg, after, fired);
  const firedKeys = [...new Set(fired.map((f) => f.getAttribute('data-transition')))];
  box.innerHTML = `
    <dl data-testid="live-summary">
      <dt>actor</dt><dd>${esc(actor.name)} <small>(${esc(actor.sessionId)})</small></dd>
      <dt>state</dt><dd data-testid="live-state">${esc(JSON.stringify(actor.value) ?? '')}</dd>
      <dt>status</dt><dd>${esc(actor.status)}</dd>
      <dt>event</dt><dd data-testid="live-event">${esc(eventType)}</dd>
      <dt>took</dt><dd data-testid="live-fired">${firedKeys.map((k) => esc(k ?? '')).join('<br>') || '—'}</dd>
    </dl>
    <h2>Events received</h2>
    <ul class="events">${actor.events
      .slice(-30)
      .reverse()
      .map((e) => `<li>${esc(e.type)}${e.source ? ` <small>from ${esc(live.actors.get(e.source)?.name ?? e.source)}</small>` : ''}</li>`)
      .join('')}</ul>
    <h2>Context</h2>
    <div class="json" data-testid="live-context">${jsonTree(actor.context, null, 0)}</div>`;
  if (state.follow) {
    const deepest = [...svg.querySelectorAll('g.state.active')].pop();
    deepest?.querySelector('rect.box')?.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'smooth' });
  }
}

function legend(s: CoverageSummary): string {
  const rows: [string, string, number][] = [
    ['#16a34a', 'walked by the model tests and the browser', s.transitions.both],
    ['#d97706', 'model tests only', s.transitions.model],
    ['#2563eb', 'browser only', s.transitions.browser],
    ['#dc2626', 'never walked', s.transitions.never],
  ];
  return `<ul class="legend" data-testid="coverage-legend">${rows
    .map(([c, t, n], i) => `<li data-walked="${['both', 'model', 'browser', 'never'][i]}"><span class="swatch" style="border-color:${c}"></span><b>${n}</b> ${t}</li>`)
    .join('')}</ul>`;
}

function renderCoverage(): void {
  const svg = svgEl();
  const panel = $('coverage-panel');
  mainBox.classList.toggle('coverage', state.coverage);
  if (!svg) return;
  if (!state.coverage) {
    clearCoverage(svg);
    panel.innerHTML = '<p class="hint">Tick “coverage” to colour the transitions by the tests that walked them.</p>';
    return;
  }
  const s = applyCoverage(svg, state.machine, state.model, state.e2e);
  const hints: string[] = [];
  if (!state.model) hints.push('No model-test report: run <code>npm run machines:report</code>.');
  else if (!s.hasModel) hints.push(`The model-test report has no ${esc(state.machine)}.`);
  if (!state.e2e) hints.push('No browser report: run the browser tests, then <code>npm run e2e:report</code>.');
  else if (!s.hasBrowser) hints.push(`No browser test walked ${esc(state.machine)}.`);
  const when = [state.model?.generatedAt && `model tests ${esc(state.model.generatedAt)}`, state.e2e?.generatedAt && `browser ${esc(state.e2e.generatedAt)} (${state.e2e.tests ?? 0} tests)`].filter(Boolean).join('<br>');
  panel.innerHTML = `${legend(s)}
    <p class="hint">States: ${s.states.both} both, ${s.states.model} model only, ${s.states.browser} browser only, ${s.states.never} never.</p>
    ${s.gaps.length ? `<h2>Known gaps</h2><ul class="gaps" data-testid="coverage-gaps">${s.gaps.map((g) => `<li><code>${esc(g.state)}</code>: ${esc(g.reason)}</li>`).join('')}</ul>` : ''}
    ${hints.map((h) => `<p class="hint">${h}</p>`).join('')}
    ${when ? `<p class="hint">${when}</p>` : ''}
    <button id="reload-reports">reload the reports</button>`;
}

function applyZoom(): void {
  const svg = svgEl();
  if (!svg) return;
  const w = Number(svg.getAttribute('width'));
  const h = Number(svg.getAttribute('height'));
  if (!state.zoom) state.zoom = Math.max(0.6, Math.min(1, (mainBox.clientWidth - 24) / w));
  svg.style.width = `${Math.round(w * state.zoom)}px`;
  svg.style.height = `${Math.round(h * state.zoom)}px`;
}

function markMatches(): void {
  const svg = svgEl();
  if (!svg) return;
  for (const el of svg.querySelectorAll('.match')) el.classList.remove('match');
  const q = state.query.trim().toLowerCase();
  if (!q) return;
  for (const el of svg.querySelectorAll('g.state, g.transition, text.transition-line')) {
    const own = el.matches('g.state') ? [...el.querySelectorAll(':scope > text')].map((t) => t.textContent).join(' ') : el.textContent;
    if ((own ?? '').toLowerCase().includes(q)) el.classList.add('match');
  }
}

function renderChart(): void {
  const svgText = CHARTS[state.machine];
  const meta = svgText ? chartMeta(svgText) : null;
  $('chart-head').innerHTML = svgText
    ? `<b>${esc(state.machine)}</b> <code>${esc(meta?.file ?? '')}</code> <a href="#machine=${encodeURIComponent(state.machine)}">link</a>`
    : '';
  chartBox.innerHTML = svgText ?? '<p class="empty">No drawings: run <code>npm run machines:draw</code>.</p>';
  state.zoom = 0;
  applyZoom();
  markMatches();
  renderCoverage();
  renderLive();
}

function selectMachine(m: string): void {
  if (!CHARTS[m]) return;
  if (m !== state.machine) state.pinned = null;
  state.machine = m;
  history.replaceState(null, '', `${location.pathname}${location.search}#machine=${encodeURIComponent(m)}`);
  renderMachines();
  renderActors();
  renderChart();
}

// ---------------------------------------------------------------------------------------------

async function loadReports(): Promise<void> {
  const get = async <T>(name: string): Promise<T | null> => {
    try {
      const r = await fetch(`reports/${name}`, { cache: 'no-store' });
      return r.ok ? ((await r.json()) as T) : null;
    } catch {
      return null;
    }
  };
  [state.model, state.e2e] = await Promise.all([get<ModelReport>('machines.json'), get<E2eReport>('e2e.json')]);
  renderCoverage();
}

$('machines').addEventListener('click', (e) => {
  const b = (e.target as HTMLElement).closest('button[data-machine]');
  if (b) selectMachine(b.getAttribute('data-machine')!);
});
$('actors').addEventListener('click', (e) => {
  const b = (e.target as HTMLElement).closest('button[data-session]');
  if (!b) return;
  state.pinned = b.getAttribute('data-session');
  selectMachine(b.getAttribute('data-machine')!);
});
$('coverage-panel').addEventListener('click', (e) => {
  if ((e.target as HTMLElement).id === 'reload-reports') void loadReports();
});
qInput.addEventListener('input', () => {
  state.query = qInput.value;
  renderMachines();
  markMatches();
});
qInput.addEventListener('keydown', (e) => {
  if (e.key !== 'Enter') return;
  const first = machines.find((m) => matches(m, state.query.trim()));
  if (first) selectMachine(first);
});
covInput.addEventListener('change', () => {
  state.coverage = covInput.checked;
  renderCoverage();
});
followInput.addEventListener('change', () => {
  state.follow = followInput.checked;
});
$('zoom-in').addEventListener('click', () => {
  state.zoom = Math.min(3, (state.zoom || 1) * 1.25);
  applyZoom();
});
$('zoom-out').addEventListener('click', () => {
  state.zoom = Math.max(0.15, (state.zoom || 1) / 1.25);
  applyZoom();
});
$('zoom-fit').addEventListener('click', () => {
  const svg = svgEl();
  state.zoom = svg ? Math.min(1, (mainBox.clientWidth - 24) / Number(svg.getAttribute('width'))) : 0;
  applyZoom();
});
window.addEventListener('hashchange', () => {
  const m = decodeURIComponent(/machine=([^&]+)/.exec(location.hash)?.[1] ?? '');
  if (m && m !== state.machine) selectMachine(m);
});

let stopWs: (() => void) | null = null;
function connectWs(url: string): void {
  stopWs?.();
  stopWs = null;
  $('status').textContent = '';
  if (url) stopWs = listenWebSocket(live, url, (s) => ($('status').textContent = s));
}
wsInput.addEventListener('change', () => connectWs(wsInput.value.trim()));
wsInput.value = params.get('ws') ?? '';
if (wsInput.value) connectWs(wsInput.value);

let frame = 0;
live.subscribe((actor) => {
  // the first machine actor seen with nothing chosen yet: show its chart (the page's root actor)
  if (actor?.machine && !state.pinned && !location.hash && actor.parentId === null && actor.machine !== state.machine && [...live.actors.values()].filter((a) => a.machine).length === 1) {
    selectMachine(actor.machine);
    return;
  }
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    renderActors();
    renderMachines();
    renderLive();
  });
});

listenBroadcast(live);
selectMachine(state.machine);
void loadReports();
