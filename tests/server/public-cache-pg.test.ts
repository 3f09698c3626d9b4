// The public answers cache across server processes on one PostgreSQL: each process
// has its own pool, its own LISTEN connection and its own cache (here two apps with two Db handles,
// as two processes have). A write through one is seen by the other's next GET within the NOTIFY
// latency; a lost LISTEN connection drops everything and listens again.
// Always on PostgreSQL: TEST_DATABASE_URL when set, else a throwaway cluster (scripts/postgres.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { call, idemKey, login, testApp, type TestApp } from './support/app';
import { postgresForTests, type PgCluster } from '../support/postgres';
import { buildApp } from '../../server/app';
import { createDb, type Db } from '../../server/db/index';

let cluster: PgCluster;
let a: TestApp;
let dbB: Db;
let b: FastifyInstance;
let sid: string;
let admin: pg.Client;

/** Polls until check() passes (the other process hears the change within the NOTIFY latency). */
async function eventually(check: () => Promise<void>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

const course = async (app: FastifyInstance, id: number) => {
  const r = await call(app, 'getCourse', { params: { id, number: 0 } });
  expect(r.status).toBe(200);
  return r.body.data;
};

async function usable(app: FastifyInstance): Promise<void> {
  await eventually(async () => expect(app.ctx.publicCache.usable).toBe(true));
}

beforeAll(async () => {
  cluster = await postgresForTests();
  a = await testApp({ pgUrl: cluster.url });
  expect(a.kind).toBe('postgres');
  // Process B: its own pool and LISTEN connection, named so the test can cut them.
  const url = new URL(a.db.url!);
  url.searchParams.set('application_name', 'process-b');
  dbB = await createDb({ url: url.toString(), migrate: false, poolSize: 5 });
  b = await buildApp({ db: dbB, clock: a.clock, payments: false, config: { logLevel: 'silent', serveApp: false, authRateLimit: 0, sessionIdleMinutes: 0, cancelSweepMs: 0, outboxDir: a.dirs.outbox, uploadsDir: a.dirs.uploads } });
  sid = await login(a.app, 'student');
  admin = new pg.Client({ connectionString: a.db.url });
  await admin.connect();
  await usable(a.app);
  await usable(b);
}, 120_000);

afterAll(async () => {
  await admin?.end();
  await b?.close();
  await dbB?.close();
  await a?.close();
  await cluster?.stop();
});

describe('two processes on one PostgreSQL', () => {
  it('a hit on B is served from memory, and a write through A reaches it', async () => {
    const first = await course(b, 3);
    expect(await course(b, 3)).toEqual(first);
    expect(b.ctx.publicCache.stats().hits).toBeGreaterThan(0);

    // An order through A takes a seat: B's next GET shows it.
    const o = await call(a.app, 'createOrder', { cookie: sid, headers: { 'idempotency-key': idemKey() }, body: { user_id: 2, course_id: [3], pricingplan_id: [9], payment_method_id: 1, currency_code: 'THB' } });
    expect(o.status).toBe(201);
    await eventually(async () => expect((await course(b, 3)).seats_available).toBe(first.seats_available - 1));
    // Given back (the buyer deletes the unpaid order on A): B sees the seat again.
    expect((await call(a.app, 'deleteOrder', { cookie: sid, body: { order_id: o.body.orderId } })).status).toBe(200);
    await eventually(async () => expect((await course(b, 3)).seats_available).toBe(first.seats_available));
  });

  it('plain SQL from a third connection reaches both', async () => {
    await course(a.app, 2);
    await course(b, 2);
    await admin.query("UPDATE courses SET name = 'ไพทอนฉบับใหม่' WHERE id = 2");
    await eventually(async () => expect((await course(a.app, 2)).name).toBe('ไพทอนฉบับใหม่'));
    await eventually(async () => expect((await course(b, 2)).name).toBe('ไพทอนฉบับใหม่'));
    await admin.query('UPDATE pricing_plans SET price = price + 1000 WHERE course_id = 1');
    // Course 1 is in course 2's bestsellers: both answers change. The truth is what a process
    // without a cache answers; both cached processes must come to it (comparing A with B alone
    // passes at once while neither has heard the change yet).
    const plain = await buildApp({ db: a.db, clock: a.clock, payments: false, config: { logLevel: 'silent', serveApp: false, publicCache: false, outboxDir: a.dirs.outbox, uploadsDir: a.dirs.uploads } });
    try {
      const truth = (await call(plain, 'getCourse', { params: { id: 2, number: 0 } })).body;
      expect(truth.data.related.bestsellers.find((c: { id: number }) => c.id === 1)).toBeDefined();
      await eventually(async () => expect((await call(a.app, 'getCourse', { params: { id: 2, number: 0 } })).body).toEqual(truth));
      await eventually(async () => expect((await call(b, 'getCourse', { params: { id: 2, number: 0 } })).body).toEqual(truth));
    } finally {
      await plain.close();
    }
  });

  it('a lost LISTEN connection: nothing stale is served, everything is dropped, it listens again', async () => {
    const before = await course(b, 5);
    await course(b, 5); // cached on B
    // Cut every connection of process B (its LISTEN connection and its pool), as a network drop would.
    const cut = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'process-b'");
    expect(cut.rows.length).toBeGreaterThan(0);
    // A change while B cannot hear it.
    await admin.query("UPDATE courses SET name = name || ' (ขณะขาดการเชื่อมต่อ)' WHERE id = 5");
    const changed = `${before.name} (ขณะขาดการเชื่อมต่อ)`;
    await eventually(async () => expect((await course(b, 5)).name).toBe(changed));
    // It listens again, serves from memory again (never what it held before the loss), and hears
    // the next change.
    await usable(b);
    expect((await course(b, 5)).name).toBe(changed);
    const hits = b.ctx.publicCache.stats().hits;
    await course(b, 5);
    expect(b.ctx.publicCache.stats().hits).toBe(hits + 1);
    await admin.query('UPDATE courses SET name = $1 WHERE id = 5', [before.name]);
    await eventually(async () => expect((await course(b, 5)).name).toBe(before.name));
  });
});
