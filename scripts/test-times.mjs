#!/usr/bin/env node
// Where a test run's time went: per file of each vitest report (wall time from its first test's
// start to its last test's end: the file's imports, its environment and a beforeAll before the first
// test are not in it; docs/testing.md, "Time") and per spec file of the Playwright report (the sum of its
// tests' durations), slowest first, with the stage totals. Reads the reports `npm test` writes to
// .test-reports (vitest-domain.json, vitest.json, vitest-pg.json, playwright.json); a missing report is skipped.
// With --steps, a Playwright report's time is also split by the tests' own steps (test.step: the
// engine's 'buyer', 'start', each path step by its kind, 'database'; the rest of a test is its
// page, context and fixtures, a worker's shop start included in its first test).
//   node scripts/test-times.mjs [--top N] [--steps] [report.json …]
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 15;
const stepsAt = args.indexOf('--steps');
const bySteps = stepsAt >= 0 && args.splice(stepsAt, 1).length > 0;
const files = args.length ? args : ['vitest-domain.json', 'vitest.json', 'vitest-pg.json', 'playwright.json'].map((f) => join(root, '.test-reports', f));

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

/** The kind of an engine step by its title (tests/e2e/engine/runner.ts: `start`, `<i> <label>`, `database`). */
function stepKind(title) {
  const label = title.replace(/^\d+ /, '');
  if (label === title) return title;
  if (label === 'payment.resume') return 'payment.resume (a reload or a return)';
  if (label.startsWith('✓') || label.startsWith('✗')) return 'server answer (✓/✗)';
  if (label.startsWith('⇠')) return 'push (⇠)';
  if (label.startsWith('⏱')) return `timer ${label}`;
  return 'user action';
}

/** Seconds per step kind over the report's tests (top-level steps only), and the time outside any step. */
function playwrightSteps(j) {
  const kinds = new Map();
  const add = (k, ms) => {
    const cur = kinds.get(k) ?? [0, 0];
    kinds.set(k, [cur[0] + ms, cur[1] + 1]);
  };
  let tests = 0;
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        for (const r of t.results ?? []) {
          tests++;
          let inSteps = 0;
          for (const st of r.steps ?? []) {
            add(stepKind(st.title), st.duration ?? 0);
            inSteps += st.duration ?? 0;
          }
          add((r.steps ?? []).length ? 'outside steps (page, context, fixtures)' : 'tests without steps', Math.max(0, (r.duration ?? 0) - inSteps));
        }
      }
    }
    for (const s of suite.suites ?? []) walk(s);
  };
  for (const s of j.suites ?? []) walk(s);
  return { tests, rows: [...kinds].sort((a, b) => b[1][0] - a[1][0]) };
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
  if (isPlaywright && bySteps) {
    const { tests, rows: kinds } = playwrightSteps(j);
    console.log(`\nby step, over ${tests} test runs:\n| step | s | count | s each |\n|---|---:|---:|---:|`);
    for (const [k, [ms, n]] of kinds) console.log(`| ${k} | ${secs(ms)} | ${n} | ${secs(ms / n)} |`);
  }
}
