// The auto-cancel sweep and housekeeping run by several processes on one PostgreSQL:
// three app instances (each its own pool, event bus and order service, as three processes have)
// sweep the same expired orders at once; each order is cancelled once, its seat and coupon use
// given back once; an order another transaction holds (a payment) is skipped, not waited for;
// housekeeping runs in one process at a time. Always on PostgreSQL (TEST_DATABASE_URL or a
// throwaway cluster).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { call, idemKey, testApp, type TestApp } from './support/app';
import { postgresForTests, type PgCluster } from '../support/postgres';
import { createSession } from '../../server/auth/sessions';
import { buildApp } from '../../server/app';
import { createDb, type Db } from '../../server/db/index';
import { housekeeping, HOUSEKEEPING_LOCK } from '../../server/housekeeping';

const N = 30;
let pg: PgCluster;
let t: TestApp;
const others: { app: FastifyInstance; db: Db }[] = [];
const cancelledEvents = new Map<number, number>();
const cookies: string[] = [];
const userIds: number[] = [];
let courseId: number;
let planId: number;
let couponId: number;

function countCancels(app: FastifyInstance) {
  app.ctx.events.on('order.statusChanged', (e) => {
    if (e.status === 'cancelled') cancelledEvents.set(e.orderId, (cancelledEvents.get(e.orderId) ?? 0) + 1);
  });
}

beforeAll(async () => {
  pg = await postgresForTests();
  t = await testApp({ pgUrl: pg.url });
  expect(t.kind).toBe('postgres');
  countCancels(t.app);
  for (let i = 0; i < 2; i++) {
    const db = await createDb({ url: t.db.url!, migrate: false, poolSize: 10 });
    const app = await buildApp({ db, clock: t.clock, payments: false, config: { outboxDir: t.dirs.outbox, uploadsDir: t.dirs.uploads, logLevel: 'silent', serveApp: false, authRateLimit: 0, cancelSweepMs: 0 } });
    countCancels(app);
    others.push({ app, db });
  }
  const hash = (await t.db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'student'")).rows[0]!.password_hash;
  for (let i = 0; i < N; i++) {
    const r = await t.db.query<{ id: number }>(
      "INSERT INTO users (role, username, email, password_hash, firstname, lastname, user_group_id) VALUES ('student', $1, $2, $3, 'ผู้ซื้อ', $4, 1) RETURNING id",
      [`sweep${i}`, `sweep${i}@example.com`, hash, String(i)],
    );
    userIds.push(r.rows[0]!.id);
    cookies.push(`sid=${(await createSession(t.db, r.rows[0]!.id, 'student', t.clock.now(), 24 * 30)).token}`);
  }
  courseId = (await t.db.query<{ id: number }>(
    `INSERT INTO courses (course_type, name, link_path, seats, seats_total, start_reg_date, end_reg_date)
     VALUES ('In-class', 'เวิร์กช็อป 30 ที่นั่ง', 'x-sweep-30', $1, $1, now() - interval '1 year', now() + interval '10 years') RETURNING id`,
    [N],
  )).rows[0]!.id;
  planId = (await t.db.query<{ id: number }>("INSERT INTO pricing_plans (course_id, name, plan_type, price, price_usd, is_default) VALUES ($1, 'fee', 'One-Time Payment', 100000, 3000, true) RETURNING id", [courseId])).rows[0]!.id;
  couponId = (await t.db.query<{ id: number }>(
    "INSERT INTO coupons (code, coupon_type, number_of_course, courses, payment_method, discount_type, discount_amont, usage_limit) VALUES ('SWEEP15', 'P1', 1, $1::int[], '{1,8}', 'amount', 10000, 15) RETURNING id",
    [[courseId]],
  )).rows[0]!.id;
}, 120_000);

afterAll(async () => {
  for (const o of others) {
    await o.app.close();
    await o.db.close();
  }
  await t?.close();
  await pg?.stop();
});

async function submit(i: number, coupon: boolean) {
  return call(t.app, 'createOrder', {
    cookie: cookies[i]!,
    headers: { 'idempotency-key': idemKey() },
    body: { user_id: userIds[i], course_id: [courseId], pricingplan_id: [planId], payment_method_id: 1, currency_code: 'THB', ...(coupon ? { coupon_id: [couponId] } : {}) },
  });
}

async function resources() {
  const r = await t.db.query<{ seats: number; used: number; held: number }>(
    `SELECT (SELECT seats FROM courses WHERE id = $1) AS seats, (SELECT used_count FROM coupons WHERE id = $2) AS used,
            (SELECT count(*)::int FROM coupon_uses WHERE coupon_id = $2 AND NOT released) AS held`,
    [courseId, couponId],
  );
  return r.rows[0]!;
}

/**
 * A transaction of its own that takes a lock with `sql` (a payment holding its order's row, another
 * instance's housekeeping round) and holds it until `release`; resolves once the lock is taken.
 */
async function holdInTransaction(db: Db, sql: string, params: unknown[]): Promise<{ release: () => void; ended: Promise<void> }> {
  let release!: () => void;
  const holding = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const ended = db.tx(async (q) => {
    await q.query(sql, params);
    locked();
    await holding;
  });
  await Promise.race([isLocked, ended]);
  return { release, ended };
}

describe('PostgreSQL: the sweep and housekeeping on several processes', () => {
  it('three instances sweeping at once cancel each expired order once and give each seat and coupon use back once', async () => {
    const created = await Promise.all(Array.from({ length: N }, (_, i) => submit(i, i % 2 === 0)));
    expect(created.map((r) => r.status)).toEqual(Array(N).fill(201));
    const ids = created.map((r) => r.body.orderId as number);
    expect(await resources()).toEqual({ seats: 0, used: 15, held: 15 });

    // One order is held by a payment in progress (its row locked in an open transaction).
    const held = ids[0]!;
    const payment = await holdInTransaction(t.db, 'SELECT id FROM orders WHERE id = $1 FOR UPDATE', [held]);

    t.clock.advance(25 * 3_600_000);
    const apps = [t.app, ...others.map((o) => o.app)];
    const started = Date.now();
    const counts = await Promise.all(apps.flatMap((app) => [app, app]).map((app) => app.ctx.orders.cancelExpiredOrders(t.clock.now())));
    // Skipped, not waited for: the sweeps end while the payment still holds its order.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(N - 1);
    const heldRow = await t.db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [held]);
    expect(heldRow.rows[0]!.status).toBe('notYetReceived');

    // The payment ends without paying: a later sweep on any instance cancels the order.
    payment.release();
    await payment.ended;
    expect(await others[1]!.app.ctx.orders.cancelExpiredOrders(t.clock.now())).toBe(1);
    expect(await Promise.all(apps.map((app) => app.ctx.orders.cancelExpiredOrders(t.clock.now())))).toEqual([0, 0, 0]);
    t.clock.advance(-25 * 3_600_000);

    const statuses = await t.db.query<{ status: string }>('SELECT DISTINCT status FROM orders WHERE id = ANY($1::int[])', [ids]);
    expect(statuses.rows).toEqual([{ status: 'cancelled' }]);
    expect(ids.map((id) => cancelledEvents.get(id) ?? 0)).toEqual(Array(N).fill(1));
    expect(await resources()).toEqual({ seats: N, used: 0, held: 0 });
  });

  it('housekeeping: one round at a time (advisory lock), the others skip; rounds from every instance are safe together', async () => {
    const other = await holdInTransaction(t.db, 'SELECT pg_advisory_xact_lock($1)', [HOUSEKEEPING_LOCK]);
    expect(await housekeeping(others[0]!.db, t.clock.now())).toBe(false);
    other.release();
    await other.ended;

    const later = new Date(t.clock.now().getTime() + 60 * 24 * 3_600_000);
    await t.db.query("INSERT INTO sandbox_records (provider, kind, id, data, updated_at) VALUES ('omise', 'charge', 'chrg_old', '{}'::jsonb, $1)", [new Date(later.getTime() - 31 * 24 * 3_600_000)]);
    await t.db.query("INSERT INTO sandbox_records (provider, kind, id, data, updated_at) VALUES ('omise', 'charge', 'chrg_new', '{}'::jsonb, $1)", [new Date(later.getTime() - 1 * 24 * 3_600_000)]);
    const rounds = await Promise.all([t.db, others[0]!.db, others[1]!.db].map((db) => housekeeping(db, later)));
    expect(rounds).toContain(true);
    const left = await t.db.query<{ id: string }>("SELECT id FROM sandbox_records WHERE provider = 'omise' AND id LIKE 'chrg_%' ORDER BY id");
    expect(left.rows).toEqual([{ id: 'chrg_new' }]);
    const sessions = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE expires_at <= $1', [later]);
    expect(sessions.rows[0]!.n).toBe(0);
  });
});
