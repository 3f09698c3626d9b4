#!/usr/bin/env node
// `npm run dev`: the reference API (watch mode) on API_PORT (3001) and Vite on 5173 proxying to it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);
const apiPort = process.env.API_PORT ?? '3001';
const children = [];
if (existsSync('server/main.ts')) {
  children.push(spawn('npx', ['tsx', 'watch', 'server/main.ts'], { stdio: 'inherit', env: { ...process.env, PORT: apiPort, NODE_ENV: 'development', SERVE_APP: '0' } }));
}
children.push(spawn('npx', ['vite', '--port', process.env.PORT ?? '5173'], { stdio: 'inherit', env: { ...process.env, API_PORT: apiPort } }));
const stop = (sig) => children.forEach((c) => c.kill(sig));
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
children.forEach((c) => c.on('exit', (code) => { stop('SIGTERM'); process.exit(code ?? 0); }));
