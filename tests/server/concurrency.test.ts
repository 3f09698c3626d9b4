// Concurrency on a real PostgreSQL (row locks really block): nothing oversells, one order per key.
// Always on PostgreSQL: TEST_DATABASE_URL when set, else a throwaway cluster (scripts/postgres.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, idemKey, testApp, type TestApp } from './support/app';
import { postgresForTests, type PgCluster } from '../support/postgres';
import { createSession } from '../../server/auth/sessions';

let pg: PgCluster;
let t: TestApp;
let cookies: string[] = [];
let courseId: number;
let planId: number;
let couponId: number;
let openCourseId: number;
let openPlanId: number;

beforeAll(async () => {
  pg = await postgresForTests();
  t = await testApp({ pgUrl: pg.url });
  expect(t.kind).toBe('postgres');
  const hash = (await t.db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'student'")).rows[0]!.password_hash;
  const ids: number[] = [];
  for (let i = 0; i < 50; i++) {
    const r = await t.db.query<{ id: number }>(
      "INSERT INTO users (role, username, email, password_hash, firstname, lastname, user_group_id) VALUES ('student', $1, $2, $3, 'นักเรียน', $4, 1) RETURNING id",
      [`load${i}`, `load${i}@example.com`, hash, String(i)],
    );
    ids.push(r.rows[0]!.id);
  }
  cookies = [];
  for (const id of ids) cookies.push(`sid=${(await createSession(t.db, id, 'student', t.clock.now(), 24)).token}`);
  const c = await t.db.query<{ id: number }>(
    "INSERT INTO courses (course_type, name, link_path, seats, seats_total, start_reg_date, end_reg_date) VALUES ('In-class', 'เวิร์กช็อป 10 ที่นั่ง', 'x-ten-seats', 10, 10, now() - interval '1 year', now() + interval '10 years') RETURNING id",
  );
  courseId = c.rows[0]!.id;
  planId = (await t.db.query<{ id: number }>("INSERT INTO pricing_plans (course_id, name, plan_type, price, price_usd, is_default) VALUES ($1, 'fee', 'One-Time Payment', 100000, 3000, true) RETURNING id", [courseId])).rows[0]!.id;
  const o = await t.db.query<{ id: number }>("INSERT INTO courses (course_type, name, link_path) VALUES ('Online', 'คอร์สไม่จำกัดที่นั่ง', 'x-open') RETURNING id");
  openCourseId = o.rows[0]!.id;
  openPlanId = (await t.db.query<{ id: number }>("INSERT INTO pricing_plans (course_id, name, plan_type, price, is_default) VALUES ($1, 'fee', 'One-Time Payment', 50000, true) RETURNING id", [openCourseId])).rows[0]!.id;
  couponId = (await t.db.query<{ id: number }>(
    "INSERT INTO coupons (code, coupon_type, number_of_course, courses, payment_method, discount_type, discount_amont, usage_limit) VALUES ('FIVEONLY', 'P1', 1, $1::int[], '{1,8}', 'amount', 10000, 5) RETURNING id",
    [[courseId, openCourseId]],
  )).rows[0]!.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await pg?.stop();
});

const orderBody = (i: number, course: number, plan: number, coupon: boolean) => ({
  user_id: 0, // filled below
  course_id: [course],
  pricingplan_id: [plan],
  payment_method_id: 1,
  currency_code: 'THB',
  ...(coupon ? { coupon_id: [couponId] } : {}),
  _i: i,
});

async function submit(i: number, course: number, plan: number, coupon: boolean, key = idemKey()) {
  const { _i, ...body } = orderBody(i, course, plan, coupon);
  void _i;
  const userId = Number((await t.db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [`load${i}`])).rows[0]!.id);
  return call(t.app, 'createOrder', { cookie: cookies[i]!, headers: { 'idempotency-key': key }, body: { ...body, user_id: userId } });
}

async function resetCourse() {
  await t.db.query("UPDATE orders SET status = 'cancelled', is_deleted = true WHERE id IN (SELECT order_id FROM order_courses WHERE course_id = ANY($1::int[]))", [[courseId, openCourseId]]);
  await t.db.query('UPDATE courses SET seats = 10 WHERE id = $1', [courseId]);
  await t.db.query('UPDATE coupons SET used_count = 0 WHERE id = $1', [couponId]);
}

describe('PostgreSQL: no overselling', () => {
  it('50 simultaneous orders, 10 seats, a coupon limited to 5 uses -> exactly 10 orders and 5 coupon uses', async () => {
    // Every buyer applies the coupon; when it is full (COUPON_NOT_AVAILABLE) the client drops it and
    // submits again, as the checkout does.
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const first = await submit(i, courseId, planId, true);
        if (first.status === 422 && first.body.error.code === 'COUPON_NOT_AVAILABLE') return { first, second: await submit(i, courseId, planId, false) };
        return { first, second: null };
      }),
    );
    const created = results.flatMap((r) => [r.first, r.second]).filter((r) => r && r.status === 201);
    expect(created.length).toBe(10);
    const withCoupon = created.filter((r) => r!.body.order_detail.coupon_list_code.includes('FIVEONLY'));
    expect(withCoupon.length).toBe(5);
    const refused = results.flatMap((r) => [r.first, r.second]).filter((r) => r && r.status !== 201).map((r) => r!.body.error.code);
    expect(new Set(refused)).toEqual(new Set(['COUPON_NOT_AVAILABLE', 'TIME_LEFT']));
    const db = await t.db.query<{ seats: number; used: number; orders: number; uses: number }>(
      `SELECT (SELECT seats FROM courses WHERE id = $1) AS seats, (SELECT used_count FROM coupons WHERE id = $2) AS used,
              (SELECT count(*)::int FROM order_courses WHERE course_id = $1) AS orders, (SELECT count(*)::int FROM coupon_uses WHERE coupon_id = $2 AND NOT released) AS uses`,
      [courseId, couponId],
    );
    expect(db.rows[0]).toEqual({ seats: 0, used: 5, orders: 10, uses: 5 });
  });

  it('50 simultaneous orders without a coupon for 10 seats -> exactly 10', async () => {
    await resetCourse();
    const rs = await Promise.all(Array.from({ length: 50 }, (_, i) => submit(i, courseId, planId, false)));
    expect(rs.filter((r) => r.status === 201).length).toBe(10);
    expect(rs.filter((r) => r.status === 422).every((r) => r.body.error.code === 'TIME_LEFT')).toBe(true);
    expect((await t.db.query<{ seats: number }>('SELECT seats FROM courses WHERE id = $1', [courseId])).rows[0]!.seats).toBe(0);
  });

  it('50 simultaneous coupon orders on an unlimited course -> exactly 5 coupon uses', async () => {
    await resetCourse();
    const rs = await Promise.all(Array.from({ length: 50 }, (_, i) => submit(i, openCourseId, openPlanId, true)));
    expect(rs.filter((r) => r.status === 201).length).toBe(5);
    expect(rs.filter((r) => r.status !== 201).every((r) => r.body.error.code === 'COUPON_NOT_AVAILABLE')).toBe(true);
    expect((await t.db.query<{ used_count: number }>('SELECT used_count FROM coupons WHERE id = $1', [couponId])).rows[0]!.used_count).toBe(5);
  });

  it('auto-cancel under concurrency gives every seat and coupon use back exactly once', async () => {
    await resetCourse();
    const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => submit(i, courseId, planId, i < 4)));
    expect(rs.every((r) => r.status === 201)).toBe(true);
    t.clock.advance(25 * 3_600_000);
    const counts = await Promise.all([1, 2, 3].map(() => t.app.ctx.orders.cancelExpiredOrders(t.clock.now())));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(8);
    t.clock.advance(-25 * 3_600_000);
    const db = await t.db.query<{ seats: number; used: number }>('SELECT (SELECT seats FROM courses WHERE id = $1) AS seats, (SELECT used_count FROM coupons WHERE id = $2) AS used', [courseId, couponId]);
    expect(db.rows[0]).toEqual({ seats: 10, used: 0 });
  });
});

describe('PostgreSQL: one order per Idempotency-Key', () => {
  it('20 simultaneous submits with one key -> one order, the same answer for all', async () => {
    await resetCourse();
    const key = idemKey();
    const rs = await Promise.all(Array.from({ length: 20 }, () => submit(0, courseId, planId, false, key)));
    expect(rs.every((r) => r.status === 201)).toBe(true);
    expect(new Set(rs.map((r) => r.body.orderId)).size).toBe(1);
    expect(new Set(rs.map((r) => r.raw.body)).size).toBe(1);
    expect(rs.filter((r) => r.headers['idempotent-replayed'] === 'true').length).toBe(19);
    const n = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM order_courses oc JOIN orders o ON o.id = oc.order_id WHERE oc.course_id = $1 AND NOT o.is_deleted', [courseId]);
    expect(n.rows[0]!.n).toBe(1);
    expect((await t.db.query<{ seats: number }>('SELECT seats FROM courses WHERE id = $1', [courseId])).rows[0]!.seats).toBe(9);
  });

  it('20 simultaneous submits with one key but different bodies -> one order, the others 422', async () => {
    await resetCourse();
    const key = idemKey();
    const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => submit(1, courseId, planId, i % 2 === 0, key)));
    const ok = rs.filter((r) => r.status === 201);
    expect(new Set(ok.map((r) => r.body.orderId)).size).toBe(1);
    const reused = rs.filter((r) => r.status === 422);
    expect(reused.every((r) => r.body.error.code === 'IDEMPOTENCY_KEY_REUSED')).toBe(true);
    expect(ok.length + reused.length).toBe(20);
  });
});
