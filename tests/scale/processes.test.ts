// The server as operators start and stop it (real processes):
//  - one process per PGlite folder: `npm start` holds it; a second server and `npm run admin --direct`
//    on the same folder are refused with a message naming the folder and the holder's pid; the
//    holder file belongs to the holder;
//  - Ctrl-C (SIGINT to the whole process group of `node scripts/start.mjs`) shuts the server down
//    once, exit 0, and releases the folder;
//  - NODE_ENV=production on an empty database seeds nothing: the demo password does not log in.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteHolderFile } from '../../server/db/pglite-lock';
import { PROVIDER_URL_SETTINGS, SANDBOX_KEYS } from '../../server/providers/config';
import { freePort, ready, ROOT, run, startServer, type Proc } from './support';

const dir = mkdtempSync(join(tmpdir(), 'processes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function baseEnv(port: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    SERVE_APP: '0',
    LOG_LEVEL: 'info',
    OUTBOX_DIR: join(dir, 'outbox'),
    UPLOADS_DIR: join(dir, 'uploads'),
    ...extra,
  };
}

describe('one process per PGlite folder; Ctrl-C', () => {
  it('npm start holds the folder, a second process is refused, Ctrl-C shuts down once and releases it', async () => {
    const folder = join(dir, 'pglite');
    const port = await freePort();
    // `npm start` in its own process group, as a terminal runs it.
    const start = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env: baseEnv(port, { PGLITE_DIR: folder }), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    start.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    start.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((r) => start.once('exit', (c) => r(c)));
    const proc: Proc = { child: start, output: () => out, exited: exited.then((code) => ({ code, signal: null })) };
    await ready(`http://127.0.0.1:${port}`, proc, 180_000);

    const holder = JSON.parse(readFileSync(pgliteHolderFile(folder), 'utf8')) as { pid: number; url: string };
    expect(holder.url).toBe(`http://127.0.0.1:${port}`);
    expect(holder.pid).not.toBe(start.pid); // the server, not the launcher

    // A second server on the same folder.
    const second = startServer(await freePort(), join(dir, 'second'), { PGLITE_DIR: folder });
    expect((await second.exited).code).toBe(1);
    expect(second.output()).toContain(`The embedded database folder ${folder} is in use by process ${holder.pid}`);
    // The admin CLI opening it directly.
    const admin = run(process.execPath, ['--import', './scripts/ts-hooks.mjs', 'scripts/admin.ts', 'pending', '--direct'], baseEnv(port, { PGLITE_DIR: folder, NODE_ENV: 'development' }));
    expect((await admin.exited).code).not.toBe(0);
    expect(admin.output()).toContain(`process ${holder.pid}`);
    // The refused processes left the holder's file alone.
    expect(JSON.parse(readFileSync(pgliteHolderFile(folder), 'utf8'))).toMatchObject({ pid: holder.pid });

    // Ctrl-C: SIGINT to the whole group (launcher and server), twice as a terminal plus npm would.
    process.kill(-start.pid!, 'SIGINT');
    process.kill(-start.pid!, 'SIGINT');
    expect(await exited).toBe(0);
    expect(out.match(/shutting down: draining/gu)?.length).toBe(1);
    expect(out).toContain('shut down cleanly');
    expect(existsSync(pgliteHolderFile(folder))).toBe(false);
  }, 300_000);
});

describe('production holds no demo accounts', () => {
  it('NODE_ENV=production on an empty database: student/student123 cannot log in', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = baseEnv(port, { NODE_ENV: 'production', PGLITE_DIR: join(dir, 'prod'), ADMIN_TOKEN: 'Vq3x9LmT7rPz2KdW8sYbN4cF6hJgA1eU0oRi', PUBLIC_ORIGIN: 'https://shop.example.com' });
    for (const name of PROVIDER_URL_SETTINGS) env[name] = `https://api.${name.toLowerCase().split('_')[0]}.example/v1`;
    for (const name of Object.keys(SANDBOX_KEYS)) env[name] = `real-${name.toLowerCase()}-0123456789`;
    const server = run(process.execPath, ['--import', './scripts/ts-hooks.mjs', 'server/main.ts'], env);
    try {
      await ready(`http://127.0.0.1:${port}`, server, 180_000);
      for (const [username, password] of [['student', 'student123'], ['teacher', 'teacher123'], ['student2', 'student123']]) {
        const r = await fetch(`http://127.0.0.1:${port}/public/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
        expect(r.status, username).toBe(401);
      }
      expect(server.output()).not.toContain('seeded the demo shop');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 300_000);
});
