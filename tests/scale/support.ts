/**
 * Processes for the scale tests: the real server (`node --import ./scripts/ts-hooks.mjs server/main.ts`, as `npm start`
 * runs it, NODE_ENV=development) and Debian's haproxy with the repository's deploy/haproxy.cfg.
 * Ports: chosen by the system, or from TEST_PORT_RANGE ("5610-5699") when set.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPostgres, type PgCluster } from '../support/postgres';
import { createSession } from '../../server/auth/sessions';
import type { Db } from '../../server/db/index';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const HAPROXY = '/usr/sbin/haproxy';
export const HAPROXY_CFG = `${ROOT}deploy/haproxy.cfg`;

let nextInRange = 0;
function tryListen(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(null));
    srv.listen(port, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => resolve(a && typeof a === 'object' ? a.port : null));
    });
  });
}

export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/u.exec(process.env.TEST_PORT_RANGE ?? '');
  if (!range) return (await tryListen(0))!;
  const lo = Number(range[1]);
  const hi = Number(range[2]);
  for (let i = 0; i <= hi - lo; i++) {
    const port = lo + ((nextInRange++) % (hi - lo + 1));
    if (await tryListen(port)) return port;
  }
  throw new Error(`no free port in ${process.env.TEST_PORT_RANGE}`);
}

export interface Proc {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, output: () => out, exited };
}

/** The server as `npm start` runs it, on its own port; `dir` holds outbox and uploads. */
export function startServer(port: number, dir: string, env: NodeJS.ProcessEnv = {}): Proc {
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    SERVE_APP: '0',
    LOG_LEVEL: 'warn',
    OUTBOX_DIR: `${dir}/outbox`,
    UPLOADS_DIR: `${dir}/uploads`,
    PGLITE_DIR: `${dir}/pglite`,
    // These tests place hundreds of orders from one address and a few accounts to load the
    // processes: the per-account / per-address caps on unpaid orders and coupon uses (tested on
    // their own in tests/server/holds.test.ts) are off here.
    UNPAID_ORDERS_PER_ACCOUNT: '0',
    UNPAID_ORDERS_PER_ADDRESS: '0',
    COUPON_USES_PER_ACCOUNT: '0',
  };
  return run(process.execPath, ['--import', './scripts/ts-hooks.mjs', 'server/main.ts'], { ...base, ...env });
}

export async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, what: string, ms = 60_000, proc?: Proc): Promise<T> {
  const until = Date.now() + ms;
  let last: unknown = null;
  while (Date.now() < until) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (proc && proc.child.exitCode !== null) throw new Error(`${what}: the process exited (${proc.child.exitCode})\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what} (${String(last)})${proc ? `\n${proc.output()}` : ''}`);
}

export async function ready(origin: string, proc?: Proc, ms = 90_000): Promise<void> {
  await waitFor(async () => (await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(3000) })).status === 200, `${origin}/readyz`, ms, proc);
}

export function haproxyAvailable(): boolean {
  return existsSync(HAPROXY);
}

/**
 * Debian's haproxy with deploy/haproxy.cfg in front of the given processes. The per-address rate
 * limit is raised (every test request comes from 127.0.0.1) unless the test sets it.
 */
export function startBalancer(bind: number, apps: [number, number], env: NodeJS.ProcessEnv = {}): Proc {
  return run(HAPROXY, ['-db', '-f', HAPROXY_CFG], {
    PATH: process.env.PATH,
    SHOP_BIND: `127.0.0.1:${bind}`,
    SHOP_APP1: `127.0.0.1:${apps[0]}`,
    SHOP_APP2: `127.0.0.1:${apps[1]}`,
    SHOP_RATE_LIMIT: '1000000',
    ...env,
  });
}

/** Stops processes: SIGTERM, then SIGKILL after `ms`. */
export async function stopAll(procs: (Proc | undefined)[], ms = 15_000): Promise<void> {
  const live = procs.filter((p): p is Proc => !!p && p.child.exitCode === null && p.child.signalCode === null);
  for (const p of live) p.child.kill('SIGTERM');
  await Promise.all(live.map((p) => Promise.race([p.exited, new Promise((r) => setTimeout(r, ms))])));
  for (const p of live) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
}

/** Two server processes (A, B) on one database behind the balancer, their folders under `dir`. */
export interface Pair {
  cluster: PgCluster;
  /** The database `shop` of the cluster, which both processes use. */
  url: string;
  dir: string;
  a: Proc;
  b: Proc;
  lb: Proc;
  originA: string;
  originB: string;
  originLb: string;
}

/**
 * A throwaway PostgreSQL with an empty database `shop`, two server processes started at once on
 * it (migrations and the demo seed must happen once) with `env`, and haproxy in front of them.
 * Starting (loading the server, migrations, the seed) is slow on a busy machine: `readyMs` for each process.
 */
export async function startPair(prefix: string, env: NodeJS.ProcessEnv = {}, readyMs?: number): Promise<Pair> {
  if (!haproxyAvailable()) throw new Error(`${HAPROXY} is missing: run \`node scripts/ensure-system.mjs haproxy\``);
  const cluster = await startPostgres();
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('CREATE DATABASE shop');
  await admin.end();
  const url = cluster.url.replace(/\/postgres$/u, '/shop');
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const [pa, pb, pl] = [await freePort(), await freePort(), await freePort()];
  const [originA, originB, originLb] = [pa, pb, pl].map((p) => `http://127.0.0.1:${p}`) as [string, string, string];
  const a = startServer(pa, join(dir, 'a'), { DATABASE_URL: url, ...env });
  const b = startServer(pb, join(dir, 'b'), { DATABASE_URL: url, ...env });
  let lb: Proc | undefined;
  try {
    await Promise.all([ready(originA, a, readyMs), ready(originB, b, readyMs)]);
    lb = startBalancer(pl, [pa, pb]);
    await ready(originLb, lb);
  } catch (err) {
    // the caller gets nothing to stop: stop it all here
    await stopAll([lb, a, b]);
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return { cluster, url, dir, a, b, lb, originA, originB, originLb };
}

/** `count` students (`<prefix>0`, `<prefix>1`, …, the demo student's password), each with a session: their ids and cookies. */
export async function makeBuyers(db: Db, prefix: string, count: number): Promise<{ userIds: number[]; cookies: string[] }> {
  const hash = (await db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'student'")).rows[0]!.password_hash;
  const userIds: number[] = [];
  const cookies: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await db.query<{ id: number }>(
      "INSERT INTO users (role, username, email, password_hash, firstname, lastname, user_group_id) VALUES ('student', $1, $2, $3, 'ผู้ซื้อ', $4, 1) RETURNING id",
      [`${prefix}${i}`, `${prefix}${i}@example.com`, hash, String(i)],
    );
    userIds.push(r.rows[0]!.id);
    cookies.push(`sid=${(await createSession(db, r.rows[0]!.id, 'student', new Date(), 24)).token}`);
  }
  return { userIds, cookies };
}

/** Stops a pair (when it started): its processes, then `beforeDatabase` (the test's own connections), the cluster, its folders. */
export async function stopPair(pair: Pair | undefined, beforeDatabase: () => unknown = () => undefined): Promise<void> {
  await stopAll([pair?.lb, pair?.a, pair?.b]);
  await beforeDatabase();
  await pair?.cluster.stop();
  if (pair) rmSync(pair.dir, { recursive: true, force: true });
}
