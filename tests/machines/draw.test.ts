/**
 * The statecharts (scripts/machines-draw.ts, docs/machines): drawn from the current machines, laid
 * out without overlap (read from the coordinates in the drawings: sibling state boxes apart,
 * children inside their parents, edge labels off the states), keyed exactly as the coverage
 * reports key states and transitions, and redrawn identically from the layout.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { MODELS } from './models/index';
import { definitionOf } from './support/coverage';
import { OUT_DIR, drawnHash, layoutChart, loadCharts, readChart, renderIndex, renderSvg, staleDrawings, type Chart } from '../../scripts/machines-draw';

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
const num = (tag: string, attr: string) => Number(new RegExp(`\\s${attr}="(-?[\\d.]+)"`).exec(tag)?.[1] ?? NaN);
const rectOf = (tag: string): Rect => ({ x: num(tag, 'x'), y: num(tag, 'y'), width: num(tag, 'width'), height: num(tag, 'height') });
const intersects = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (c: Rect, p: Rect) => c.x >= p.x && c.y >= p.y && c.x + c.width <= p.x + p.width && c.y + c.height <= p.y + p.height;

/** The state boxes of a drawing: path -> box, and each transition label's box. */
function geometry(svg: string) {
  const states = new Map<string, { id: string; type: string; box: Rect }>();
  for (const m of svg.matchAll(/<g class="state ([a-z]+)[^"]*" data-state="([^"]+)" data-path="([^"]*)">\n<rect class="box"([^>]*)\/>/g)) {
    states.set(m[3]!, { type: m[1]!, id: m[2]!, box: rectOf(m[4]!) });
  }
  const labels = [...svg.matchAll(/<g class="transition" data-transition="([^"]+)"[\s\S]*?<rect class="label"([^>]*)\/>/g)].map((m) => ({ key: m[1]!, box: rectOf(m[2]!) }));
  return { states, labels };
}

let charts: Chart[];
beforeAll(async () => {
  charts = await loadCharts();
});

describe('the drawings', () => {
  it('are there for every machine and drawn from its current definition (npm run machines:draw)', () => {
    expect(charts.map((c) => c.id).sort()).toEqual(MODELS.map((m) => m.machine.id).sort());
    expect(staleDrawings(charts)).toEqual([]);
  });

  it('lay every machine out without overlap: siblings apart, children inside their parents, labels off the states', () => {
    for (const c of charts) {
      const { states, labels } = geometry(readFileSync(join(OUT_DIR, `${c.id}.svg`), 'utf8'));
      expect(states.size, c.id).toBe(definitionOf(MODELS.find((m) => m.machine.id === c.id)!.machine).states.size);
      const byParent = new Map<string, Rect[]>();
      for (const [path, s] of states) {
        expect(s.box.width > 0 && s.box.height > 0, `${s.id} has a size`).toBe(true);
        if (path === '') continue;
        const parentPath = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '';
        const parent = states.get(parentPath)!;
        expect(inside(s.box, parent.box), `${s.id} inside ${parent.id}`).toBe(true);
        const siblings = byParent.get(parentPath) ?? [];
        for (const other of siblings) expect(intersects(s.box, other), `${s.id} overlaps a sibling`).toBe(false);
        siblings.push(s.box);
        byParent.set(parentPath, siblings);
      }
      expect(labels.length, `${c.id}: one label per arrow`).toBe(c.transitions.reduce((n, t) => n + t.targets.length, 0));
      // a transition's label never covers a state without children (its name and lines)
      const leaves = [...states.values()].filter((s) => s.type !== 'compound' && s.type !== 'parallel');
      for (const l of labels) for (const s of leaves) expect(intersects(l.box, s.box), `${c.id}: the label of ${l.key} covers ${s.id}`).toBe(false);
    }
  });

  it('key states and transitions as the model tests and the browser engine record them', () => {
    for (const model of MODELS) {
      const chart = charts.find((c) => c.id === model.machine.id)!;
      const def = definitionOf(model.machine);
      expect(new Set(chart.transitions.map((t) => t.key)), chart.id).toEqual(new Set(def.transitions.keys()));
      const svg = readFileSync(join(OUT_DIR, `${chart.id}.svg`), 'utf8');
      const drawnKeys = new Set([...svg.matchAll(/data-transition="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&')));
      expect(drawnKeys, `${chart.id}: every transition is drawn`).toEqual(new Set(def.transitions.keys()));
      const drawnStates = new Set([...svg.matchAll(/data-state="([^"]+)"/g)].map((m) => m[1]!));
      expect(drawnStates).toEqual(def.states);
    }
  });

  it('are what the layout gives (accessCountdown redrawn byte for byte)', async () => {
    const chart = charts.find((c) => c.id === 'accessCountdown')!;
    expect(renderSvg(chart, await layoutChart(chart))).toBe(readFileSync(join(OUT_DIR, 'accessCountdown.svg'), 'utf8'));
  });
});

describe('npm run check (machines:draw --check)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'charts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails when a drawing is older than its machine, missing, or left over, and when the index is stale', async () => {
    const definition = (guard: string) => ({ id: 'toy', initial: 'a', states: { a: { on: { go: { target: 'b', guard } } }, b: { after: { 500: 'a' } } } });
    const drawn = readChart(createMachine(definition('ready')), 'machines/toy.machine.ts');
    expect(readChart(createMachine(definition('ready')), 'machines/toy.machine.ts').hash).toBe(drawn.hash);
    const svg = renderSvg(drawn, await layoutChart(drawn));
    expect(drawnHash(svg)).toBe(drawn.hash);
    writeFileSync(join(dir, 'toy.svg'), svg);
    writeFileSync(join(dir, 'README.md'), renderIndex([drawn]));
    expect(staleDrawings([drawn], dir)).toEqual([]);

    // the machine's guard changes: its drawing is older than it
    const changed = readChart(createMachine(definition('readyNow')), 'machines/toy.machine.ts');
    expect(changed.hash).not.toBe(drawn.hash);
    expect(staleDrawings([changed], dir)).toContain('toy: the drawing is older than machines/toy.machine.ts');

    writeFileSync(join(dir, 'gone.svg'), svg);
    expect(staleDrawings([drawn], dir)).toEqual(['gone.svg: no machine has this id any more']);
    rmSync(join(dir, 'gone.svg'));
    writeFileSync(join(dir, 'README.md'), '# old');
    expect(staleDrawings([drawn], dir)).toEqual(['docs/machines/README.md (the index) is not the current one']);
    writeFileSync(join(dir, 'README.md'), renderIndex([drawn]));
    rmSync(join(dir, 'toy.svg'));
    expect(staleDrawings([drawn], dir)).toEqual([expect.stringMatching(/^toy: no drawing/)]);
  });
});
