#!/usr/bin/env node
// `npm run check`: contract freshness, typecheck, lint, OpenAPI lint, statecharts up to date.
// Two lanes at once, since each tool uses about one core: the typecheck (TypeScript 7's native
// compiler, one thread: 11 s against 51 s for TypeScript 5.9's tsc on the AMD EPYC machine, and
// faster in wall time than its threads there, docs/testing.md "Time") and then the short ones
// (generate:check, lint:openapi, machines:draw --check) in one, the lint (the longest) in the
// other. Each command's output is printed whole when it ends (never interleaved), and the check
// fails when any command fails.
import { spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;

const lanes = [
  [['typecheck'], ['generate:check'], ['lint:openapi'], ['machines:draw', '--', '--check']],
  [['lint']],
];

/** Runs `npm run -s <script> [args]` and resolves with its exit code once its output is printed. */
function run([script, ...args]) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn('npm', ['run', '-s', script, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('close', (code, signal) => {
      const text = Buffer.concat(out).toString().trimEnd();
      const secs = ((Date.now() - t0) / 1000).toFixed(1);
      const status = code === 0 ? 'ok' : `failed (exit ${code ?? signal})`;
      console.log(`[check] ${script} ${status} in ${secs} s${text ? `\n${text}` : ''}`);
      resolve(code === 0 ? 0 : 1);
    });
  });
}

/** One lane: its commands in order, stopping at the first failure. */
async function lane(commands) {
  for (const c of commands) if ((await run(c)) !== 0) return 1;
  return 0;
}

const codes = await Promise.all(lanes.map(lane));
process.exit(codes.some((c) => c !== 0) ? 1 : 0);
