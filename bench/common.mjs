// What the bench scripts share: their command-line options, their child processes (each in its own
// process group, stopped when the script ends), waiting for a server, the demo shop's server,
// Chromium's flags for Lighthouse and one Lighthouse run as `npm run bench` makes it.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root (the scripts run from there). */
export const root = new URL('..', import.meta.url).pathname;

/** Debian's Chromium unless CHROME_PATH says otherwise. */
/** The pages the Lighthouse target names (layouts 1-4 and the product page), by key, as the bench's scripts take them (`--pages 1,4,product`). */
export const BENCH_PAGES = [
  { key: '1', path: '/course/2-python-for-beginners' },
  { key: '2', path: '/course/3-ux-ui-workshop' },
  { key: '3', path: '/course/7-japanese-n5-live' },
  { key: '4', path: '/course/5-private-math-tutoring' },
  { key: 'product', path: '/product/12-english-grammar-book' },
];

export const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';

/** Chromium's flags for Lighthouse: headless, offline from every background service. */
export const LIGHTHOUSE_CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'].join(' ');

/**
 * One Lighthouse run of `url` (mobile preset, simulated throttling, performance only) in a fresh
 * Chromium on `port`, as `npm run bench` and `bench/lighthouse-ab.mjs` both make it: the report
 * (written to `out`, copied to `keep` when given), or null when Lighthouse failed.
 */
export function lighthouseRun(url, { port, out, keep = null }) {
  const res = spawnSync(
    process.execPath,
    ['node_modules/lighthouse/cli/index.js', url, '--quiet', '--output=json', `--output-path=${out}`, `--port=${port}`, `--chrome-flags=${LIGHTHOUSE_CHROME_FLAGS}`, '--only-categories=performance'],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CHROME_PATH: chromePath } },
  );
  if (res.status !== 0) return null;
  if (keep) copyFileSync(out, keep);
  return JSON.parse(readFileSync(out, 'utf8'));
}

/** The command line's options: `opt('--runs', 5)` (the word after the name, else the default), `has('--tasks')`, `list('--pages')` (a comma list). */
export function options(argv = process.argv.slice(2)) {
  const opt = (name, dflt) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : dflt;
  };
  return { argv, opt, has: (name) => argv.includes(name), list: (name, dflt = '') => String(opt(name, dflt)).split(',').filter(Boolean) };
}

/**
 * The script's child processes: `children.add(spawn(…, { detached: true }))`; every one's process
 * group is stopped, then each cleanup run, by `stopAll()` and when the script exits (Ctrl-C too).
 */
export function processGroup() {
  const children = new Set();
  const cleanups = [];
  function stopAll() {
    for (const c of children) {
      try {
        process.kill(-c.pid, 'SIGTERM');
      } catch {
        // gone
      }
    }
    children.clear();
    for (const f of cleanups.splice(0)) f();
  }
  process.on('exit', stopAll);
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));
  return { children, cleanups, stopAll };
}

/** Resolves once `url` answers 2xx; throws after `ms`. */
export async function waitFor(url, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(3000) });
      if (r.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The reference server (server/main.ts) with the demo shop on in-memory PGlite, in its own process
 * group, its mail and uploads under `scratch`; `env` adds to (or overrides) its environment.
 */
export function startDemoServer({ port, scratch, env = {} }) {
  return spawn(process.execPath, ['--import', './scripts/ts-hooks.mjs', 'server/main.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
    env: { ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', PGLITE_DIR: 'memory', OUTBOX_DIR: join(scratch, 'o'), UPLOADS_DIR: join(scratch, 'u'), LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
  });
}

/** The median of numbers (the lower middle one of an even count); NaN for none. */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
}

/**
 * The runs of an A/B comparison of builds (bench/lighthouse-ab.mjs, main-thread.mjs, load-cpu.mjs),
 * by page and build: `order(r)` the builds of round r (alternating which goes first, so neither always
 * runs right after the other), `add` one run, `of` a page's runs on a build (oldest first), `legend`
 * the line naming each build's dist.
 */
export function abRuns(builds) {
  const runs = new Map();
  const key = (page, build) => `${page.key}|${build.label}`;
  return {
    order: (r) => (r % 2 === 0 ? builds : [...builds].reverse()),
    add(page, build, run) {
      const k = key(page, build);
      if (!runs.has(k)) runs.set(k, []);
      runs.get(k).push(run);
    },
    of: (page, build) => runs.get(key(page, build)) ?? [],
    legend: () => `builds: ${builds.map((b) => `${b.label} = ${b.dist}`).join('; ')}`,
  };
}
