#!/usr/bin/env node
/**
 * npm run machines:draw — every machine of machines/ as a statechart: docs/machines/<id>.svg and
 * docs/machines/README.md (the index).
 *
 * The chart is read from the machine object itself (XState v5 `machine.root` and its StateNodes):
 * states nested as the machine nests them (compound, parallel regions, finals, the initial
 * marker), every transition labelled with its event and guard (`done: getOrder`, `after
 * redirectDelay (500 ms)`, `always`, `[else]` for the unguarded fallback of guarded
 * alternatives), transitions without a target listed inside their state, invoked actors and
 * entry/exit effects inside their state. The layout is elkjs (layered, hierarchical compound
 * nodes, orthogonal edges with their labels placed by the layout).
 *
 * Every state carries `data-state` (its id) and `data-path`, every transition `data-transition`
 * (its key, `source | event #index`, the key tests/machines/support/coverage.ts and the browser
 * engine record) and `data-event`: the atlas page (src/atlas) colours them live and with the
 * tests' coverage. The SVG's <metadata> holds a hash of the chart read from the machine;
 * `--check` (part of `npm run check`) fails when a drawing's hash is not the machine's current
 * one, or the index is not the current one (no file times involved).
 *
 *   tsx scripts/machines-draw.ts            write the drawings and the index
 *   tsx scripts/machines-draw.ts --check    fail when a drawing is older than its machine
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { AnyStateMachine } from 'xstate';
import { transitionKey } from './transition-key';

/** Bump when the drawing itself changes (styles, layout options): every chart is redrawn. */
export const DRAW_VERSION = 2;

export const ROOT = new URL('..', import.meta.url).pathname;
export const OUT_DIR = join(ROOT, 'docs', 'machines');

type AnyStateNode = AnyStateMachine['root'];
type AnyTransition = NonNullable<AnyStateNode['always']>[number];

export interface ChartTransition {
  /** `source | event #index`, as tests/machines/support/coverage.ts keys it. */
  key: string;
  /** The raw event type (`xstate.done.actor.getOrder`, `xstate.after.pollInterval.x.y`, '' for always). */
  event: string;
  /** What the chart shows: `done: getOrder`, `after pollInterval (6000 ms)`, `always`, `card.close`. */
  label: string;
  /** `[chargeRecorded]`, `[else]`, or ''. */
  guard: string;
  source: string;
  /** Target state ids; empty: a transition without a target (shown inside its state). */
  targets: string[];
  reenter: boolean;
}

export interface ChartState {
  id: string;
  key: string;
  /** Keys from the machine's root (empty for the root). */
  path: string[];
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** The initial child's id (compound states). */
  initial: string | null;
  invokes: string[];
  entry: string[];
  exit: string[];
  /** Transitions without a target, declared on this state. */
  internal: ChartTransition[];
  children: ChartState[];
}

export interface Chart {
  id: string;
  /** The machine's file, from the repository root. */
  file: string;
  root: ChartState;
  /** Every transition of the machine (with or without a target). */
  transitions: ChartTransition[];
  /** sha256 of the chart read from the machine (and DRAW_VERSION). */
  hash: string;
}

// ---------------------------------------------------------------------------------------------
// Reading the machine


type GuardLike = string | { type?: string; guards?: unknown[]; name?: string } | ((...a: unknown[]) => unknown) | undefined;

export function guardText(g: GuardLike): string {
  if (g === undefined || g === null) return '';
  if (typeof g === 'string') return g;
  const o = g as { type?: string; guards?: GuardLike[]; name?: string };
  const inner = (o.guards ?? []).map(guardText);
  if (o.type === 'xstate.not') return `!${inner[0] ?? '?'}`;
  if (o.type === 'xstate.and') return inner.join(' && ');
  if (o.type === 'xstate.or') return inner.join(' || ');
  if (typeof o.type === 'string' && o.type) return o.type;
  if (typeof g === 'function' && g.name && g.name !== 'guard') return g.name;
  return 'guard';
}

function actionNames(list: unknown): string[] {
  const out: string[] = [];
  for (const a of (list as unknown[] | undefined) ?? []) {
    const type = typeof a === 'string' ? a : (a as { type?: unknown })?.type;
    if (typeof type === 'string' && !type.startsWith('xstate.')) out.push(type);
  }
  return [...new Set(out)];
}

function delayText(machine: AnyStateMachine, delay: string): string {
  if (/^\d+$/.test(delay)) return `after ${delay} ms`;
  const value = (machine.implementations.delays as Record<string, unknown>)[delay];
  return typeof value === 'number' ? `after ${delay} (${value} ms)` : `after ${delay}`;
}

export function eventLabel(machine: AnyStateMachine, t: AnyTransition, always: boolean): string {
  if (always) return 'always';
  const e = t.eventType;
  let m = /^xstate\.done\.actor\.(.+)$/.exec(e);
  if (m) return `done: ${m[1]}`;
  m = /^xstate\.error\.actor\.(.+)$/.exec(e);
  if (m) return `error: ${m[1]}`;
  m = /^xstate\.after\.(.+?)\.(.+)$/.exec(e);
  if (m && m[2] === t.source.id) return delayText(machine, m[1]!);
  if (e.startsWith('xstate.done.state.')) return 'done';
  return e;
}

function readTransitions(machine: AnyStateMachine, node: AnyStateNode): ChartTransition[] {
  const out: ChartTransition[] = [];
  const add = (list: readonly AnyTransition[], always: boolean) => {
    const guarded = list.some((t) => t.guard !== undefined);
    for (const t of list) {
      const g = guardText(t.guard as GuardLike);
      out.push({
        key: transitionKey(t),
        event: always ? '' : t.eventType,
        label: eventLabel(machine, t, always),
        guard: g ? `[${g}]` : guarded && list.length > 1 ? '[else]' : '',
        source: node.id,
        targets: (t.target ?? []).map((n) => n.id),
        reenter: Boolean(t.reenter),
      });
    }
  };
  for (const list of node.transitions.values()) add(list, false);
  add(node.always ?? [], true);
  return out;
}

function readState(machine: AnyStateMachine, node: AnyStateNode, all: ChartTransition[]): ChartState {
  const transitions = readTransitions(machine, node);
  all.push(...transitions);
  const invokes = (node.invoke ?? []).map((i) => (typeof i.src === 'string' ? i.src : i.id));
  return {
    id: node.id,
    key: node.key,
    path: [...node.path],
    type: node.type as ChartState['type'],
    initial: node.type === 'compound' ? (node.initial?.target?.[0]?.id ?? null) : null,
    invokes,
    entry: actionNames(node.entry),
    exit: actionNames(node.exit),
    internal: transitions.filter((t) => t.targets.length === 0),
    children: Object.values(node.states as Record<string, AnyStateNode>).map((c) => readState(machine, c, all)),
  };
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export function readChart(machine: AnyStateMachine, file: string): Chart {
  const transitions: ChartTransition[] = [];
  const root = readState(machine, machine.root, transitions);
  const hash = createHash('sha256').update(stable({ v: DRAW_VERSION, id: machine.id, root, transitions })).digest('hex');
  return { id: machine.id, file, root, transitions, hash };
}

function isMachine(v: unknown): v is AnyStateMachine {
  return !!v && typeof v === 'object' && 'root' in v && 'config' in v && typeof (v as { transition?: unknown }).transition === 'function';
}

/** Every machine of machines/ (each `*.machine.ts`'s exported machines), sorted by id. */
export async function loadCharts(): Promise<Chart[]> {
  const dir = join(ROOT, 'machines');
  const files = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.machine.ts'))
    .sort();
  const byId = new Map<string, Chart>();
  for (const f of files) {
    const mod = (await import(pathToFileURL(join(dir, f)).href)) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      if (!isMachine(value) || byId.has(value.id)) continue;
      byId.set(value.id, readChart(value, relative(ROOT, join(dir, f))));
    }
  }
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

// ---------------------------------------------------------------------------------------------
// Layout (elkjs)

const FONT = "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace";
/** Advance of one character of the monospaced font, in em (DejaVu Sans Mono: 0.602). */
const CHAR_EM = 0.62;
const TITLE_PX = 13;
const LINE_PX = 11;
const LABEL_PX = 11;
const LINE_H = 15;
const TITLE_H = 24;
const PAD = 10;

export const textWidth = (s: string, px: number): number => Math.ceil([...s].length * px * CHAR_EM);

/** The lines written inside a state box under its name. */
export function stateLines(s: ChartState): { text: string; kind: 'invoke' | 'entry' | 'exit' | 'internal'; key?: string; event?: string }[] {
  const lines: { text: string; kind: 'invoke' | 'entry' | 'exit' | 'internal'; key?: string; event?: string }[] = [];
  for (const i of s.invokes) lines.push({ text: `invoke ${i}`, kind: 'invoke' });
  if (s.entry.length) lines.push({ text: `entry / ${s.entry.join(', ')}`, kind: 'entry' });
  if (s.exit.length) lines.push({ text: `exit / ${s.exit.join(', ')}`, kind: 'exit' });
  for (const t of s.internal) lines.push({ text: `on ${t.label}${t.guard ? ` ${t.guard}` : ''}`, kind: 'internal', key: t.key, event: t.event });
  return lines;
}

function headerHeight(s: ChartState): number {
  return TITLE_H + stateLines(s).length * LINE_H + (stateLines(s).length ? 6 : 0);
}

function minWidth(s: ChartState): number {
  const lines = stateLines(s);
  return Math.max(textWidth(s.key, TITLE_PX) + (s.type === 'compound' || s.type === 'parallel' ? 0 : 0), ...lines.map((l) => textWidth(l.text, LINE_PX))) + 2 * PAD;
}

export interface Box {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The state's id, or null for an initial marker. */
  state: ChartState | null;
  parent: string | null;
}

export interface EdgeLayout {
  id: string;
  transition: ChartTransition | null;
  points: { x: number; y: number }[];
  label: { x: number; y: number; width: number; height: number; lines: string[] } | null;
}

export interface Layout {
  width: number;
  height: number;
  boxes: Box[];
  edges: EdgeLayout[];
}

const INITIAL = '#initial';

function labelLines(t: ChartTransition): string[] {
  return t.guard ? [t.label, t.guard] : [t.label];
}

function lca(a: string[], b: string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * Top-down first; a chart more than 2.2 times as wide as high (a state fanning out to many) is laid
 * out left to right instead when that is smaller.
 */
export async function layoutChart(chart: Chart): Promise<Layout> {
  const down = await layoutChartIn(chart, 'DOWN');
  if (down.width <= 2.2 * down.height) return down;
  const right = await layoutChartIn(chart, 'RIGHT');
  return right.width * right.height < down.width * down.height ? right : down;
}

export async function layoutChartIn(chart: Chart, direction: 'DOWN' | 'RIGHT'): Promise<Layout> {
  const byId = new Map<string, ChartState>();
  const nodes = new Map<string, ElkNode>();
  const pathOf = new Map<string, string[]>();
  const build = (s: ChartState, path: string[]): ElkNode => {
    byId.set(s.id, s);
    pathOf.set(s.id, path);
    const compound = s.children.length > 0;
    const node: ElkNode = { id: s.id, edges: [] };
    if (compound) {
      node.layoutOptions = {
        'elk.padding': `[top=${headerHeight(s) + 6},left=${PAD + 4},bottom=${PAD + 4},right=${PAD + 4}]`,
        'elk.nodeSize.constraints': 'MINIMUM_SIZE',
        'elk.nodeSize.minimum': `(${minWidth(s)}, ${headerHeight(s) + 20})`,
        ...(s.type === 'parallel' ? { 'elk.direction': 'RIGHT' } : {}),
      };
      node.children = s.children.map((c) => build(c, [...path, c.id]));
      if (s.initial) {
        node.children.unshift({ id: s.id + INITIAL, width: 12, height: 12 });
        pathOf.set(s.id + INITIAL, [...path, s.id + INITIAL]);
        node.edges!.push({ id: `${s.id}${INITIAL}->`, sources: [s.id + INITIAL], targets: [s.initial] });
      }
    } else {
      node.width = minWidth(s);
      node.height = headerHeight(s) + (s.type === 'final' ? 4 : 0);
    }
    nodes.set(s.id, node);
    return node;
  };
  const top = build(chart.root, [chart.root.id]);
  let n = 0;
  for (const t of chart.transitions) {
    for (const target of t.targets) {
      const sp = pathOf.get(t.source)!;
      const tp = pathOf.get(target)!;
      const common = lca(sp, tp);
      // The edge lives in the deepest state containing both ends (a state's own edge to one of its
      // children lives in that state).
      const containerId = sp[Math.min(common, sp.length, tp.length) - 1] ?? chart.root.id;
      const container = nodes.get(containerId === t.source || containerId === target ? containerId : containerId)!;
      const lines = labelLines(t);
      const edge: ElkExtendedEdge = {
        id: `e${n++}`,
        sources: [t.source],
        targets: [target],
        labels: [{ text: lines.join('\n'), width: Math.max(...lines.map((l) => textWidth(l, LABEL_PX))) + 8, height: lines.length * 14 + 4 }],
      };
      (edge as ElkExtendedEdge & { transition: ChartTransition }).transition = t;
      container.edges!.push(edge);
    }
  }
  const graph: ElkNode = {
    id: '__graph',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.direction': direction,
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.spacing.nodeNode': '28',
      'elk.spacing.edgeNode': '14',
      'elk.spacing.edgeEdge': '10',
      'elk.spacing.edgeLabel': '4',
      'elk.spacing.labelNode': '6',
      'elk.layered.spacing.edgeNodeBetweenLayers': '14',
      'elk.layered.spacing.edgeEdgeBetweenLayers': '10',
      'elk.edgeLabels.placement': 'CENTER',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
      'elk.layered.crossingMinimization.strategy': 'LAYER_SWEEP',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.padding': '[top=12,left=12,bottom=12,right=12]',
      'elk.json.shapeCoords': 'ROOT',
      'elk.json.edgeCoords': 'ROOT',
    },
    children: [top],
    edges: [],
  };
  const elk = new ELK();
  const out = await elk.layout(graph);

  const boxes: Box[] = [];
  const edges: EdgeLayout[] = [];
  const visit = (node: ElkNode, parent: string | null) => {
    if (node.id !== '__graph') {
      const initial = node.id.endsWith(INITIAL);
      boxes.push({ id: node.id, x: node.x ?? 0, y: node.y ?? 0, width: node.width ?? 0, height: node.height ?? 0, state: initial ? null : (byId.get(node.id) ?? null), parent });
    }
    for (const e of node.edges ?? []) {
      const t = (e as ElkExtendedEdge & { transition?: ChartTransition }).transition ?? null;
      const points: { x: number; y: number }[] = [];
      for (const s of e.sections ?? []) {
        points.push(s.startPoint, ...(s.bendPoints ?? []), s.endPoint);
      }
      const l = e.labels?.[0];
      edges.push({
        id: e.id,
        transition: t,
        points,
        label: l && t ? { x: l.x ?? 0, y: l.y ?? 0, width: l.width ?? 0, height: l.height ?? 0, lines: labelLines(t) } : null,
      });
    }
    for (const c of node.children ?? []) visit(c, node.id === '__graph' ? null : node.id);
  };
  visit(out, null);
  return { width: Math.ceil(out.width ?? 0), height: Math.ceil(out.height ?? 0), boxes, edges };
}

// ---------------------------------------------------------------------------------------------
// SVG

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const r1 = (v: number) => Math.round(v * 10) / 10;

const STYLE = `
.chart-title{font-size:15px;font-weight:700;fill:#0f172a}
.state>rect.box{fill:#ffffff;stroke:#475569;stroke-width:1.3}
.state.compound>rect.box,.state.parallel>rect.box{fill:#f8fafc;stroke:#64748b}
.state.region>rect.box{stroke-dasharray:6 4}
.state.root>rect.box{fill:#f1f5f9;stroke:#334155;stroke-width:1.6}
.state.final>rect.inner{fill:none;stroke:#475569;stroke-width:1}
.state text.name{font-size:${TITLE_PX}px;font-weight:700;fill:#0f172a}
.state text.line{font-size:${LINE_PX}px;fill:#475569}
.state text.invoke{fill:#0369a1}
.state text.entry,.state text.exit{fill:#64748b}
.state text.internal{fill:#334155}
.initial{fill:#0f172a}
.transition path{fill:none;stroke:#475569;stroke-width:1.3}
.transition rect.label{fill:#ffffff;fill-opacity:.92;stroke:none}
.transition text{font-size:${LABEL_PX}px;fill:#1e293b}
.transition text.guard{fill:#7c3aed}
.initial-edge path{fill:none;stroke:#0f172a;stroke-width:1.3}
`;

export function renderSvg(chart: Chart, layout: Layout): string {
  const W = Math.ceil(layout.width);
  const H = Math.ceil(layout.height) + 30;
  const dy = 30;
  const marker = `arrow-${chart.id}`;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="statechart" data-machine="${esc(chart.id)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${esc(FONT)}">`,
    `<metadata id="machine-drawing-${esc(chart.id)}">${esc(JSON.stringify({ machine: chart.id, file: chart.file, hash: chart.hash, drawVersion: DRAW_VERSION, tool: 'scripts/machines-draw.ts (elkjs layered)' }))}</metadata>`,
    `<title>${esc(chart.id)} — ${esc(chart.file)}</title>`,
    `<style>${STYLE}</style>`,
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="10" markerHeight="10" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#475569"/></marker></defs>`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text class="chart-title" x="12" y="20">${esc(chart.id)}  <tspan font-size="11" font-weight="400" fill="#64748b">${esc(chart.file)}</tspan></text>`,
    `<g transform="translate(0,${dy})">`,
  );
  const parentType = new Map<string, ChartState['type']>();
  for (const b of layout.boxes) if (b.state) parentType.set(b.id, b.state.type);
  for (const b of layout.boxes) {
    if (!b.state) {
      out.push(`<circle class="initial" cx="${r1(b.x + b.width / 2)}" cy="${r1(b.y + b.height / 2)}" r="${r1(b.width / 2)}"/>`);
      continue;
    }
    const s = b.state;
    const cls = ['state', s.type];
    if (!b.parent) cls.push('root');
    if (b.parent && parentType.get(b.parent) === 'parallel') cls.push('region');
    out.push(`<g class="${cls.join(' ')}" data-state="${esc(s.id)}" data-path="${esc(s.path.join('.'))}">`);
    out.push(`<rect class="box" x="${r1(b.x)}" y="${r1(b.y)}" width="${r1(b.width)}" height="${r1(b.height)}" rx="${s.type === 'final' ? 10 : 7}"/>`);
    if (s.type === 'final') out.push(`<rect class="inner" x="${r1(b.x + 3)}" y="${r1(b.y + 3)}" width="${r1(b.width - 6)}" height="${r1(b.height - 6)}" rx="8"/>`);
    out.push(`<text class="name" x="${r1(b.x + PAD)}" y="${r1(b.y + 17)}">${esc(s.key)}</text>`);
    stateLines(s).forEach((l, i) => {
      const y = r1(b.y + TITLE_H + i * LINE_H + 8);
      const attrs = l.key ? ` data-transition="${esc(l.key)}" data-event="${esc(l.event ?? '')}"` : '';
      out.push(`<text class="line ${l.kind}${l.key ? ' transition-line' : ''}" x="${r1(b.x + PAD)}" y="${y}"${attrs}>${esc(l.text)}</text>`);
    });
    out.push('</g>');
  }
  for (const e of layout.edges) {
    if (e.points.length < 2) continue;
    const d = `M${e.points.map((p) => `${r1(p.x)},${r1(p.y)}`).join(' L')}`;
    if (!e.transition) {
      out.push(`<g class="initial-edge"><path d="${d}" marker-end="url(#${marker})"/></g>`);
      continue;
    }
    const t = e.transition;
    out.push(`<g class="transition" data-transition="${esc(t.key)}" data-event="${esc(t.event)}" data-source="${esc(t.source)}" data-targets="${esc(t.targets.join(' '))}">`);
    out.push(`<title>${esc(t.key)} → ${esc(t.targets.join(', '))}</title>`);
    out.push(`<path d="${d}" marker-end="url(#${marker})"/>`);
    if (e.label) {
      const l = e.label;
      out.push(`<rect class="label" x="${r1(l.x)}" y="${r1(l.y)}" width="${r1(l.width)}" height="${r1(l.height)}" rx="3"/>`);
      l.lines.forEach((line, i) => {
        out.push(`<text class="${i === 1 ? 'guard' : 'event'}" x="${r1(l.x + 4)}" y="${r1(l.y + 13 + i * 14)}">${esc(line)}</text>`);
      });
    }
    out.push('</g>');
  }
  out.push('</g>', '</svg>', '');
  return out.join('\n');
}

/** The hash a drawing was made from (its <metadata>), or null. */
export function drawnHash(svg: string): string | null {
  return /&quot;hash&quot;:&quot;([0-9a-f]{64})&quot;/.exec(svg)?.[1] ?? null;
}

export function countStates(s: ChartState): number {
  return 1 + s.children.reduce((n, c) => n + countStates(c), 0);
}

export function renderIndex(charts: Chart[]): string {
  const lines = [
    '# Statecharts of the machines',
    '',
    'Drawn from the machine objects of `machines/` by `npm run machines:draw` (elkjs layered layout); do not edit:',
    '`npm run check` fails when a drawing is older than its machine. Each state shows its invoked actors,',
    'entry/exit effects and its transitions without a target (`on …`); arrows are labelled with the event',
    '(`done:` / `error:` an invoked actor, `after` a named delay, `always`) and the guard (`[else]`: taken when',
    'the guarded alternatives above it are not). The same drawings, searchable, live and with the tests\'',
    'coverage on them: the flow atlas (docs/design/inspecting-flows.md).',
    '',
    '| machine | file | states | transitions | drawing |',
    '|---|---|---|---|---|',
    ...charts.map((c) => `| ${c.id} | \`${c.file}\` | ${countStates(c.root)} | ${c.transitions.length} | [${c.id}.svg](${c.id}.svg) |`),
    '',
    ...charts.flatMap((c) => [`## ${c.id}`, '', `![${c.id}](${c.id}.svg)`, '']),
  ];
  return lines.join('\n');
}

export async function drawAll(charts: Chart[]): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const c of charts) files.set(`${c.id}.svg`, renderSvg(c, await layoutChart(c)));
  files.set('README.md', renderIndex(charts));
  return files;
}

/** Why the drawings in `dir` are not those of `charts` (empty: they are). */
export function staleDrawings(charts: Chart[], dir = OUT_DIR): string[] {
  const problems: string[] = [];
  for (const c of charts) {
    const path = join(dir, `${c.id}.svg`);
    if (!existsSync(path)) {
      problems.push(`${c.id}: no drawing (${relative(ROOT, path)})`);
      continue;
    }
    const h = drawnHash(readFileSync(path, 'utf8'));
    if (h !== c.hash) problems.push(`${c.id}: the drawing is older than ${c.file}`);
  }
  const known = new Set(charts.map((c) => `${c.id}.svg`));
  if (existsSync(dir)) for (const f of readdirSync(dir)) if (f.endsWith('.svg') && !known.has(f)) problems.push(`${f}: no machine has this id any more`);
  const index = join(dir, 'README.md');
  if (!existsSync(index) || readFileSync(index, 'utf8') !== renderIndex(charts)) problems.push('docs/machines/README.md (the index) is not the current one');
  return problems;
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const t0 = performance.now();
  const charts = await loadCharts();
  if (check) {
    const problems = staleDrawings(charts);
    if (problems.length) {
      console.error(`Statecharts out of date (run npm run machines:draw):\n  ${problems.join('\n  ')}`);
      process.exitCode = 1;
    }
    return;
  }
  const files = await drawAll(charts);
  mkdirSync(OUT_DIR, { recursive: true });
  for (const f of readdirSync(OUT_DIR)) if (f.endsWith('.svg') && !files.has(f)) rmSync(join(OUT_DIR, f));
  for (const [name, text] of files) writeFileSync(join(OUT_DIR, name), text);
  console.log(`${charts.length} statecharts in ${relative(ROOT, OUT_DIR)}/ (${Math.round(performance.now() - t0)} ms)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
