// The public answers cache (server/public-cache.ts): GET course, site settings and
// how-to-buy from memory, and never stale: every write of what they read (an order taking a seat,
// the back office giving it back, plain SQL on courses, plans, sections, lectures, instructors,
// settings) changes the very next answer. PGlite by default, PostgreSQL under TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { call, idemKey, login, testApp, type TestApp } from './support/app';
import { buildApp } from '../../server/app';
import type { Db, Queryable } from '../../server/db/index';

let t: TestApp;
/** The same database without the cache: what every cached answer must equal. */
let plain: FastifyInstance;
let counted: { app: FastifyInstance; queries: () => number };
let sid: string; // student (id 2): owns Python (2) and Excel (9)

/** A Db that counts the statements run outside transactions (what a GET course runs). */
function counting(db: Db): { db: Db; count: () => number } {
  let n = 0;
  const wrapped: Db = {
    kind: db.kind,
    ...(db.url ? { url: db.url } : {}),
    ...(db.changes ? { changes: db.changes } : {}),
    query: (<T>(sql: string, params?: unknown[]) => {
      n++;
      return db.query<T>(sql, params);
    }) as Queryable['query'],
    tx: (fn) => db.tx(fn),
    close: async () => undefined,
  };
  return { db: wrapped, count: () => n };
}

const config = (extra: Record<string, unknown> = {}) => ({ logLevel: 'silent', serveApp: false, authRateLimit: 0, sessionIdleMinutes: 0, cancelSweepMs: 0, outboxDir: t.dirs.outbox, uploadsDir: t.dirs.uploads, ...extra });

beforeAll(async () => {
  t = await testApp({ payments: true });
  sid = await login(t.app, 'student');
  plain = await buildApp({ db: t.db, clock: t.clock, payments: false, config: config({ publicCache: false }) });
  const c = counting(t.db);
  counted = { app: await buildApp({ db: c.db, clock: t.clock, payments: false, config: config() }), queries: c.count };
  // The feed is live once LISTEN has answered.
  for (let i = 0; i < 100 && !t.app.ctx.publicCache.usable; i++) await new Promise((r) => setTimeout(r, 20));
  expect(t.app.ctx.publicCache.usable).toBe(true);
}, 60_000);
afterAll(async () => {
  await counted?.app.close();
  await plain?.close();
  await t?.close();
});

const course = async (id: number, cookie?: string, app = t.app) => {
  const r = await call(app, 'getCourse', { params: { id, number: 0 }, ...(cookie ? { cookie } : {}) });
  expect(r.status).toBe(200);
  return r.body.data;
};

describe('a hit', () => {
  it('does no database work, and is byte for byte what was sent first', async () => {
    for (let i = 0; i < 100 && !counted.app.ctx.publicCache.usable; i++) await new Promise((r) => setTimeout(r, 20));
    const first = await counted.app.inject({ method: 'GET', url: '/public/courses/2/0' });
    const before = counted.queries();
    const second = await counted.app.inject({ method: 'GET', url: '/public/courses/2/0' });
    expect(counted.queries()).toBe(before);
    expect(second.statusCode).toBe(200);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.body).toBe(first.body);
    for (const url of ['/api/setting/site/into/1', '/public/payments/howtobuy']) {
      await counted.app.inject({ method: 'GET', url });
      const n = counted.queries();
      const again = await counted.app.inject({ method: 'GET', url });
      expect(again.statusCode).toBe(200);
      expect(counted.queries()).toBe(n);
    }
  });

  it('equals the uncached answer for a guest, a member and an owner of the course, in any order', async () => {
    const sid2 = await login(t.app, 'student2'); // owns English (1), one of the bestsellers
    for (const id of [1, 2, 3, 5, 7, 9]) {
      for (const cookie of [undefined, sid, sid2, undefined, sid2, sid]) {
        expect(await course(id, cookie)).toEqual(await course(id, cookie, plain));
      }
    }
    // Different visitors really see different prices here (so the variants matter).
    const guest = await course(2);
    const owner = await course(2, sid);
    expect(owner.default_price).not.toBe(guest.default_price);
  });

  it('an unknown course is still 404', async () => {
    expect((await call(t.app, 'getCourse', { params: { id: 99999, number: 0 } })).status).toBe(404);
    expect((await call(t.app, 'getCourse', { params: { id: 12, number: 0 } })).status).toBe(404); // a product
  });
});

describe('every write changes the next answer', () => {
  it('an order taking a seat, and the back office cancelling it (seat given back)', async () => {
    const before = (await course(3)).seats_available as number;
    await course(3); // cached
    const o = await call(t.app, 'createOrder', { cookie: sid, headers: { 'idempotency-key': idemKey() }, body: { user_id: 2, course_id: [3], pricingplan_id: [9], payment_method_id: 1, currency_code: 'THB' } });
    expect(o.status).toBe(201);
    expect((await course(3)).seats_available).toBe(before - 1);
    const cancel = await t.app.inject({ method: 'POST', url: `/admin/api/orders/${o.body.orderId}/cancel`, headers: { authorization: 'Bearer admin-dev-token' } });
    expect(cancel.statusCode).toBe(200);
    expect((await course(3)).seats_available).toBe(before);
  });

  it('plain SQL on the course, its plans, sections, lectures and instructor', async () => {
    await course(3);
    await t.db.query("UPDATE courses SET name = name || ' (แก้ไข)' WHERE id = 3");
    expect((await course(3)).name).toMatch(/\(แก้ไข\)$/);

    const price = (await course(3)).default_price as number;
    await t.db.query('UPDATE pricing_plans SET price = price + 100 WHERE course_id = 3');
    expect((await course(3)).default_price).toBe(price + 100);

    await course(3);
    const s = await t.db.query<{ id: number }>("INSERT INTO sections (course_id, name, location) VALUES (3, 'บทใหม่', 99) RETURNING id");
    expect((await course(3)).sections.map((x: { name: string }) => x.name)).toContain('บทใหม่');
    await t.db.query("INSERT INTO lectures (section_id, course_id, name, content_type) VALUES ($1, 3, 'บทเรียนใหม่', 'video')", [s.rows[0]!.id]);
    const lectures = (await course(3)).sections.flatMap((x: { lectures: { name: string }[] }) => x.lectures.map((l) => l.name));
    expect(lectures).toContain('บทเรียนใหม่');
    await t.db.query('DELETE FROM sections WHERE id = $1', [s.rows[0]!.id]);
    expect((await course(3)).sections.map((x: { name: string }) => x.name)).not.toContain('บทใหม่');

    const teacher = (await course(3)).instructor.id as number;
    await t.db.query("UPDATE users SET firstname = 'ครูใหม่', profile = profile || '{\"biography\":\"ประวัติใหม่\"}' WHERE id = $1", [teacher]);
    const after = await course(3);
    expect(after.instructor).toMatchObject({ firstname: 'ครูใหม่', biography: 'ประวัติใหม่' });
    expect(after.related.same_teacher[0].instructor_name).toMatch(/^ครูใหม่/);
  });

  it('a change of a related course shows in every answer that lists it', async () => {
    const listed = (await course(3)).related.bestsellers.map((x: { id: number }) => x.id) as number[];
    expect(listed).toContain(1);
    await t.db.query('UPDATE pricing_plans SET price = price + 700 WHERE course_id = 1');
    expect(await course(3)).toEqual(await course(3, undefined, plain));
    await t.db.query('UPDATE courses SET is_bestseller = false WHERE id = 1');
    expect((await course(3)).related.bestsellers.map((x: { id: number }) => x.id)).not.toContain(1);
    await t.db.query('UPDATE courses SET is_bestseller = true WHERE id = 1');
    expect((await course(3)).related.bestsellers.map((x: { id: number }) => x.id)).toContain(1);
  });

  it('a transaction: seen after its COMMIT, never after a ROLLBACK', async () => {
    await course(5);
    await t.db
      .tx(async (q) => {
        await q.query("UPDATE courses SET name = 'ไม่เกิดขึ้น' WHERE id = 5");
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect((await course(5)).name).not.toBe('ไม่เกิดขึ้น');
    await t.db.tx(async (q) => q.query("UPDATE courses SET meta_title = 'หัวเรื่องใหม่' WHERE id = 5"));
    expect((await course(5)).meta_title).toBe('หัวเรื่องใหม่');
  });

  it('site settings: the related lists, the settings and how-to-buy answers', async () => {
    expect((await course(3)).related.bestsellers).toBeDefined();
    const settings = await call(t.app, 'getSiteSettings', { params: { id: 1 } });
    const how = await call(t.app, 'getHowToBuy', {});
    await t.db.query(`UPDATE site_settings SET data = jsonb_set(jsonb_set(data, '{course_bestseller}', 'false'), '{howtobuy,description}', '"ใหม่"') WHERE id = 1`);
    expect((await course(3)).related.bestsellers).toBeUndefined();
    expect((await call(t.app, 'getHowToBuy', {})).body.data.description).toBe('ใหม่');
    expect((await call(t.app, 'getHowToBuy', {})).body.data.description).not.toBe(how.body.data.description);
    expect((await call(t.app, 'getSiteSettings', { params: { id: 1 } })).body.data.course_bestseller).toBe(false);
    expect(settings.body.data.course_bestseller).toBe(true);
    await t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{course_bestseller}', 'true') WHERE id = 1`);
    expect((await course(3)).related.bestsellers).toBeDefined();
  });

  it('a course unpublished answers 404 at once; published again, 200', async () => {
    await course(7);
    await t.db.query('UPDATE courses SET status = 0 WHERE id = 7');
    expect((await call(t.app, 'getCourse', { params: { id: 7, number: 0 } })).status).toBe(404);
    await t.db.query('UPDATE courses SET status = 1 WHERE id = 7');
    expect((await course(7)).id).toBe(7);
  });
});

describe('switches', () => {
  it('PUBLIC_CACHE=off: every GET reads the database', async () => {
    expect(plain.ctx.publicCache.usable).toBe(false);
    const c = counting(t.db);
    const off = await buildApp({ db: c.db, clock: t.clock, payments: false, config: config({ publicCache: false }) });
    try {
      await off.inject({ method: 'GET', url: '/public/courses/2/0' });
      const n = c.count();
      await off.inject({ method: 'GET', url: '/public/courses/2/0' });
      expect(c.count()).toBeGreaterThan(n);
    } finally {
      await off.close();
    }
  });
});
