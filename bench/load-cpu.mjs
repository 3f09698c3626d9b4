#!/usr/bin/env node
// What one page load costs the machine, in CPU time: every Chromium process (the browser, its
// renderers, the GPU and network services) and the demo server, from /proc, for a load of a course
// page in a fresh browser (a phone's viewport, no throttling, the app taken over and the checkout's
// code run), with the page's requests counted. On two cores a page's main thread shares them with
// all of this, so what Chromium and the server spend beside the page's own tasks shows up as wall
// time of those tasks, and Lighthouse's TBT reads wall time (bench/why.md, the eleventh pass). CPU
// time barely moves with the machine's load, so two builds compare on a shared machine.
//
// A/B: give two or more builds; the runs alternate between them (A, B, B, A, …), each build served
// by its own server (server/main.ts, DIST_DIR, in-memory PGlite).
// Usage: node bench/load-cpu.mjs [--runs 6] [--pages 1,2,3,4,product] [--dist dist[,other …]]
// Ports: BENCH_PORT_BASE (default 5590) + 30 onwards (one per build).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { abRuns, BENCH_PAGES, chromePath, LIGHTHOUSE_CHROME_FLAGS, median, options, processGroup, root, startDemoServer, waitFor } from './common.mjs';

process.chdir(root);
const { opt, list } = options();
const runs = Number(opt('--runs', 6));
const dists = list('--dist', 'dist').map((d) => resolve(d));
const onlyPages = new Set(list('--pages', '4,product'));
const base = Number(process.env.BENCH_PORT_BASE || 5590) + 30;
const TICK_MS = 10; // USER_HZ is 100 on Linux: /proc's times are in hundredths of a second
const log = (...a) => console.error('[load-cpu]', ...a);

const pages = BENCH_PAGES.filter((p) => onlyPages.has(p.key));

/** Every process's parent and CPU time (user + system, ms) from /proc. */
function processes() {
  const out = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(pid), { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) * TICK_MS });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU ms of `pid` and every process below it, with the processes that ended counted from `known`. */
function treeCpu(pid, known) {
  const all = processes();
  const below = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [p, s] of all) {
      if (below.has(p) || !below.has(s.ppid)) continue;
      below.add(p);
      grew = true;
    }
  }
  for (const p of below) known.set(p, all.get(p)?.cpu ?? known.get(p) ?? 0);
  return [...known.values()].reduce((a, b) => a + b, 0);
}

const { children, cleanups } = processGroup();
const scratch = mkdtempSync(join(tmpdir(), 'load-cpu-'));
cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
const builds = dists.map((dist, i) => {
  const port = base + i;
  const server = startDemoServer({ port, scratch: join(scratch, String(i)), env: { DIST_DIR: dist } });
  children.add(server);
  return { label: String.fromCharCode(65 + i), dist, origin: `http://127.0.0.1:${port}`, server };
});
await Promise.all(builds.map((b) => waitFor(`${b.origin}/public/courses`, 180_000)));

/** One load of `url` in a fresh browser: Chromium's and the server's CPU ms, and the requests. */
async function load(build, url) {
  const browser = await chromium.launch({ executablePath: chromePath, args: LIGHTHOUSE_CHROME_FLAGS.split(' ') });
  // The browser is a child of this process (the servers are too, but not Chromium).
  const mine = [...processes()].filter(([pid, x]) => x.ppid === process.pid && /chrom/i.test(readFileSync(`/proc/${pid}/comm`, 'utf8')));
  if (mine.length !== 1) throw new Error(`expected one browser below this process, found ${mine.length}`);
  const browserPid = mine[0][0];
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto('about:blank');
    const known = new Map();
    const c0 = treeCpu(browserPid, known);
    const s0 = treeCpu(build.server.pid, new Map());
    let requests = 0;
    let scripts = 0;
    page.on('request', (r) => {
      requests += 1;
      if (r.resourceType() === 'script') scripts += 1;
    });
    await page.goto(url, { waitUntil: 'load' });
    // The app has taken over when the checkout's panel is there; then whatever it starts after.
    await page.locator('[data-testid="purchase-panel"]').waitFor({ state: 'attached', timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    const chromiumMs = treeCpu(browserPid, known) - c0;
    const serverMs = treeCpu(build.server.pid, new Map()) - s0;
    await context.close();
    return { chromiumMs, serverMs, requests, scripts };
  } finally {
    await browser.close();
  }
}

const results = abRuns(builds);
for (let r = 0; r < runs; r++) {
  for (const p of pages) {
    for (const b of results.order(r)) {
      const x = await load(b, `${b.origin}${p.path}`);
      results.add(p, b, x);
      log(`page ${p.key} build ${b.label} run ${r + 1}: Chromium ${x.chromiumMs} ms, server ${x.serverMs} ms, ${x.requests} requests (${x.scripts} scripts), load ${loadavg()[0].toFixed(1)}`);
    }
  }
}

console.log(results.legend());
console.log('page     build  Chromium CPU ms a load (each run)          median   server ms (median)   requests (scripts)');
for (const p of pages) {
  for (const b of builds) {
    const s = results.of(p, b);
    const c = s.map((x) => x.chromiumMs);
    console.log(`${p.key.padEnd(8)} ${b.label.padEnd(6)} ${c.join('/').padEnd(42)} ${String(median(c)).padStart(6)}   ${String(median(s.map((x) => x.serverMs))).padStart(18)}   ${s[0]?.requests ?? '-'} (${s[0]?.scripts ?? '-'})`);
  }
}
process.exit(0);
