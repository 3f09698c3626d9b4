#!/usr/bin/env node
// `npm run dev`: the reference API (watch mode) on API_PORT (3001) and Vite on 5173 proxying to it.
// Both run as this script's children, without npx in between. Ctrl-C sends SIGINT to the whole
// process group: each child shuts down once (the API drains and releases its PGlite folder,
// server/main.ts), and this script exits when both have — never before, so the terminal's prompt
// comes back only once the API has let go of its database. SIGTERM sent to this script is passed on
// to both. When one child ends by itself the other is stopped too.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);
const apiPort = process.env.API_PORT ?? '3001';
const children = [];
if (existsSync('server/main.ts')) {
  // tsx watch restarts the API on a change: the new process waits for the old one to release the
  // PGlite folder (PGLITE_LOCK_WAIT_MS) instead of being refused.
  children.push(
    spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', '--clear-screen=false', 'server/main.ts'], {
      stdio: 'inherit',
      env: { ...process.env, PORT: apiPort, NODE_ENV: 'development', SERVE_APP: '0', PGLITE_LOCK_WAIT_MS: process.env.PGLITE_LOCK_WAIT_MS ?? '15000' },
    }),
  );
}
children.push(spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--port', process.env.PORT ?? '5173', '--strictPort'], { stdio: 'inherit', env: { ...process.env, API_PORT: apiPort } }));

const running = (c) => c.exitCode === null && c.signalCode === null;
let stopping = false;
const stop = (sig) => {
  stopping = true;
  for (const c of children) if (running(c)) c.kill(sig);
};
// Ctrl-C: the terminal already sent SIGINT to every process of the group. Passing it on again would
// make tsx watch kill the draining API with SIGKILL (its answer to a second signal), so SIGINT is
// passed on only if the children are still running 10 s later (it was sent to this script alone).
process.on('SIGINT', () => {
  stopping = true;
  setTimeout(() => stop('SIGTERM'), 10_000).unref();
});
for (const sig of ['SIGTERM', 'SIGHUP']) process.on(sig, () => stop(sig));
let code = 0;
for (const c of children) {
  c.on('exit', (status) => {
    if (!stopping) code = status ?? 1;
    else if (status && status !== 130) code = code || status;
    if (!stopping) stop('SIGTERM');
    if (children.every((x) => !running(x))) process.exit(code);
  });
}
