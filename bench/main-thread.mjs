#!/usr/bin/env node
// The course pages' main-thread work after the first paint, measured in CPU time so that a busy
// machine does not inflate it: loads each page in Debian's Chromium (a phone's viewport, no
// throttling, as Lighthouse's simulated mode observes it), records a Chrome trace and lists every
// top-level task after the first contentful paint with its thread (CPU) time and what ran in it.
// "est. TBT" is Lighthouse's simulation rule applied to CPU time instead of wall time: each task's
// CPU time × 4 (the mobile preset's CPU slowdown; × 2 for a task that laid the page out), minus
// 50 ms, summed, leaving out tasks under 10 ms (see `blockingOf`). It is a relative figure for
// comparing builds on a shared machine, not Lighthouse's TBT. "wall" is the same rule on each
// task's wall time, as Lighthouse applies it: the time the thread waited for a core counts too.
//
// A/B: give two or more builds; the runs alternate between them (A, B, A, B, …) so both see the
// same load. Each build is served by its own server (server/main.ts, DIST_DIR, in-memory PGlite).
// Usage: node --import tsx bench/main-thread.mjs [--runs 5] [--pages 1,2,3,4,product] [--tasks]
//          [--listed 50] (--tasks lists the tasks whose CPU time × 4 is over this many ms; 50 = the long ones)
//          [--events] (the whole load's main-thread time by trace event, self time: V8's compiling,
//          layout, text shaping, font calls to the browser process with the time spent waiting)
//          [--dist dist[,other-dist …]]
// Ports: BENCH_PORT_BASE (default 5590) + 10 onwards (one per build).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { SourceMapConsumer } from 'source-map-js';
import { abRuns, BENCH_PAGES, median, options, processGroup, root, startDemoServer, waitFor } from './common.mjs';

process.chdir(root);
const { opt, has, list } = options();
const runs = Number(opt('--runs', 5));
const dists = list('--dist', 'dist').map((d) => resolve(d));
const onlyPages = new Set(list('--pages'));
const showTasks = has('--tasks');
const listedOver = Number(opt('--listed', 50));
const showEvents = has('--events');
const base = Number(process.env.BENCH_PORT_BASE || 5590) + 10;
const SLOWDOWN = 4;
/**
 * Lighthouse's simulation (lantern, in node_modules/@paulirish/trace_engine/models/trace/lantern):
 * a task that ran a layout is slowed down by 4 × 0.5 (simulation/Simulator.js,
 * DEFAULT_LAYOUT_TASK_MULTIPLIER), any other by 4; a task shorter than 10 ms as observed is dropped
 * from the page's graph unless it is the first layout, paint or HTML parse or is tied to several
 * others (graph/PageDependencyGraph.js, SIGNIFICANT_DUR_THRESHOLD_MS); each task then adds its
 * simulated length less 50 ms (metrics/TotalBlockingTime.js).
 */
const LAYOUT_SLOWDOWN = SLOWDOWN * 0.5;
const DROPPED_UNDER_MS = 10;
const blockingOf = (task, ms) => (ms < DROPPED_UNDER_MS ? 0 : Math.max(0, ms * (task.parts.has('layout') ? LAYOUT_SLOWDOWN : SLOWDOWN) - 50));
const log = (...a) => console.error('[main-thread]', ...a);

const pages = BENCH_PAGES.filter((p) => onlyPages.size === 0 || onlyPages.has(p.key));

const { children, cleanups } = processGroup();
const scratch = mkdtempSync(join(tmpdir(), 'main-thread-'));
cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));

const builds = dists.map((dist, i) => {
  const port = base + i;
  children.add(startDemoServer({ port, scratch: join(scratch, String(i)), env: { DIST_DIR: dist } }));
  return { label: String.fromCharCode(65 + i), dist, origin: `http://127.0.0.1:${port}` };
});
await Promise.all(builds.map((b) => waitFor(`${b.origin}/public/courses`, 180_000)));

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'loading', 'blink.user_timing', 'toplevel', ...(showTasks ? ['disabled-by-default-v8.cpu_profiler'] : []), ...(showEvents ? ['v8', 'disabled-by-default-v8.compile', 'blink', 'fonts'] : [])];

/** The source file (and function) a built file's line:column comes from, by its source map. */
const maps = new Map();
function original(dist, url, line, column) {
  const file = url.replace(/^https?:\/\/[^/]+\//, '');
  if (!/^assets\/[\w.-]+\.js$/.test(file)) return null;
  if (!maps.has(`${dist}|${file}`)) {
    const path = join(dist, `${file}.map`);
    maps.set(`${dist}|${file}`, existsSync(path) ? new SourceMapConsumer(JSON.parse(readFileSync(path, 'utf8'))) : null);
  }
  const m = maps.get(`${dist}|${file}`);
  if (!m) return null;
  const pos = m.originalPositionFor({ line: line + 1, column });
  return pos.source ? `${pos.source.replace(/^(\.\.\/)+/, '')}:${pos.line}${pos.name ? ` ${pos.name}` : ''}` : null;
}

/** CPU profile samples of a thread: [{ ts, frame }] (frame: the sampled function's call frame). */
function samplesOf(events, pid, tid) {
  const nodes = new Map();
  const out = [];
  const starts = new Map();
  // The Profile event is the sampled thread's; its chunks come from the profiler's thread, by id.
  for (const e of events) if (e.name === 'Profile' && e.pid === pid && e.tid === tid) starts.set(e.id, e.args?.data?.startTime ?? e.ts);
  const last = new Map();
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.pid !== pid || !starts.has(e.id)) continue;
    const d = e.args?.data ?? {};
    for (const n of d.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
    let t = last.get(e.id) ?? starts.get(e.id) ?? e.ts;
    (d.cpuProfile?.samples ?? []).forEach((id, i) => {
      t += d.timeDeltas?.[i] ?? 0;
      out.push({ ts: t, node: id });
    });
    last.set(e.id, t);
  }
  return out.map((x) => ({ ts: x.ts, frame: nodes.get(x.node)?.callFrame ?? null }));
}

/** The renderer main thread's top-level tasks after the first contentful paint, with what ran in them. */
function analyse(events, origin, dist) {
  const threadNames = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name);
  // The page's main thread: the CrRendererMain that parsed its HTML.
  const parse = events.find((e) => e.name === 'ParseHTML' && String(e.args?.beginData?.url ?? '').startsWith(origin));
  if (!parse) throw new Error('no ParseHTML of the page in the trace');
  const key = `${parse.pid}:${parse.tid}`;
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === parse.pid);
  const start = fcp ? fcp.ts : parse.ts;
  const mine = events.filter((e) => `${e.pid}:${e.tid}` === key && e.ph === 'X' && typeof e.dur === 'number').sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const tasks = [];
  let current = null;
  for (const e of mine) {
    if (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') {
      if (current && e.ts < current.end) continue; // nested RunTask
      current = { ts: e.ts, end: e.ts + e.dur, wall: e.dur / 1000, cpu: (e.tdur ?? e.dur) / 1000, parts: new Map() };
      tasks.push(current);
      continue;
    }
    if (!current || e.ts >= current.end) continue;
    const url = String(e.args?.data?.url ?? e.args?.beginData?.url ?? '').replace(origin, '');
    const fn = e.args?.data?.functionName ?? '';
    const label = { EvaluateScript: `eval ${url}`, 'v8.evaluateModule': 'module', FunctionCall: `call ${fn || '?'} ${url}`, TimerFire: 'timer', FireAnimationFrame: 'rAF', RunMicrotasks: 'microtasks', 'v8.run': 'microtasks', Layout: 'layout', UpdateLayoutTree: 'style', Paint: 'paint', ParseHTML: 'parse HTML', ParseAuthorStyleSheet: 'parse CSS', 'v8.compileModule': `compile ${url}`, 'v8.compile': `compile ${url}`, MajorGC: 'GC', MinorGC: 'GC', EventDispatch: `event ${e.args?.data?.type ?? ''}`, XHRLoad: 'xhr', ResourceReceiveResponse: 'response' }[e.name];
    if (!label) continue;
    const cpu = (e.tdur ?? e.dur) / 1000;
    current.parts.set(label, (current.parts.get(label) ?? 0) + cpu);
  }
  // Playwright's own scripts (evaluated without a URL) are the harness, not the page.
  const after = tasks.filter((t) => t.ts >= start && ![...t.parts.keys()].some((k) => k === 'eval '));
  const samples = showTasks ? samplesOf(events, parse.pid, parse.tid) : [];
  const hot = (t) => {
    const self = new Map();
    const inTask = samples.filter((x) => x.ts >= t.ts && x.ts < t.end && x.frame);
    for (const x of inTask) {
      const f = x.frame;
      if (!f.url && ['(program)', '(idle)', '(garbage collector)', '(root)'].includes(f.functionName)) continue;
      const where = f.url ? (original(dist, f.url, f.lineNumber, f.columnNumber) ?? `${f.url.replace(origin, '')}:${f.lineNumber}`) : '(native)';
      const k = `${f.functionName || '(anonymous)'} @ ${where}`;
      self.set(k, (self.get(k) ?? 0) + 1);
    }
    const n = inTask.length || 1;
    return [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, v]) => `${Math.round((100 * v) / n)}% ${k}`);
  };
  const blocking = after.reduce((s, t) => s + blockingOf(t, t.cpu), 0);
  const blockingWall = after.reduce((s, t) => s + blockingOf(t, t.wall), 0);
  const long = after
    .filter((t) => t.cpu * SLOWDOWN > listedOver)
    .map((t) => ({
      at: Math.round((t.ts - start) / 1000),
      cpu: Number(t.cpu.toFixed(1)),
      wall: Number(t.wall.toFixed(1)),
      parts: [...t.parts]
        .filter(([, v]) => v >= 1)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(', '),
      hot: showTasks ? hot(t) : [],
    }));
  const totalCpu = after.reduce((s, t) => s + t.cpu, 0);
  return { blocking: Math.round(blocking), blockingWall: Math.round(blockingWall), totalCpu: Math.round(totalCpu), count: after.length, long, events: showEvents ? selfTimes(mine) : null };
}

/**
 * The main thread's time by trace event over the whole load: each event's own thread time (its
 * children's taken off) and the wall time it held the thread without running (waiting on another
 * process or for a core), in ms.
 */
function selfTimes(mine) {
  const open = [];
  const spans = [];
  for (const e of mine) {
    const x = { name: e.name, end: e.ts + e.dur, self: (e.tdur ?? e.dur) / 1000, wait: Math.max(0, e.dur - (e.tdur ?? e.dur)) / 1000 };
    while (open.length && open.at(-1).end <= e.ts) open.pop();
    const parent = open.at(-1);
    if (parent) {
      parent.self -= x.self + x.wait;
      parent.wait -= x.wait;
    }
    open.push(x);
    spans.push(x);
  }
  const by = new Map();
  for (const x of spans) {
    const t = by.get(x.name) ?? { self: 0, wait: 0 };
    t.self += Math.max(0, x.self);
    t.wait += Math.max(0, x.wait);
    by.set(x.name, t);
  }
  return by;
}

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking'] });
const results = abRuns(builds);
try {
  for (let r = 0; r < runs; r++) {
    for (const p of pages) {
      for (const b of results.order(r)) {
        const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
        const page = await context.newPage();
        await browser.startTracing(page, { categories: CATEGORIES });
        await page.goto(`${b.origin}${p.path}`, { waitUntil: 'load' });
        // The app has taken over when the checkout's panel is there; then whatever it starts after.
        await page.locator('[data-testid="purchase-panel"]').waitFor({ state: 'attached', timeout: 60_000 });
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(2000);
        const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
        await context.close();
        const a = analyse(trace.traceEvents ?? trace, b.origin, b.dist);
        results.add(p, b, { ...a, load: loadavg()[0] });
        log(`page ${p.key} build ${b.label} run ${r + 1}: est. TBT ${a.blocking} ms (wall ${a.blockingWall}), CPU after FCP ${a.totalCpu} ms in ${a.count} tasks, ${a.long.length} long, load ${loadavg()[0].toFixed(1)}`);
      }
    }
  }
} finally {
  await browser.close();
}

console.log(results.legend());
console.log('page     build  est. TBT ms (each run)            median  max   CPU after FCP ms (median)   wall est. (each run)');
for (const p of pages) {
  for (const b of builds) {
    const s = results.of(p, b);
    const tbt = s.map((x) => x.blocking);
    console.log(`${p.key.padEnd(8)} ${b.label.padEnd(6)} ${tbt.join('/').padEnd(33)} ${String(median(tbt)).padStart(6)} ${String(Math.max(...tbt)).padStart(5)}   ${String(median(s.map((x) => x.totalCpu))).padEnd(27)} ${s.map((x) => x.blockingWall).join('/')}`);
    if (showEvents && s.length) {
      const sum = new Map();
      for (const x of s) for (const [k, v] of x.events) sum.set(k, { self: (sum.get(k)?.self ?? 0) + v.self / s.length, wait: (sum.get(k)?.wait ?? 0) + v.wait / s.length });
      console.log('   main-thread ms by event (mean of the runs): own thread time, waiting');
      for (const [k, v] of [...sum].sort((a, b) => b[1].self + b[1].wait - (a[1].self + a[1].wait)).slice(0, 20)) console.log(`     ${v.self.toFixed(1).padStart(6)} ${v.wait.toFixed(1).padStart(6)}  ${k}`);
    }
    if (showTasks) {
      s.forEach((x, i) => {
        console.log(`   run ${i + 1} (load ${x.load.toFixed(1)}):`);
        for (const t of x.long) {
          console.log(`     +${t.at} ms: CPU ${t.cpu} ms (wall ${t.wall}) ${t.parts}`);
          for (const h of t.hot) console.log(`         ${h}`);
        }
      });
    }
  }
}
process.exit(0);
