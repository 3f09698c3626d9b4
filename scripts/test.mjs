#!/usr/bin/env node
// `npm test`: everything CI checks, in order, failing fast.
//  1. system packages (PostgreSQL, Chromium from Debian) when missing
//  2. npm run check: contract freshness, typecheck, lint (import boundaries), OpenAPI lint, endpoint coverage
//  3. vitest: first the domain project with coverage (its line threshold, vite.config.ts), then every
//     other project without coverage: machines, server (embedded PGlite), types, ui and the scale
//     test (tests/scale: two server processes on a throwaway PostgreSQL behind haproxy); coverage's
//     instrumentation slowed every other project and no threshold reads it (docs/decisions/0036)
//  4. the server files where the database matters (tests/server/on-postgres.mjs: locks, NOTIFY,
//     concurrency) again on a real PostgreSQL cluster (started and stopped here)
//  5. end to end in Debian's Chromium (Playwright), when tests/e2e has specs, then the browser coverage (e2e:report)
// Ends with the slowest files of each stage (scripts/test-times.mjs) and one plain line
// "tests: N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ON_POSTGRES } from '../tests/server/on-postgres.mjs';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);
const started = Date.now();
const totals = { passed: 0, failed: 0, skipped: 0 };
const timings = [];

/** Runs one stage; `results` reads its report (also when it failed) before a failure ends the run. */
function step(name, cmd, args, env = {}, results = () => {}) {
  const t0 = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  timings.push(`${name} ${secs}s`);
  results();
  if (r.status !== 0) {
    if (totals.failed === 0) totals.failed = 1; // a stage that failed without a test report (check, build, crash)
    console.error(`\n=== ${name} failed (exit ${r.status ?? r.signal}) after ${secs}s`);
    finish(1);
  }
}

function readVitest(file) {
  if (!existsSync(file)) return;
  const j = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += j.numPassedTests ?? 0;
  totals.failed += j.numFailedTests ?? 0;
  totals.skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
}

function readPlaywright(file) {
  if (!existsSync(file)) return;
  const s = JSON.parse(readFileSync(file, 'utf8')).stats ?? {};
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
  totals.failed += s.unexpected ?? 0;
  totals.skipped += s.skipped ?? 0;
}

function finish(code) {
  // Where the time went: the slowest files of each stage's report (docs/testing.md, "Time").
  spawnSync('node', ['scripts/test-times.mjs', '--top', '12'], { stdio: 'inherit' });
  console.log(`\n=== timings: ${timings.join(', ')}; total ${((Date.now() - started) / 1000).toFixed(1)}s`);
  console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(code);
}

function hasFiles(dir, re) {
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { recursive: true }).some((f) => re.test(String(f)));
}

const out = join(root, '.test-reports'); // not test-results/: Playwright empties that folder when it starts
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const missing = ON_POSTGRES.filter((f) => !existsSync(join(root, f)));
if (missing.length) {
  console.error(`tests/server/on-postgres.mjs lists files that do not exist: ${missing.join(', ')}`);
  process.exit(1);
}
const needPg = ON_POSTGRES.length > 0;
const needE2e = hasFiles('tests/e2e', /\.spec\.ts$/);
const needScale = hasFiles('tests/scale', /\.test\.ts$/);

const sys = [(needPg || needScale) && 'postgres', needScale && 'haproxy', needE2e && 'chromium', needPg && 'poppler'].filter(Boolean);
if (sys.length) step('system packages', 'node', ['scripts/ensure-system.mjs', ...sys]);

step('check', 'npm', ['run', '-s', 'check']);
step('endpoints', 'node', ['scripts/check-endpoints.mjs']);

// The domain's line coverage (the threshold in vite.config.ts) from the domain's own tests.
step('vitest (domain, coverage)', 'npx', ['vitest', 'run', '--project', 'domain', '--coverage', '--reporter=default', '--reporter=json', `--outputFile.json=${join(out, 'vitest-domain.json')}`], {}, () => readVitest(join(out, 'vitest-domain.json')));
// Everything else, without coverage; scripts/vitest-timeline.ts writes where the time went (.test-reports/vitest-timeline.json).
step('vitest (PGlite)', 'npx', ['vitest', 'run', '--project', '!domain', '--reporter=default', '--reporter=./scripts/vitest-timeline.ts', '--reporter=json', `--outputFile.json=${join(out, 'vitest.json')}`], {}, () => readVitest(join(out, 'vitest.json')));

if (needPg) {
  // The server files where the database matters, against Debian's PostgreSQL: a throwaway cluster
  // for this run (the rule is in tests/server/on-postgres.mjs; everything else ran on PGlite above).
  step('vitest (PostgreSQL)', 'node', ['--import', './scripts/ts-hooks.mjs', 'scripts/with-postgres.ts', '--', 'npx', 'vitest', 'run', '--project', 'server', ...ON_POSTGRES, '--reporter=default', '--reporter=json', `--outputFile.json=${join(out, 'vitest-pg.json')}`], {}, () => readVitest(join(out, 'vitest-pg.json')));
}

if (needE2e) {
  step('build', 'npx', ['vite', 'build', '--logLevel', 'warn']);
  // Three workers (playwright.config.ts says why), each with its own server on its own copy of the demo shop's
  // database (tests/e2e/engine/fixtures.ts, global-setup.ts: one throwaway PostgreSQL for the run); dist/ was just built.
  step('e2e (Chromium)', 'npx', ['playwright', 'test', '--workers=3'], { PLAYWRIGHT_JSON_OUTPUT_NAME: join(out, 'playwright.json'), E2E_SKIP_BUILD: '1' }, () => readPlaywright(join(out, 'playwright.json')));
  // What the browser paths walked, per machine; fails below 100% of a payment machine's states (known gaps named).
  step('e2e coverage', 'node', ['--import', './scripts/ts-hooks.mjs', 'scripts/e2e-report.mjs']);
}

finish(totals.failed > 0 ? 1 : 0);
