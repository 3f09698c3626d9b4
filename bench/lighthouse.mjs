#!/usr/bin/env node
// Lighthouse 12 on the course page: builds the app, starts the app + reference API on a free port
// (in-memory PGlite seeded with the demo shop, throwaway mail/upload folders), runs Lighthouse in
// Debian's Chromium (CHROME_PATH=/usr/bin/chromium, offline flags) and prints the performance,
// accessibility and best-practices scores with LCP, TBT and CLS.
// Usage: node bench/lighthouse.mjs [--no-build] [--desktop] [path ...]
//   default paths: /course/1-english-for-communication (layout 3) and /course/5-private-math-tutoring (layout 4)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromePath, LIGHTHOUSE_CHROME_FLAGS, options, processGroup, root, startDemoServer, waitFor } from './common.mjs';

process.chdir(root);
const { argv, has } = options();
const paths = argv.filter((a) => !a.startsWith('--'));
if (paths.length === 0) paths.push('/course/1-english-for-communication', '/course/5-private-math-tutoring');

if (!has('--no-build')) {
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const port = await freePort();
const scratch = mkdtempSync(join(tmpdir(), 'course-lh-'));
const origin = `http://127.0.0.1:${port}`;
const { children, cleanups } = processGroup();
cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
children.add(startDemoServer({ port, scratch }));
try {
  await waitFor(`${origin}/public/courses`);
} catch {
  console.error('the server did not start');
  process.exit(1);
}

const rows = [];
for (const path of paths) {
  const out = join(scratch, `lh-${rows.length}.json`);
  const args = [
    'lighthouse',
    `${origin}${path}`,
    '--quiet',
    '--output=json',
    `--output-path=${out}`,
    `--chrome-flags=${LIGHTHOUSE_CHROME_FLAGS}`,
    '--only-categories=performance,accessibility,best-practices',
    ...(has('--desktop') ? ['--preset=desktop'] : []),
  ];
  const r = spawnSync('npx', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CHROME_PATH: chromePath } });
  if (r.status !== 0) {
    console.error(`lighthouse failed on ${path}`);
    process.exit(r.status ?? 1);
  }
  const lhr = JSON.parse(readFileSync(out, 'utf8'));
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const audit = (id) => lhr.audits[id];
  rows.push({
    path,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    lcpMs: Math.round(audit('largest-contentful-paint').numericValue),
    tbtMs: Math.round(audit('total-blocking-time').numericValue),
    cls: Number(audit('cumulative-layout-shift').numericValue.toFixed(3)),
    failing: Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable' && a.scoreDisplayMode !== 'manual')
      .map((a) => a.id),
  });
}

const mode = has('--desktop') ? 'desktop' : 'mobile (simulated throttling)';
console.log(`Lighthouse ${JSON.parse(readFileSync('node_modules/lighthouse/package.json', 'utf8')).version}, ${mode}, ${chromePath}`);
console.log('page'.padEnd(40), 'perf'.padStart(5), 'a11y'.padStart(5), 'bp'.padStart(5), 'LCP ms'.padStart(8), 'TBT ms'.padStart(8), 'CLS'.padStart(7));
for (const r of rows) {
  console.log(r.path.padEnd(40), String(r.performance).padStart(5), String(r.accessibility).padStart(5), String(r.bestPractices).padStart(5), String(r.lcpMs).padStart(8), String(r.tbtMs).padStart(8), String(r.cls).padStart(7));
  if (r.failing.length) console.log('  below 0.9:', r.failing.join(', '));
}
if (has('--json')) console.log(JSON.stringify(rows, null, 2));
