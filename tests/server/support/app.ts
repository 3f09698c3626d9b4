/**
 * A seeded app for one test file: PGlite in memory by default, started from the run's template
 * database (./pglite-template.ts: migrated and seeded once per run, not once per file); a fresh
 * database on the PostgreSQL of TEST_DATABASE_URL when set (scripts/with-postgres.ts), or on
 * `pgUrl` when given (migrated and seeded there).
 * Every request goes through app.inject and every answer of an operation is re-checked against
 * openapi.yaml with an independent validator (./contract).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../../server/app';
import { createDb, type Db } from '../../../server/db/index';
import { seed } from '../../../server/db/seed';
import { fixedClock } from '../../../server/clock';
import { loadAbuseLimits, type Config } from '../../../server/config';
import { checkAnswer, operations } from './contract';
import { NOW } from './now';

export { NOW };

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: ReturnType<typeof fixedClock>;
  dirs: { outbox: string; uploads: string };
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

async function freshPgDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function testApp(opts: { pgUrl?: string; config?: Partial<Config>; seedData?: boolean; payments?: boolean; logStream?: NodeJS.WritableStream } = {}): Promise<TestApp> {
  const adminUrl = opts.pgUrl ?? process.env.TEST_DATABASE_URL;
  const pgdb = adminUrl ? await freshPgDatabase(adminUrl) : null;
  // The run's template (built once by the server project's global setup; absent when a file runs
  // under another config): the migrations are then already applied, and the seed too.
  const templates = pgdb ? null : inject('pgliteTemplates');
  const template = templates ? (opts.seedData === false ? templates.migrated : templates.seeded) : null;
  const db = await createDb({ url: pgdb?.url ?? null, dataDir: 'memory', poolSize: 60, ...(template ? { loadDataDir: new Blob([readFileSync(template)]) } : {}) });
  const clock = fixedClock(NOW);
  if (opts.seedData !== false && !template) await seed(db, NOW);
  const outbox = mkdtempSync(join(tmpdir(), 'outbox-'));
  const uploads = mkdtempSync(join(tmpdir(), 'uploads-'));
  const app = await buildApp({
    db,
    clock,
    payments: opts.payments ?? false,
    ...(opts.logStream ? { logStream: opts.logStream } : {}),
    config: {
      outboxDir: outbox,
      uploadsDir: uploads,
      logLevel: 'silent',
      serveApp: false,
      authRateLimit: 0,
      sessionIdleMinutes: 0,
      cancelSweepMs: 0,
      // Most files place many orders from one address with a few accounts: the unpaid-order and
      // coupon caps and the short hold are off unless a test sets `abuse` (tests/server/holds.test.ts).
      abuse: { ...loadAbuseLimits({}, opts.config?.storageQuotaBytes ?? 5 * 1024 ** 3), unpaidOrdersPerAccount: 0, unpaidOrdersPerAddress: 0, couponUsesPerAccount: 0, scarceHoldMinutes: 0 },
      ...opts.config,
    },
  });
  return {
    app,
    db,
    clock,
    dirs: { outbox, uploads },
    kind: db.kind,
    async close() {
      await app.close();
      await db.close();
      await pgdb?.drop();
      rmSync(outbox, { recursive: true, force: true });
      rmSync(uploads, { recursive: true, force: true });
    },
  };
}

export interface CallOptions {
  body?: unknown;
  cookie?: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  params?: Record<string, string | number>;
  /** Raw payload instead of JSON (with headers['content-type']). */
  raw?: string | Buffer;
  /** The client address the request comes from (default 127.0.0.1). */
  remoteAddress?: string;
}

export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: LightMyRequestResponse['headers'];
  raw: LightMyRequestResponse;
}

/** Calls an operation by operationId and checks the answer against openapi.yaml. */
export async function call(app: FastifyInstance, operationId: string, o: CallOptions = {}): Promise<Answer> {
  const op = operations.get(operationId);
  if (!op) throw new Error(`unknown operation ${operationId}`);
  let url = op.path.replace(/\{([^}]+)\}/g, (_, k: string) => encodeURIComponent(String(o.params?.[k] ?? `{${k}}`)));
  if (o.query) url += `?${new URLSearchParams(o.query).toString()}`;
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (o.cookie) headers.cookie = o.cookie;
  const res = await app.inject({
    method: op.method as 'GET',
    url,
    headers,
    ...(o.remoteAddress ? { remoteAddress: o.remoteAddress } : {}),
    ...(o.raw !== undefined ? { payload: o.raw } : o.body !== undefined ? { payload: o.body as object } : {}),
  });
  const ct = String(res.headers['content-type'] ?? '');
  const body = ct.includes('application/json') ? res.json() : res.body;
  if (res.statusCode >= 500) throw new Error(`${operationId} answered ${res.statusCode}: ${res.body}`);
  checkAnswer(operationId, res.statusCode, body, ct);
  return { status: res.statusCode, body, headers: res.headers, raw: res };
}

/** Logs in and returns the cookie header value `sid=…`. */
export async function login(app: FastifyInstance, username: string, password = 'student123'): Promise<string> {
  const r = await call(app, 'login', { body: { username, password } });
  if (r.status !== 200) throw new Error(`login ${username}: ${r.status} ${JSON.stringify(r.body)}`);
  const set = r.headers['set-cookie'];
  const first = Array.isArray(set) ? set[0] : set;
  return String(first).split(';')[0]!;
}

/**
 * The test file's app: made before the file's tests, with each named user logged in (in that order,
 * password 'student123'), and closed after them. `ready` receives the app and the users' cookies and
 * may add the file's own set-up; its promise is awaited before the tests run.
 */
export function appForFile<A extends { app: FastifyInstance; close(): Promise<void> }, const U extends readonly string[]>(
  make: () => Promise<A>,
  users: U,
  ready: (app: A, sids: { -readonly [K in keyof U]: string }) => void | Promise<void>,
  timeout = 240_000,
): void {
  let made: A | undefined;
  beforeAll(async () => {
    made = await make();
    const sids: string[] = [];
    for (const u of users) sids.push(await login(made.app, u));
    await ready(made, sids as { -readonly [K in keyof U]: string });
  }, timeout);
  afterAll(async () => made?.close());
}

export function idemKey(): string {
  return `k-${randomBytes(12).toString('hex')}`;
}
