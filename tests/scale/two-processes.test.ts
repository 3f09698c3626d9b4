// Two server processes (server/main.ts, as `npm start` runs it) on one throwaway PostgreSQL behind
// Debian's haproxy with the repository's deploy/haproxy.cfg, all on loopback:
//  - a buyer's socket on process B receives the paid status of a PromptPay payment confirmed
//    through process A (socket.io PostgreSQL adapter; sandbox state in the database);
//  - 200 concurrent orders through the balancer for 10 seats give exactly 10;
//  - GET course served from each process's memory is dropped on both by a write through either
//    (or plain SQL): LISTEN/NOTIFY of the public answers cache;
//  - one process killed (SIGKILL) mid-run loses no order, and the other goes on.
import { randomBytes } from 'node:crypto';
import { io as ioClient, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../server/db/index';
import { makeBuyers, ready, startPair, stopPair, waitFor, type Pair } from './support';

const BUYERS = 200;
/** The database, two processes on it and the balancer before them (startPair). */
let pair: Pair;
let db: Db;
const cookies: string[] = [];
const userIds: number[] = [];

beforeAll(async () => {
  // Both start at once on an empty database: migrations and the demo seed must happen once.
  pair = await startPair('scale-');
  db = await createDb({ url: pair.url, migrate: false, poolSize: 5 });
  const buyers = await makeBuyers(db, 'buyer', BUYERS);
  userIds.push(...buyers.userIds);
  cookies.push(...buyers.cookies);
}, 240_000);

afterAll(async () => {
  await stopPair(pair, () => db?.close());
}, 60_000);

async function newCourse(name: string, seats: number | null): Promise<{ courseId: number; planId: number }> {
  const c = await db.query<{ id: number }>(
    `INSERT INTO courses (course_type, name, link_path, seats, seats_total, start_reg_date, end_reg_date)
     VALUES ('In-class', $1, $2, $3, $3, now() - interval '1 year', now() + interval '10 years') RETURNING id`,
    [name, `scale-${randomBytes(4).toString('hex')}`, seats],
  );
  const courseId = c.rows[0]!.id;
  const planId = (await db.query<{ id: number }>("INSERT INTO pricing_plans (course_id, name, plan_type, price, price_usd, is_default) VALUES ($1, 'fee', 'One-Time Payment', 150000, 4500, true) RETURNING id", [courseId])).rows[0]!.id;
  return { courseId, planId };
}

interface Answer {
  status: number;
  /** The server answered from the stored result of this Idempotency-Key (a retried request). */
  replayed: boolean;
  body: { orderId?: number; error?: { code: string } } | null;
}

async function order(origin: string, i: number, course: { courseId: number; planId: number }, key: string, methodId = 1): Promise<Answer> {
  const res = await fetch(`${origin}/private/cart/order`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: cookies[i]!, 'idempotency-key': key },
    body: JSON.stringify({ user_id: userIds[i], course_id: [course.courseId], pricingplan_id: [course.planId], payment_method_id: methodId, currency_code: 'THB' }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let body: Answer['body'] = null;
  try {
    body = JSON.parse(text) as Answer['body'];
  } catch {
    body = null;
  }
  return { status: res.status, body, replayed: res.headers.get('idempotent-replayed') === 'true' };
}

describe('two processes on one PostgreSQL behind haproxy', () => {
  it('a socket on process B receives the paid status of a PromptPay payment confirmed through process A', async () => {
    const course = await newCourse('PromptPay ข้ามโปรเซส', null);
    const i = 0;
    const socket: Socket = ioClient(pair.originB, { path: '/socket.io', transports: ['websocket'], extraHeaders: { cookie: cookies[i]! }, reconnection: false });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const signed = await socket.timeout(5000).emitWithAck('sign-in', { userId: userIds[i] });
      expect(signed).toEqual({ ok: true });
      const pushes: { orderId: number; status: string; payment_status: string }[] = [];
      socket.on('order.status', (m: (typeof pushes)[number]) => pushes.push(m));

      const created = await order(pair.originA, i, course, `k-${randomBytes(8).toString('hex')}`, 9);
      expect(created.status).toBe(201);
      const orderId = created.body!.orderId!;
      const qr = await fetch(`${pair.originA}/api/omise/promptpay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: cookies[i]! },
        body: JSON.stringify({ orderId, email: `buyer${i}@example.com`, name: 'ผู้ซื้อ 0' }),
      });
      expect(qr.status).toBe(200);
      const chargeId = ((await qr.json()) as { charge_id: string }).charge_id;
      // The charge and its QR live in the database: process B serves the same QR and the same charge.
      const fromB = await fetch(`${pair.originB}/sandbox/omise/control/charges/${chargeId}`);
      expect(fromB.status).toBe(200);
      expect(((await fromB.json()) as { status: string }).status).toBe('pending');
      const qrB = await fetch(`${pair.originB}/sandbox/omise/qr/${((await (await fetch(`${pair.originA}/sandbox/omise/control/charges/${chargeId}`)).json()) as { source: { id: string } }).source.id}.png`);
      expect(qrB.status).toBe(200);
      expect(qrB.headers.get('content-type')).toBe('image/png');

      // The buyer pays: the sandbox on process A confirms and calls A's webhook; A approves the order.
      const paid = await fetch(`${pair.originA}/sandbox/omise/control/charges/${chargeId}/paid`, { method: 'POST' });
      expect(paid.status).toBe(200);
      const push = await waitFor(async () => pushes.find((m) => m.orderId === orderId && m.status === 'approved'), 'the approved push on process B', 20_000);
      expect(push).toEqual({ orderId, status: 'approved', payment_status: 'approved' });
      const row = await db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [orderId]);
      expect(row.rows[0]!.status).toBe('approved');
    } finally {
      socket.close();
    }
  });

  it('200 concurrent orders through the balancer for 10 seats give exactly 10', async () => {
    const course = await newCourse('เวิร์กช็อป 10 ที่นั่ง (สองโปรเซส)', 10);
    const answers = await Promise.all(Array.from({ length: BUYERS }, (_, i) => order(pair.originLb, i, course, `k-${randomBytes(8).toString('hex')}`)));
    const created = answers.filter((r) => r.status === 201);
    expect(created.length).toBe(10);
    expect(new Set(created.map((r) => r.body!.orderId)).size).toBe(10);
    const refused = answers.filter((r) => r.status !== 201);
    // every refusal is the seats' own answer (the distinct answers listed, so a failure says what came)
    expect([...new Set(refused.map((r) => `${r.status} ${r.body?.error?.code ?? JSON.stringify(r.body)}`))]).toEqual(['422 TIME_LEFT']);
    const dbState = await db.query<{ seats: number; orders: number }>(
      `SELECT (SELECT seats FROM courses WHERE id = $1) AS seats,
              (SELECT count(*)::int FROM order_courses oc JOIN orders o ON o.id = oc.order_id WHERE oc.course_id = $1 AND NOT o.is_deleted) AS orders`,
      [course.courseId],
    );
    expect(dbState.rows[0]).toEqual({ seats: 0, orders: 10 });
  }, 120_000);

  it("GET course from each process's memory: a seat taken through A and a plain SQL edit reach B's next GET", async () => {
    const course = await newCourse('คอร์สในหน่วยความจำ (สองโปรเซส)', 5);
    const get = async (origin: string) => {
      const r = await fetch(`${origin}/public/courses/${course.courseId}/0`);
      expect(r.status).toBe(200);
      return ((await r.json()) as { data: { name: string; seats_available: number | null } }).data;
    };
    // Both processes hold the answer (server/public-cache.ts).
    for (const origin of [pair.originA, pair.originB, pair.originA, pair.originB]) expect((await get(origin)).seats_available).toBe(5);
    const created = await order(pair.originA, 1, course, `k-${randomBytes(8).toString('hex')}`);
    expect(created.status).toBe(201);
    // A's own write is in its very next answer; B hears it within the NOTIFY latency.
    expect((await get(pair.originA)).seats_available).toBe(4);
    await waitFor(async () => (await get(pair.originB)).seats_available === 4, "B's answer after A's order", 5000);
    await db.query("UPDATE courses SET name = 'ชื่อใหม่จาก SQL' WHERE id = $1", [course.courseId]);
    await waitFor(async () => (await get(pair.originA)).name === 'ชื่อใหม่จาก SQL', "A's answer after the SQL edit", 5000);
    await waitFor(async () => (await get(pair.originB)).name === 'ชื่อใหม่จาก SQL', "B's answer after the SQL edit", 5000);
  }, 60_000);

  it('one process killed mid-run loses no order and the other goes on', async () => {
    const course = await newCourse('คอร์สเปิดรับไม่จำกัด (สองโปรเซส)', null);
    const n = 120;
    const keys = Array.from({ length: n }, () => `k-${randomBytes(8).toString('hex')}`);
    let answered = 0;
    let failedAttempts = 0;
    // Each buyer submits through the balancer and, like the checkout, retries with the same
    // Idempotency-Key when the answer is a gateway error or the connection breaks.
    const buyer = async (i: number): Promise<Answer> => {
      for (let attempt = 0; attempt < 20; attempt++) {
        try {
          const r = await order(pair.originLb, i, course, keys[i]!);
          if (r.status < 500) {
            answered++;
            return r;
          }
        } catch {
          // connection reset while the process died
        }
        failedAttempts++;
        await new Promise((res) => setTimeout(res, 250));
      }
      throw new Error(`buyer ${i} got no answer`);
    };
    const all = Promise.all(Array.from({ length: n }, (_, i) => buyer(i)));
    await waitFor(async () => answered >= 15, 'the first answers');
    const answeredAtKill = answered;
    pair.a.child.kill('SIGKILL');
    const answers = await all;
    expect(answeredAtKill).toBeLessThan(n);
    expect((await pair.a.exited).signal).toBe('SIGKILL');

    expect(answers.every((r) => r.status === 201)).toBe(true);
    const ids = new Set(answers.map((r) => r.body!.orderId));
    expect(ids.size).toBe(n);
    // Exactly one order per buyer in the database: none lost, none doubled by a retry.
    const rows = await db.query<{ order_id: number }>(
      'SELECT oc.order_id FROM order_courses oc JOIN orders o ON o.id = oc.order_id WHERE oc.course_id = $1 AND NOT o.is_deleted',
      [course.courseId],
    );
    expect(new Set(rows.rows.map((r) => r.order_id))).toEqual(ids);

    // The other process goes on: the balancer sends everything to B.
    await ready(pair.originLb, pair.lb);
    const after = await order(pair.originLb, n, course, `k-${randomBytes(8).toString('hex')}`);
    expect(after.status).toBe(201);
    expect((await fetch(`${pair.originB}/readyz`)).status).toBe(200);
    const replayed = answers.filter((r) => r.replayed).length;
    console.log(`[scale] kill: ${answeredAtKill}/${n} answered before SIGKILL, ${failedAttempts} attempts retried by buyers, ${replayed} answers replayed by Idempotency-Key, ${ids.size} orders, none lost or doubled`);
  }, 180_000);
});
