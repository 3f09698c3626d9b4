#!/usr/bin/env node
// Where a test run's time went: per file of each vitest report (wall time from its first test's
// start to its last test's end: the file's imports, its environment and a beforeAll before the first
// test are not in it; docs/testing.md, "Time") and per spec file of the Playwright report (the sum of its
// tests' durations), slowest first, with the stage totals. Reads the reports `npm test` writes to
// .test-reports (vitest.json, vitest-pg.json, playwright.json); a missing report is skipped.
//   node scripts/test-times.mjs [--top N] [report.json …]
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 15;
const files = args.length ? args : ['vitest.json', 'vitest-pg.json', 'playwright.json'].map((f) => join(root, '.test-reports', f));

const secs = (ms) => (ms / 1000).toFixed(1);

/** [file, ms, tests] of a vitest json report. */
function vitestFiles(j) {
  return (j.testResults ?? []).map((r) => [relative(root, r.name), Math.max(0, (r.endTime ?? 0) - (r.startTime ?? 0)), (r.assertionResults ?? []).length]);
}

/** [file, ms, tests] of a Playwright json report (tests of one spec file summed, every retry counted). */
function playwrightFiles(j) {
  const per = new Map();
  const walk = (suite, file) => {
    const f = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const ms = (t.results ?? []).reduce((a, r) => a + (r.duration ?? 0), 0);
        const cur = per.get(f) ?? [0, 0];
        per.set(f, [cur[0] + ms, cur[1] + 1]);
      }
    }
    for (const s of suite.suites ?? []) walk(s, f);
  };
  for (const s of j.suites ?? []) walk(s, s.file);
  return [...per].map(([f, [ms, n]]) => [`tests/e2e/${f}`, ms, n]);
}

for (const file of files) {
  if (!existsSync(file)) continue;
  const j = JSON.parse(readFileSync(file, 'utf8'));
  const isPlaywright = 'suites' in j && 'config' in j;
  const rows = (isPlaywright ? playwrightFiles(j) : vitestFiles(j)).sort((a, b) => b[1] - a[1]);
  const wall = isPlaywright ? (j.stats?.duration ?? 0) : rows.length ? Math.max(...j.testResults.map((r) => r.endTime ?? 0)) - (j.startTime ?? 0) : 0;
  const sum = rows.reduce((a, r) => a + r[1], 0);
  console.log(`\n${relative(root, file)}: ${rows.length} files, ${rows.reduce((a, r) => a + r[2], 0)} tests, ${secs(wall)} s wall, ${secs(sum)} s summed over files`);
  console.log('| file | s | tests |\n|---|---:|---:|');
  for (const [f, ms, n] of rows.slice(0, top)) console.log(`| ${f} | ${secs(ms)} | ${n} |`);
  if (rows.length > top) console.log(`| ${rows.length - top} more | ${secs(rows.slice(top).reduce((a, r) => a + r[1], 0))} | ${rows.slice(top).reduce((a, r) => a + r[2], 0)} |`);
}
