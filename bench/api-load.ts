// Prints API throughput and latency: catalogue reads, cart saves and idempotent order creation,
// through real HTTP on loopback, on PGlite (default) or PostgreSQL (--pg: a throwaway cluster,
// or DATABASE_URL). Then the oversell check: 50 buyers racing for 10 seats with a 5-use coupon.
// Usage: npx tsx bench/api-load.ts [--pg] [--seconds 5] [--concurrency 20] [--json]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../server/app';
import { loadAbuseLimits } from '../server/config';
import { createDb } from '../server/db/index';
import { seed } from '../server/db/seed';
import { createSession } from '../server/auth/sessions';
import { startPostgres, type PgCluster } from '../scripts/postgres';

const args = process.argv.slice(2);
const flag = (n: string) => args.includes(n);
const opt = (n: string, d: number) => {
  const i = args.indexOf(n);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const seconds = opt('--seconds', 5);
const concurrency = opt('--concurrency', 20);

let pg: PgCluster | null = null;
const url = flag('--pg') ? (process.env.DATABASE_URL ?? (pg = await startPostgres()).url) : null;
const db = await createDb({ url, dataDir: 'memory', poolSize: 40 });
await seed(db);
const dir = mkdtempSync(join(tmpdir(), 'bench-'));
// The load comes from one address and a few accounts: the caps on unpaid orders and coupon uses per
// account / address (server/orders/holds.ts) are off, as in the scale tests; the order path is measured.
const abuse = { ...loadAbuseLimits({}, 5 * 1024 ** 3), unpaidOrdersPerAccount: 0, unpaidOrdersPerAddress: 0, couponUsesPerAccount: 0 };
const app = await buildApp({ db, payments: false, config: { logLevel: 'silent', serveApp: false, authRateLimit: 0, outboxDir: join(dir, 'o'), uploadsDir: join(dir, 'u'), abuse } });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const hash = (await db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'student'")).rows[0]!.password_hash;
const buyers: { id: number; cookie: string }[] = [];
for (let i = 0; i < 60; i++) {
  const id = (await db.query<{ id: number }>("INSERT INTO users (role, username, email, password_hash, firstname, lastname, user_group_id) VALUES ('student', $1, $2, $3, 'b', 'b', 1) RETURNING id", [`bench${i}`, `bench${i}@example.com`, hash])).rows[0]!.id;
  buyers.push({ id, cookie: `sid=${(await createSession(db, id, 'student', new Date(), 2)).token}` });
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function load(name: string, request: (i: number) => Promise<Response>): Promise<Record<string, number | string>> {
  const times: number[] = [];
  let errors = 0;
  let n = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        const r = await request(n++);
        await r.arrayBuffer();
        times.push(performance.now() - t0);
        if (r.status >= 500) errors++;
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { name, requests: times.length, rps: Math.round(times.length / seconds), p50_ms: +pct(times, 50).toFixed(1), p95_ms: +pct(times, 95).toFixed(1), p99_ms: +pct(times, 99).toFixed(1), errors_5xx: errors };
}

const json = (body: unknown, cookie?: string, extra: Record<string, string> = {}) => ({ method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...extra }, body: JSON.stringify(body) });
const results = [
  await load('GET /public/courses', () => fetch(`${base}/public/courses`)),
  await load('GET /public/courses/1/0', () => fetch(`${base}/public/courses/1/0`)),
  await load('POST /public/cart/getallpriecingplan', () => fetch(`${base}/public/cart/getallpriecingplan`, json({ courseID: [1, 2, 3] }))),
  await load('PUT /private/cart', (i) => fetch(`${base}/private/cart`, { ...json({ lines: [{ course_id: 1, pricing_plan_id: 1, qty: 1 }], coupon_ids: [1], payment_method_id: 1 }, buyers[i % 60]!.cookie), method: 'PUT' })),
  await load('POST /private/cart/order (+ delete)', async (i) => {
    const b = buyers[i % 60]!;
    const r = await fetch(`${base}/private/cart/order`, json({ user_id: b.id, course_id: [7], pricingplan_id: [15], payment_method_id: 1, currency_code: 'THB' }, b.cookie, { 'idempotency-key': `bench-${randomBytes(8).toString('hex')}` }));
    const body = (await r.clone().json()) as { orderId?: number };
    if (body.orderId) await fetch(`${base}/public/cart/deleteorder`, json({ order_id: body.orderId }, b.cookie));
    return r;
  }),
];

// Oversell check: 50 buyers, 10 seats, a coupon limited to 5 uses (buyers drop the coupon when it is full).
const course = (await db.query<{ id: number }>("INSERT INTO courses (course_type, name, link_path, seats, start_reg_date, end_reg_date) VALUES ('In-class', 'bench', 'bench', 10, now() - interval '1 day', now() + interval '1 year') RETURNING id")).rows[0]!.id;
const plan = (await db.query<{ id: number }>("INSERT INTO pricing_plans (course_id, name, plan_type, price) VALUES ($1, 'p', 'One-Time Payment', 100000) RETURNING id", [course])).rows[0]!.id;
const coupon = (await db.query<{ id: number }>("INSERT INTO coupons (code, coupon_type, number_of_course, courses, payment_method, discount_type, discount_amont, usage_limit) VALUES ('BENCH5', 'P1', 1, $1::int[], '{1}', 'amount', 1000, 5) RETURNING id", [[course]])).rows[0]!.id;
const t0 = performance.now();
const outcomes = await Promise.all(
  buyers.slice(0, 50).map(async (b) => {
    const submit = (withCoupon: boolean) => fetch(`${base}/private/cart/order`, json({ user_id: b.id, course_id: [course], pricingplan_id: [plan], payment_method_id: 1, currency_code: 'THB', ...(withCoupon ? { coupon_id: [coupon] } : {}) }, b.cookie, { 'idempotency-key': `race-${randomBytes(8).toString('hex')}` }));
    let r = await submit(true);
    let body = (await r.json()) as { error?: { code: string } };
    if (body.error?.code === 'COUPON_NOT_AVAILABLE') {
      r = await submit(false);
      body = (await r.json()) as { error?: { code: string } };
    }
    return r.status;
  }),
);
const race = {
  name: `race: 50 buyers, 10 seats, coupon 5 uses (${db.kind})`,
  orders: outcomes.filter((s) => s === 201).length,
  seats_left: (await db.query<{ seats: number }>('SELECT seats FROM courses WHERE id = $1', [course])).rows[0]!.seats,
  coupon_uses: (await db.query<{ used_count: number }>('SELECT used_count FROM coupons WHERE id = $1', [coupon])).rows[0]!.used_count,
  ms: Math.round(performance.now() - t0),
};

if (flag('--json')) console.log(JSON.stringify({ db: db.kind, seconds, concurrency, results, race }, null, 2));
else {
  console.log(`API load on ${db.kind}, ${concurrency} concurrent clients, ${seconds} s per call`);
  console.table(results);
  console.table([race]);
}
await app.close();
await db.close();
await pg?.stop();
rmSync(dir, { recursive: true, force: true });
