#!/usr/bin/env node
// `npm run bench`: one table and bench/RESULTS.md.
//  1. builds the app once (vite build);
//  2. bundle: initial JS (gzip) of the course and product routes from the build's chunk graph
//     (dist/.vite/manifest.json), and each lazy chunk;
//  3. API, from this process (autocannon) against the API in a second process: GET course and
//     POST order (a fresh buyer and a fresh Idempotency-Key each) on PGlite and on PostgreSQL
//     (a throwaway cluster, scripts/postgres.ts, or BENCH_DATABASE_URL; the first 2 s of orders
//     of a new process on a row of their own, then the measured ones), and a bare Fastify
//     hello-world measured in the same run (GET course is printed as a ratio of it);
//  4. Lighthouse 12 mobile (simulated throttling), N runs on layouts 1-4 (demo courses 2, 3, 7, 5)
//     and a product page, in Debian's Chromium. Every run's score and TBT are printed; a page meets
//     its target only when its WORST run does (score ≥ 95, LCP ≤ 1.5 s, TBT ≤ 100 ms, CLS 0), and
//     the long tasks of each page's worst run are listed (main-thread tasks over 50 ms in the
//     simulation, with the script they are attributed to).
// Targets are printed beside each figure; RESULTS.md says where one is missed, and by how much.
// Usage: npm run bench [-- --runs 5] [--seconds 10] [--no-build] [--skip lighthouse,api,pg]
//        [--pages 1,2,3,4,product] (Lighthouse on these pages only) [--results file] (instead of
//        bench/RESULTS.md, e.g. for a run on a busy machine) [--keep dir] (every Lighthouse JSON)
// Ports: BENCH_PORT_BASE (default 5590) and the next four (web app, API, hello-world, Chrome).
import { spawn, spawnSync } from 'node:child_process';
import { cpus, freemem, loadavg, totalmem, platform, release, arch, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { benchOrder } from './bench-order.ts';
import { chromePath, lighthouseRun, options, processGroup, root, startDemoServer, waitFor } from './common.mjs';
import { describeKernelCost, kernelCost } from './kernel-cost.mjs';

process.chdir(root);
const { opt, has, list } = options();
const runs = Number(opt('--runs', 5));
const seconds = Number(opt('--seconds', 10));
const skip = new Set(list('--skip'));
const onlyPages = new Set(list('--pages'));
const resultsFile = opt('--results', 'bench/RESULTS.md');
const keepDir = opt('--keep', '');
const base = Number(process.env.BENCH_PORT_BASE || 5590);
const PORTS = { web: base, api: base + 1, hello: base + 2, chrome: base + 3 };
const started = new Date();
// What the machine charges for calls into its kernel, measured first, while nothing else of the
// bench runs (bench/kernel-cost.mjs: benchmarkIndex does not see it, TBT and the API figures do).
const kernel = await kernelCost();
const { children, cleanups, stopAll } = processGroup();
const log = (...a) => console.error('[bench]', ...a);

// ---------------------------------------------------------------- build and bundle
if (!has('--no-build')) {
  log('building (vite build)…');
  const r = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'error'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'));
const gz = (file) => gzipSync(readFileSync(join('dist', file)), { level: 9 }).length;
function closure(key, into = new Set()) {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const i of manifest[key].imports ?? []) closure(i, into);
  return into;
}
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const entry = closure(entryKey);
// src/main.tsx imports React DOM and the app (router, loaders) at once, as two dynamic imports so
// they run in two tasks: they are part of every route's first load. Not the English catalogue
// (src/i18n/en.ts): only a page that starts in English loads it.
const ENGLISH = 'src/i18n/en.ts';
for (const d of manifest[entryKey].dynamicImports ?? []) if (d !== ENGLISH) closure(d, entry);
const jsOf = (keys) => [...keys].reduce((s, k) => s + gz(manifest[k].file), 0);
const cssOf = (keys) => [...keys].reduce((s, k) => s + (manifest[k].css ?? []).reduce((t, f) => t + gz(f), 0), 0);
const routeKey = (suffix) => Object.keys(manifest).find((k) => k.endsWith(suffix));
const routeInitial = (suffix) => {
  const keys = closure(routeKey(suffix), new Set(entry));
  return { js: jsOf(keys), css: cssOf(keys), files: keys.size };
};
const bundle = {
  entry: { js: jsOf(entry), css: cssOf(entry) },
  course: routeInitial('src/features/course/CoursePage.tsx'),
  product: routeInitial('src/features/product/ProductPage.tsx'),
  lazy: Object.keys(manifest)
    .filter((k) => manifest[k].isDynamicEntry && !entry.has(k))
    .map((k) => {
      const own = [...closure(k)].filter((x) => !entry.has(x));
      return { chunk: k.replace(/^node_modules\//, ''), file: manifest[k].file, gz: gz(manifest[k].file), withImports: jsOf(own) };
    })
    .sort((a, b) => b.withImports - a.withImports),
};
const paymentInEntry = [...closure(routeKey('src/features/course/CoursePage.tsx'), new Set(entry))].filter((k) => /payments\/|purchase-entry|PaymentHost/.test(k));

// ---------------------------------------------------------------- processes
/** Starts `node --import ./scripts/ts-hooks.mjs file args` in its own process group; resolves with its first JSON line. */
function startJson(file, args, env = {}) {
  const child = spawn(process.execPath, ['--import', './scripts/ts-hooks.mjs', file, ...args], { stdio: ['ignore', 'pipe', 'inherit'], detached: true, env: { ...process.env, ...env } });
  children.add(child);
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', (line) => resolve({ info: JSON.parse(line), stop: () => stop(child) }));
    child.once('exit', (code) => reject(new Error(`${file} exited (${code})`)));
  });
}
function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      resolve();
    }
    children.delete(child);
  });
}
function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: seconds, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}
const summary = (name, res) => ({
  name,
  rps: Math.round(res.requests.average),
  p50: res.latency.p50,
  p99: res.latency.p99,
  errors: res.errors + res.timeouts + res.non2xx,
  requests: res.requests.total,
});

// ---------------------------------------------------------------- API
const api = [];
/** Seconds of orders sent to a new API process before the measured ones (reported on their own row). */
const WARM_UP_S = 2;
let hello = null;
if (!skip.has('api')) {
  log('bare Fastify hello-world…');
  const h = await startJson('bench/hello-server.ts', ['--port', String(PORTS.hello)]);
  await cannon({ url: `http://127.0.0.1:${PORTS.hello}/`, connections: 20, duration: 2 });
  hello = summary('bare Fastify hello-world', await cannon({ url: `http://127.0.0.1:${PORTS.hello}/`, connections: 20 }));
  await h.stop();

  const dbs = [{ kind: 'PGlite', args: [] }];
  if (!skip.has('pg')) {
    let url = process.env.BENCH_DATABASE_URL;
    if (!url) {
      const { startPostgres } = await import('../scripts/postgres.ts');
      log('throwaway PostgreSQL…');
      const pg = await startPostgres();
      cleanups.push(() => void pg.stop());
      url = pg.url;
    }
    dbs.push({ kind: 'PostgreSQL', args: ['--pg', url] });
  }
  for (const d of dbs) {
    log(`API on ${d.kind}…`);
    const buyers = Math.ceil(100 * (seconds + WARM_UP_S) * 1.2) + 50;
    // Production settings, as served (bench/api-server.ts: no re-check of answers against openapi.yaml, no demo features).
    const s = await startJson('bench/api-server.ts', ['--port', String(PORTS.api), '--buyers', String(buyers), ...d.args]);
    const origin = `http://127.0.0.1:${PORTS.api}`;
    await cannon({ url: `${origin}/public/courses/2/0`, connections: 20, duration: 2 });
    const get = summary(`GET /public/courses/2/0 (${d.kind})`, await cannon({ url: `${origin}/public/courses/2/0`, connections: 20 }));
    let n = 0;
    const list = s.info.buyers;
    const orders = (duration) =>
      cannon({
        url: origin,
        connections: 10,
        overallRate: 100,
        duration,
        requests: [
          {
            method: 'POST',
            path: '/private/cart/order',
            setupRequest: (req) => {
              const b = list[n++ % list.length];
              return {
                ...req,
                headers: { 'content-type': 'application/json', cookie: b.cookie, 'idempotency-key': `bench-${randomBytes(9).toString('hex')}` },
                body: JSON.stringify(benchOrder(b.id)),
              };
            },
          },
        ],
      });
    // The first orders of a new process are measured apart: they compile the operation's
    // validators (on first use, server/openapi/spec.ts), warm V8's JIT and PostgreSQL's caches.
    // The figure the target reads is of a process past them, as the GET figure is (its 2-s warm-up).
    const cold = summary(`POST /private/cart/order at 100 rps (${d.kind}), the first ${WARM_UP_S} s of a new process`, await orders(WARM_UP_S));
    const post = summary(`POST /private/cart/order at 100 rps (${d.kind})`, await orders(seconds));
    api.push({ ...get, ratio: hello ? get.rps / hello.rps : null }, cold, post);
    await s.stop();
  }
}

// ---------------------------------------------------------------- Lighthouse
const pages = [
  { key: '1', name: 'layout 1 (course 2)', id: 2 },
  { key: '2', name: 'layout 2 (course 3)', id: 3 },
  { key: '3', name: 'layout 3 (course 7)', id: 7 },
  { key: '4', name: 'layout 4 (course 5)', id: 5 },
  { key: 'product', name: 'product (12)', id: 12, product: true },
].filter((p) => onlyPages.size === 0 || onlyPages.has(p.key));
// The issue's and the spec's figure: every run, not only the median.
const LH_TARGET = { score: 95, lcp: 1500, tbt: 100 };
/**
 * The main-thread tasks over 50 ms (simulated) of a Lighthouse result, in time order: start,
 * length, the script it is attributed to and what it spent its time on (the audit's debug data:
 * scriptEvaluation, styleLayout, …).
 */
function longTasks(lhr) {
  const details = lhr.audits['long-tasks']?.details ?? {};
  const short = (url) => (typeof url === 'string' ? url.replace(/^https?:\/\/[^/]+/, '') || url : String(url ?? ''));
  const debug = details.debugData;
  const tasks = debug?.tasks
    ? debug.tasks.map(({ urlIndex, startTime, duration, ...groups }) => ({ start: startTime, duration, url: debug.urls?.[urlIndex], groups }))
    : (details.items ?? []).map((t) => ({ start: t.startTime, duration: t.duration, url: t.url, groups: {} }));
  return tasks
    .map((t) => ({
      start: Math.round(t.start ?? 0),
      duration: Math.round(t.duration ?? 0),
      url: short(t.url),
      spent: Object.entries(t.groups)
        // Simulated runs put most of a task under "other": only the named groups say something.
        .filter(([k, v]) => k !== 'other' && typeof v === 'number' && v >= 5)
        .sort((x, y) => y[1] - x[1])
        .map(([k, v]) => `${k} ${Math.round(v)}`)
        .join(', '),
    }))
    .sort((x, y) => x.start - y.start);
}
const lighthouse = [];
let lighthouseVersion = '';
let chromiumVersion = '';
if (!skip.has('lighthouse')) {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-lh-'));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  const origin = `http://127.0.0.1:${PORTS.web}`;
  const web = startDemoServer({ port: PORTS.web, scratch });
  children.add(web);
  await waitFor(`${origin}/public/courses`);
  lighthouseVersion = JSON.parse(readFileSync('node_modules/lighthouse/package.json', 'utf8')).version;
  chromiumVersion = spawnSync(chromePath, ['--version'], { encoding: 'utf8' }).stdout.trim();
  // The canonical paths first (no redirect measured), on fresh connections.
  for (const p of pages) {
    const r = await fetch(`${origin}/public/${p.product ? 'products' : 'courses'}/${p.id}/0`, { headers: { connection: 'close' } });
    p.path = `/${p.product ? 'product' : 'course'}/${(await r.json()).data.link_path}`;
  }
  if (keepDir) mkdirSync(keepDir, { recursive: true });
  for (const p of pages) {
    const path = p.path;
    const samples = [];
    for (let i = 0; i < runs; i++) {
      log(`lighthouse ${path} ${i + 1}/${runs}`);
      const lhr = lighthouseRun(`${origin}${path}`, { port: PORTS.chrome, out: join(scratch, 'lh.json'), keep: keepDir ? join(keepDir, `${p.product ? 'product' : `layout${p.key}`}-${i + 1}.json`) : null });
      if (!lhr) {
        log(`lighthouse failed on ${path}`);
        continue;
      }
      samples.push({
        score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        lcp: lhr.audits['largest-contentful-paint'].numericValue,
        tbt: lhr.audits['total-blocking-time'].numericValue,
        cls: lhr.audits['cumulative-layout-shift'].numericValue,
        fcp: lhr.audits['first-contentful-paint'].numericValue,
        lcpElement: lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? '',
        longTasks: longTasks(lhr),
        load: loadavg()[0],
        // Lighthouse's own measure of the machine's speed in this run (higher is faster).
        benchmarkIndex: Math.round(lhr.environment?.benchmarkIndex ?? 0),
      });
      const last = samples.at(-1);
      log(`  score ${last.score}, TBT ${Math.round(last.tbt)} ms, LCP ${Math.round(last.lcp)} ms, load ${last.load.toFixed(1)}, benchmarkIndex ${last.benchmarkIndex}`);
    }
    const median = (k) => {
      const v = samples.map((s) => s[k]).sort((a, b) => a - b);
      return v.length ? v[Math.floor((v.length - 1) / 2)] : NaN;
    };
    // The worst run: the lowest score, then the longest TBT.
    const worst = [...samples].sort((a, b) => a.score - b.score || b.tbt - a.tbt)[0];
    lighthouse.push({
      page: `${p.name} ${path}`,
      runs: samples.length,
      wanted: runs,
      score: median('score'),
      lcp: Math.round(median('lcp')),
      tbt: Math.round(median('tbt')),
      cls: Number(median('cls').toFixed(3)),
      fcp: Math.round(median('fcp')),
      worstScore: samples.length ? Math.min(...samples.map((s) => s.score)) : NaN,
      worstLcp: samples.length ? Math.round(Math.max(...samples.map((s) => s.lcp))) : NaN,
      worstTbt: samples.length ? Math.round(Math.max(...samples.map((s) => s.tbt))) : NaN,
      worstCls: samples.length ? Number(Math.max(...samples.map((s) => s.cls)).toFixed(3)) : NaN,
      perRun: samples.map((s) => ({ score: s.score, tbt: Math.round(s.tbt), lcp: Math.round(s.lcp), load: s.load, benchmarkIndex: s.benchmarkIndex })),
      worstLongTasks: worst?.longTasks ?? [],
      lcpElement: samples[0]?.lcpElement ?? '',
    });
  }
  await stop(web);
}
stopAll();

// ---------------------------------------------------------------- report
const kB = (n) => `${(n / 1024).toFixed(1)} kB`;
const ms = (n) => `${n} ms`;
const rows = [];
const add = (area, what, value, target, ok, note = '') => rows.push({ area, what, value, target, ok: ok === null ? '' : ok ? 'met' : 'MISSED', note });
add('bundle', 'initial JS, course route (gzip)', kB(bundle.course.js), '≤ 130 kB', bundle.course.js <= 130 * 1024, `${bundle.course.files} chunks; entry alone ${kB(bundle.entry.js)}; CSS ${kB(bundle.course.css)}`);
add('bundle', 'initial JS, product route (gzip)', kB(bundle.product.js), '', null);
add('bundle', 'payment code in the course route', paymentInEntry.length === 0 ? 'none (lazy)' : paymentInEntry.join(', '), 'lazy', paymentInEntry.length === 0);
for (const l of bundle.lazy) add('bundle', `lazy: ${l.chunk}`, kB(l.gz), '', null, `with its own imports ${kB(l.withImports)}`);
if (hello) add('api', hello.name, `${hello.rps} req/s`, '', null, `p50 ${ms(hello.p50)}, p99 ${ms(hello.p99)}, errors ${hello.errors}`);
for (const a of api) {
  const isGet = a.name.startsWith('GET');
  const isPgPost = !isGet && a.name.endsWith('(PostgreSQL)');
  add(
    'api',
    a.name,
    `${a.rps} req/s`,
    isGet ? '≥ 0.5× bare Fastify' : isPgPost ? 'p99 ≤ 50 ms' : '',
    isGet ? (a.ratio ?? 0) >= 0.5 : isPgPost ? a.p99 <= 50 && a.errors === 0 : null,
    `p50 ${ms(a.p50)}, p99 ${ms(a.p99)}, errors ${a.errors} of ${a.requests}${isGet && a.ratio !== null ? `, ${a.ratio.toFixed(2)}× bare Fastify` : ''}`,
  );
}
for (const l of lighthouse) {
  // Judged on the worst run (and every run asked for must have finished).
  const ok = l.runs === l.wanted && l.worstScore >= LH_TARGET.score && l.worstLcp <= LH_TARGET.lcp && l.worstTbt <= LH_TARGET.tbt && l.worstCls === 0;
  add(
    'lighthouse',
    l.page,
    `score ${l.worstScore} (worst of ${l.runs})`,
    `every run: ≥ ${LH_TARGET.score}, LCP ≤ ${LH_TARGET.lcp} ms, TBT ≤ ${LH_TARGET.tbt} ms, CLS 0`,
    ok,
    `worst: LCP ${ms(l.worstLcp)}, TBT ${ms(l.worstTbt)}, CLS ${l.worstCls}; median: score ${l.score}, LCP ${ms(l.lcp)}, TBT ${ms(l.tbt)}, FCP ${ms(l.fcp)}; runs: score ${l.perRun.map((r) => r.score).join('/')}, TBT ${l.perRun.map((r) => r.tbt).join('/')} ms${l.runs < l.wanted ? `; ${l.wanted - l.runs} run(s) failed` : ''}`,
  );
}

const machine = {
  when: started.toISOString(),
  cpu: `${cpus()[0]?.model ?? '?'} × ${cpus().length}`,
  memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB (${(freemem() / 2 ** 30).toFixed(1)} free at the end)`,
  load: loadavg()
    .map((n) => n.toFixed(2))
    .join(' '),
  os: `${platform()} ${release()} ${arch()}`,
  node: process.version,
  kernel: describeKernelCost(kernel),
  lighthouse: lighthouseVersion ? `${lighthouseVersion}, mobile preset (simulated throttling), ${chromiumVersion}` : 'not run',
  load_tool: `autocannon ${JSON.parse(readFileSync('node_modules/autocannon/package.json', 'utf8')).version}, ${seconds} s per figure, 20 connections (GET), 10 connections at 100 req/s overall (POST)`,
};

const widths = ['area', 'what', 'value', 'target', 'ok'].map((k) => Math.min(60, Math.max(k.length, ...rows.map((r) => String(r[k]).length))));
const line = (r) => ['area', 'what', 'value', 'target', 'ok'].map((k, i) => String(r[k]).padEnd(widths[i])).join('  ') + (r.note ? `  ${r.note}` : '');
console.log(line({ area: 'area', what: 'what', value: 'value', target: 'target', ok: 'ok', note: 'details' }));
for (const r of rows) console.log(line(r));
console.log(`\nmachine: ${machine.cpu}, ${machine.memory}, load ${machine.load}, ${machine.os}, node ${machine.node}`);

const md = [
  '# Benchmark results',
  '',
  `Written by \`npm run bench\` (bench/run.mjs) on ${machine.when}. Rerun to refresh; the "Why" section below is kept by hand in bench/why.md and appended.`,
  '',
  '## Machine',
  '',
  ...Object.entries(machine).map(([k, v]) => `- ${k}: ${v}`),
  '',
  '## Figures',
  '',
  '| area | what | value | target | ok | details |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${[r.area, r.what, r.value, r.target, r.ok, r.note].map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`),
  '',
];
if (lighthouse.length) {
  // Lighthouse names the element only while it is still in the page: the server-written first
  // view is replaced by the app's, so an early LCP has no element left to name
  // (`node bench/lcp-probe.mjs <origin> <path>` lists every candidate as the browser reported it).
  const named = (e) => (e ? `\`${e.replace(/`/g, "'")}\`` : 'not named by Lighthouse (no longer in the page: an element of the server-written first view, which the app replaced)');
  md.push('## Largest contentful paint element (first run)', '', ...lighthouse.map((l) => `- ${l.page}: ${named(l.lcpElement)}`), '');
  // What the worst run's TBT is made of: each task over 50 ms adds (length - 50) ms.
  const task = (t) => `${t.duration} ms at ${t.start} ms (${t.url || 'no script'}${t.spent ? `: ${t.spent}` : ''})`;
  md.push(
    '## Long tasks of each page\'s worst run (simulated; each adds its length - 50 ms to TBT)',
    '',
    ...lighthouse.map((l) => `- ${l.page}: ${l.worstLongTasks.length ? l.worstLongTasks.map(task).join('; ') : 'none'}`),
    '',
    `Load average (1 min) at each run's end: ${lighthouse.map((l) => `${l.page.split(' (')[0]} ${l.perRun.map((r) => r.load.toFixed(1)).join('/')}`).join('; ')}.`,
    '',
    `Lighthouse's benchmarkIndex of each run (its measure of this machine's speed at that moment; higher is faster, and the same build's TBT falls as it rises): ${lighthouse.map((l) => `${l.page.split(' (')[0]} ${l.perRun.map((r) => r.benchmarkIndex).join('/')}`).join('; ')}.`,
    '',
  );
}
const missed = rows.filter((r) => r.ok === 'MISSED');
md.push('## Targets missed in this run', '');
md.push(...(missed.length ? missed.map((r) => `- ${r.what}: ${r.value} (${r.note}); target ${r.target}`) : ['- none']), '');
let why = '';
try {
  why = readFileSync('bench/why.md', 'utf8');
} catch {
  why = '';
}
writeFileSync(resultsFile, `${md.join('\n')}\n${why}`);
console.log(`\nwrote ${resultsFile}`);
process.exit(0);
