// Limited things cannot be cornered (README "Security", docs/spec/decisions.md 11): coupon uses per
// account, unpaid orders per account and per address, and the short hold on seats and limited
// coupons beside the spec's auto-cancel. PGlite by default; on PostgreSQL (row and advisory locks
// really block) with `npx tsx scripts/with-postgres.ts -- npx vitest run tests/server/holds.test.ts`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, idemKey, testApp, type TestApp } from './support/app';
import { createSession } from '../../server/auth/sessions';
import { loadAbuseLimits, type AbuseLimits } from '../../server/config';
import { renewHold } from '../../server/orders/holds';

const LIMITS: AbuseLimits = { ...loadAbuseLimits({}, 5 * 1024 ** 3), unpaidOrdersPerAccount: 3, unpaidOrdersPerAddress: 5, couponUsesPerAccount: 1, scarceHoldMinutes: 30 };

let t: TestApp;
const cookies: string[] = [];
const userIds: number[] = [];
let seatCourse: number;
let seatPlan: number;
const openCourses: { id: number; plan: number }[] = [];
let couponId: number;

beforeAll(async () => {
  t = await testApp({ config: { abuse: LIMITS } });
  const hash = (await t.db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'student'")).rows[0]!.password_hash;
  for (let i = 0; i < 14; i++) {
    const r = await t.db.query<{ id: number }>(
      "INSERT INTO users (role, username, email, password_hash, firstname, lastname, user_group_id) VALUES ('student', $1, $2, $3, 'ผู้ซื้อ', $4, 1) RETURNING id",
      [`hoard${i}`, `hoard${i}@example.com`, hash, String(i)],
    );
    userIds.push(r.rows[0]!.id);
    cookies.push(`sid=${(await createSession(t.db, r.rows[0]!.id, 'student', t.clock.now(), 24)).token}`);
  }
  seatCourse = (await t.db.query<{ id: number }>(
    "INSERT INTO courses (course_type, name, link_path, seats, seats_total, start_reg_date, end_reg_date) VALUES ('In-class', 'เวิร์กช็อป 10 ที่นั่ง', 'hold-ten-seats', 10, 10, now() - interval '1 year', now() + interval '10 years') RETURNING id",
  )).rows[0]!.id;
  seatPlan = (await t.db.query<{ id: number }>("INSERT INTO pricing_plans (course_id, name, plan_type, price, is_default) VALUES ($1, 'fee', 'One-Time Payment', 100000, true) RETURNING id", [seatCourse])).rows[0]!.id;
  for (let i = 0; i < 3; i++) {
    const id = (await t.db.query<{ id: number }>("INSERT INTO courses (course_type, name, link_path) VALUES ('Online', $1, $2) RETURNING id", [`คอร์สเปิด ${i}`, `hold-open-${i}`])).rows[0]!.id;
    const plan = (await t.db.query<{ id: number }>("INSERT INTO pricing_plans (course_id, name, plan_type, price, is_default) VALUES ($1, 'fee', 'One-Time Payment', 50000, true) RETURNING id", [id])).rows[0]!.id;
    openCourses.push({ id, plan });
  }
  couponId = (await t.db.query<{ id: number }>(
    "INSERT INTO coupons (code, coupon_type, number_of_course, courses, payment_method, discount_type, discount_amont, usage_limit) VALUES ('HOLD5', 'P1', 1, $1::int[], '{1,8}', 'amount', 10000, 5) RETURNING id",
    [[seatCourse, ...openCourses.map((c) => c.id)]],
  )).rows[0]!.id;
}, 120_000);

afterAll(async () => t?.close());

async function order(i: number, course: { id: number; plan: number }, opts: { coupon?: boolean; address?: string } = {}) {
  return call(t.app, 'createOrder', {
    cookie: cookies[i]!,
    headers: { 'idempotency-key': idemKey() },
    remoteAddress: opts.address ?? `10.1.0.${i + 1}`,
    body: { user_id: userIds[i], course_id: [course.id], pricingplan_id: [course.plan], payment_method_id: 1, currency_code: 'THB', ...(opts.coupon ? { coupon_id: [couponId] } : {}) },
  });
}

async function reset() {
  await t.db.query("UPDATE orders SET status = 'cancelled', is_deleted = true WHERE user_id = ANY($1::int[])", [userIds]);
  await t.db.query('UPDATE courses SET seats = 10 WHERE id = $1', [seatCourse]);
  await t.db.query('UPDATE coupons SET used_count = 0 WHERE id = $1', [couponId]);
}

const seatsLeft = async () => (await t.db.query<{ seats: number }>('SELECT seats FROM courses WHERE id = $1', [seatCourse])).rows[0]!.seats;
const couponUsed = async () => (await t.db.query<{ used_count: number }>('SELECT used_count FROM coupons WHERE id = $1', [couponId])).rows[0]!.used_count;

describe('a coupon limited to 5 uses', () => {
  it('three accounts, each trying it on two courses at once, take at most one use each', async () => {
    await reset();
    const rs = await Promise.all([0, 1, 2].flatMap((i) => [order(i, openCourses[0]!, { coupon: true }), order(i, openCourses[1]!, { coupon: true })]));
    const withCoupon = rs.filter((r) => r.status === 201 && r.body.order_detail.coupon_list_code.includes('HOLD5'));
    expect(withCoupon.length).toBe(3);
    const refused = rs.filter((r) => r.status === 422);
    expect(refused.length).toBe(3);
    for (const r of refused) expect(r.body.error).toMatchObject({ code: 'COUPON_NOT_AVAILABLE', result: ['HOLD5'] });
    expect(await couponUsed()).toBe(3);
    // Two uses are left for other buyers.
    expect((await order(3, openCourses[0]!, { coupon: true })).status).toBe(201);
    expect((await order(4, openCourses[0]!, { coupon: true })).status).toBe(201);
    expect((await order(5, openCourses[0]!, { coupon: true })).body.error.code).toBe('COUPON_NOT_AVAILABLE');
  });

  it('a use given back by a cancelled order can be used again by that account', async () => {
    await reset();
    const first = await order(0, openCourses[0]!, { coupon: true });
    expect(first.status).toBe(201);
    await t.db.tx((q) => t.app.ctx.orders.cancelOrder(q, first.body.orderId));
    expect((await order(0, openCourses[1]!, { coupon: true })).status).toBe(201);
  });
});

describe('unpaid orders', () => {
  it('one account may have 3 unpaid orders open; paying one makes room', async () => {
    await reset();
    const rs: Awaited<ReturnType<typeof order>>[] = [];
    for (let k = 0; k < 3; k++) rs.push(await order(6, openCourses[k]!));
    expect(rs.map((r) => r.status)).toEqual([201, 201, 201]);
    const fourth = await order(6, { id: seatCourse, plan: seatPlan });
    expect(fourth.status).toBe(409);
    expect(fourth.body.error.code).toBe('UNPAID_ORDERS_LIMIT');
    await t.db.tx((q) => t.app.ctx.orders.approveOrderPayment(q, { orderId: rs[0]!.body.orderId, approveBy: 'test', paymentMethodId: 1 }));
    expect((await order(6, { id: seatCourse, plan: seatPlan })).status).toBe(201);
  });

  it('twelve accounts behind one address, all at once, get 5 unpaid orders and 5 seats', async () => {
    await reset();
    const rs = await Promise.all(Array.from({ length: 12 }, (_, i) => order(i, { id: seatCourse, plan: seatPlan }, { address: '203.0.113.9' })));
    expect(rs.filter((r) => r.status === 201).length).toBe(5);
    const refused = rs.filter((r) => r.status !== 201);
    expect(refused.every((r) => r.status === 409 && r.body.error.code === 'UNPAID_ORDERS_LIMIT')).toBe(true);
    expect(await seatsLeft()).toBe(5);
  });
});

describe('the short hold on seats beside auto-cancel', () => {
  it('twelve accounts from twelve addresses take 10 seats for 30 minutes only; paying later takes a seat again while one is left', async () => {
    await reset();
    const rs = await Promise.all(Array.from({ length: 12 }, (_, i) => order(i, { id: seatCourse, plan: seatPlan })));
    const created = rs.filter((r) => r.status === 201);
    expect(created.length).toBe(10);
    expect(rs.filter((r) => r.status === 422).every((r) => r.body.error.code === 'TIME_LEFT')).toBe(true);
    expect(await seatsLeft()).toBe(0);
    const detail = created[0]!.body.order_detail;
    expect(new Date(detail.hold_until).getTime() - t.clock.now().getTime()).toBe(30 * 60_000);
    expect(new Date(detail.cancel_at).getTime()).toBeGreaterThan(new Date(detail.hold_until).getTime());

    // One buyer is paying (a provider attempt in progress): that seat stays theirs.
    const paying = created[0]!.body.orderId;
    await t.db.query(
      "INSERT INTO payments (order_id, provider, method_id, provider_ref, status, amount, currency, expires_at) VALUES ($1, 'omise', 8, 'chrg_hold_test', 'pending', 100000, 'THB', $2)",
      [paying, new Date(t.clock.now().getTime() + 60 * 60_000)],
    );
    t.clock.advance(29 * 60_000);
    await t.app.ctx.orders.cancelExpiredOrders(t.clock.now());
    expect(await seatsLeft()).toBe(0);
    t.clock.advance(2 * 60_000);
    await t.app.ctx.orders.cancelExpiredOrders(t.clock.now());
    // Nine seats are back on sale; the orders are still open (auto-cancel comes later).
    expect(await seatsLeft()).toBe(9);
    const open = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM orders WHERE id = ANY($1::int[]) AND status = 'notYetReceived'", [created.map((r) => r.body.orderId)]);
    expect(open.rows[0]!.n).toBe(10);
    const list = await call(t.app, 'listMyOrders', { cookie: cookies[rs.indexOf(created[1]!)]! });
    const mine = (list.body.data as { id: number; hold_released: boolean; hold_until: string }[]).find((o) => o.id === created[1]!.body.orderId)!;
    expect(mine.hold_released).toBe(true);

    // The two late buyers get seats now.
    const late = rs.map((r, i) => (r.status === 201 ? -1 : i)).filter((i) => i >= 0);
    for (const i of late) expect((await order(i, { id: seatCourse, plan: seatPlan })).status).toBe(201);
    expect(await seatsLeft()).toBe(7);

    // A released order paid later takes its seat again; when none is left it cannot be paid.
    const payLater = created[1]!.body.orderId;
    await t.db.tx((q) => t.app.ctx.orders.approveOrderPayment(q, { orderId: payLater, approveBy: 'test', paymentMethodId: 1 }));
    expect(await seatsLeft()).toBe(6);
    await t.db.query('UPDATE courses SET seats = 0 WHERE id = $1', [seatCourse]);
    await expect(renewHold(t.db, created[2]!.body.orderId, t.clock.now(), LIMITS)).rejects.toMatchObject({ status: 409, code: 'ORDER_NOT_PAYABLE' });
    await t.db.query('UPDATE courses SET seats = 1 WHERE id = $1', [seatCourse]);
    await renewHold(t.db, created[2]!.body.orderId, t.clock.now(), LIMITS);
    expect(await seatsLeft()).toBe(0);
    const renewed = (await t.db.query<{ hold_until: Date; resources_released: boolean }>('SELECT hold_until, resources_released FROM orders WHERE id = $1', [created[2]!.body.orderId])).rows[0]!;
    expect(renewed.resources_released).toBe(false);
    expect(renewed.hold_until.getTime()).toBe(t.clock.now().getTime() + 30 * 60_000);

    // The spec's auto-cancel still cancels the unpaid ones at cancel_at; seats are not given back twice.
    await t.db.query('UPDATE courses SET seats = 0 WHERE id = $1', [seatCourse]);
    t.clock.advance(25 * 3_600_000);
    await t.app.ctx.orders.cancelExpiredOrders(t.clock.now());
    t.clock.advance(-(25 * 3_600_000 + 31 * 60_000));
    const left = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM orders WHERE id = ANY($1::int[]) AND status = 'notYetReceived'", [created.map((r) => r.body.orderId)]);
    expect(left.rows[0]!.n).toBe(0);
    // Their holds lapse first: the paying order's (its attempt expired), order 2's retaken seat and
    // the two late buyers' seats come back once each; the cancellation gives nothing back twice.
    expect(await seatsLeft()).toBe(4);
  });

  it('a limited coupon use goes back after the hold too', async () => {
    await reset();
    const r = await order(7, openCourses[2]!, { coupon: true });
    expect(r.status).toBe(201);
    expect(r.body.order_detail.hold_until).not.toBeNull();
    expect(await couponUsed()).toBe(1);
    t.clock.advance(31 * 60_000);
    await t.app.ctx.orders.cancelExpiredOrders(t.clock.now());
    t.clock.advance(-31 * 60_000);
    expect(await couponUsed()).toBe(0);
    // The account's own limit still counts the open order: the released use is not a second use.
    expect((await order(7, openCourses[1]!, { coupon: true })).body.error.code).toBe('COUPON_NOT_AVAILABLE');
  });

  it('an order of unlimited things holds nothing and has no hold time', async () => {
    await reset();
    const r = await order(8, openCourses[0]!);
    expect(r.status).toBe(201);
    expect(r.body.order_detail.hold_until).toBeNull();
  });
});
