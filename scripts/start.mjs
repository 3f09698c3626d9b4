#!/usr/bin/env node
// `npm start`: build the app if it is missing or older than its sources, then serve the app and
// the reference API on one port (PORT, default 3000; HOST, default 127.0.0.1) on the embedded
// PostgreSQL (PGlite in .data/), seeded with the demo catalogue on first start.
// It is the demo shop: NODE_ENV=development (sandboxes, demo keys, the demo-payments notice, the
// back office on the documented token). NODE_ENV=production is the real shop and refuses to start
// until every provider, key and ADMIN_TOKEN is set (server/config.ts productionProblems).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const f of readdirSync(dir, { recursive: true })) {
    const s = statSync(join(dir, String(f)));
    if (s.isFile()) t = Math.max(t, s.mtimeMs);
  }
  return t;
}

const built = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0;
const sources = Math.max(newest('src'), newest('machines'), newest('domain'), newest('generated'), statSync('index.html').mtimeMs);
// SERVE_APP=0 serves only the API: no app to build.
if (process.env.SERVE_APP !== '0' && built < sources) {
  console.log('[start] building the app (vite build)…');
  const r = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// The server runs in this process's child directly (no npx in between), its TypeScript run by Node
// itself (scripts/ts-hooks.mjs). Ctrl-C sends SIGINT to the
// whole process group (npm, this script, the server); a signal sent to this process alone is
// passed on. The server shuts down once however many copies arrive (server/main.ts), and this
// script exits with its exit code when it is done — never before.
const child = spawn(process.execPath, ['--import', './scripts/ts-hooks.mjs', 'server/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV || 'development' },
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
  });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1)));
