#!/usr/bin/env node
// Two or more builds under Lighthouse (mobile, simulated throttling, as `npm run bench`), their
// runs alternating (A, B, A, B, …) so each build sees the same moments of the machine. On this
// 2-core machine Lighthouse's own CPU benchmark (`benchmarkIndex`) moves by 2× within an hour, and
// one build's TBT with it: a figure from one hour is not comparable with one from another. This
// prints each run's score, TBT and benchmarkIndex beside the other build's run of the same moment,
// and the median and worst of each.
// Usage: node --import tsx bench/lighthouse-ab.mjs --dist dist-a,dist-b [--pages 1,product] [--runs 4]
//          [--keep DIR] (every run's Lighthouse JSON, as DIR/<page>-<build>-<run>.json)
// Ports: BENCH_PORT_BASE (default 5590) + 20 onwards (one per build, then Chrome's).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { abRuns, BENCH_PAGES, lighthouseRun, median, options, processGroup, root, startDemoServer, waitFor } from './common.mjs';

process.chdir(root);
const { opt, list } = options();
const runs = Number(opt('--runs', 4));
const keepDir = opt('--keep', '');
if (keepDir) mkdirSync(keepDir, { recursive: true });
const dists = list('--dist').map((d) => resolve(d));
if (dists.length < 2) {
  console.error('give two builds or more: --dist dist-a,dist-b');
  process.exit(2);
}
const PAGES = Object.fromEntries(BENCH_PAGES.map((p) => [p.key, p.path]));
const pages = list('--pages', '1,product').map((k) => ({ key: k, path: PAGES[k] }));
if (pages.some((p) => !p.path)) {
  console.error(`pages are among ${Object.keys(PAGES).join(', ')}`);
  process.exit(2);
}
const base = Number(process.env.BENCH_PORT_BASE || 5590) + 20;
const log = (...a) => console.error('[lighthouse-ab]', ...a);

const { children, cleanups } = processGroup();
const scratch = mkdtempSync(join(tmpdir(), 'lighthouse-ab-'));
cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
const builds = dists.map((dist, i) => {
  children.add(startDemoServer({ port: base + i, scratch: join(scratch, String(i)), env: { DIST_DIR: dist } }));
  return { label: String.fromCharCode(65 + i), dist, origin: `http://127.0.0.1:${base + i}` };
});
await Promise.all(builds.map((b) => waitFor(`${b.origin}/public/courses`, 180_000)));

const results = abRuns(builds);
for (const p of pages) {
  for (let r = 0; r < runs; r++) {
    for (const b of results.order(r)) {
      const lhr = lighthouseRun(`${b.origin}${p.path}`, { port: base + builds.length, out: join(scratch, 'lh.json'), keep: keepDir ? join(keepDir, `${p.key}-${b.label}-${r + 1}.json`) : null });
      if (!lhr) {
        log(`lighthouse failed on ${b.label} ${p.path}`);
        continue;
      }
      const run = { score: Math.round((lhr.categories.performance?.score ?? 0) * 100), tbt: Math.round(lhr.audits['total-blocking-time'].numericValue), bi: Math.round(lhr.environment?.benchmarkIndex ?? 0) };
      results.add(p, b, run);
      log(`page ${p.key} build ${b.label} run ${r + 1}: score ${run.score}, TBT ${run.tbt} ms, benchmarkIndex ${run.bi}`);
    }
  }
}

console.log(results.legend());
console.log('page     build  score (each run)      TBT ms (each run)          benchmarkIndex (each run)      TBT median  worst');
for (const p of pages) {
  for (const b of builds) {
    const s = results.of(p, b);
    const tbt = s.map((x) => x.tbt);
    console.log(`${p.key.padEnd(8)} ${b.label.padEnd(6)} ${s.map((x) => x.score).join('/').padEnd(21)} ${tbt.join('/').padEnd(26)} ${s.map((x) => x.bi).join('/').padEnd(30)} ${String(median(tbt)).padStart(10)} ${String(Math.max(...tbt)).padStart(6)}`);
  }
}
process.exit(0);
