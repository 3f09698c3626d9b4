// Sessions and ownership: /private calls need a student; a student reads and changes only their
// own cart, orders, progress and tax data — tried for every call that takes an id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, idemKey, login, testApp, type TestApp } from './support/app';
import { operations } from './support/contract';

let t: TestApp;
let sid: string; // student, id 2
let sid2: string; // student2, id 3
let teacher: string;
let orderOf2: number;

beforeAll(async () => {
  t = await testApp({ payments: true });
  sid = await login(t.app, 'student');
  sid2 = await login(t.app, 'student2');
  teacher = await login(t.app, 'teacher', 'teacher123');
  const r = await call(t.app, 'createOrder', { cookie: sid, headers: { 'idempotency-key': idemKey() }, body: { user_id: 2, course_id: [7], pricingplan_id: [15], payment_method_id: 1, currency_code: 'THB' } });
  orderOf2 = r.body.orderId;
  await call(t.app, 'saveCartPrivate', { cookie: sid, body: { lines: [{ course_id: 1, pricing_plan_id: 1, qty: 1 }], coupon_ids: [], payment_method_id: 1 } });
});
afterAll(async () => t?.close());

// The core server's student-only operations, with the ids that belong to student 2.
const PRIVATE_CALLS: { op: string; params?: Record<string, number>; body?: unknown; headers?: Record<string, string> }[] = [
  { op: 'getCartPrivate' },
  { op: 'saveCartPrivate', body: { lines: [], coupon_ids: [], payment_method_id: 1 } },
  { op: 'createOrder', headers: { 'idempotency-key': 'access-test-key-1' }, body: { user_id: 2, course_id: [6], pricingplan_id: [14], payment_method_id: 1, currency_code: 'THB' } },
  { op: 'listMyOrders' },
  { op: 'listOrderedCourses' },
  { op: 'getOrder', params: { orderId: 0 } },
  { op: 'getStudentProfile' },
  { op: 'updateStudentTax', body: { is_require_tax_invoice: false } },
  { op: 'listShippingAddresses' },
  { op: 'createShippingAddress', body: { name: 'x', tel: '0812345678', address: 'x', sub_district: 'x', district: 'x', province: 'x', postcode: '10110' } },
  { op: 'getStudentCourseProgress', params: { userId: 2, courseId: 2 } },
  { op: 'getLastViewedLecture', params: { userId: 2, courseId: 2 } },
  { op: 'getCourseCountdown', params: { courseId: 2 } },
  { op: 'getStorageDetails' },
];

describe('student session required', () => {
  it('covers every studentSession-only core operation', () => {
    const covered = new Set(PRIVATE_CALLS.map((c) => c.op));
    for (const op of ['getCartPrivate', 'saveCartPrivate', 'createOrder', 'listMyOrders', 'listOrderedCourses', 'getOrder', 'getStudentProfile', 'updateStudentTax', 'listShippingAddresses', 'createShippingAddress', 'getStudentCourseProgress', 'getLastViewedLecture', 'getCourseCountdown', 'getStorageDetails']) {
      expect(operations.has(op)).toBe(true);
      expect(covered.has(op)).toBe(true);
    }
  });

  for (const c of PRIVATE_CALLS) {
    it(`${c.op}: 401 UNAUTHORIZED without a session, PERMISSION_DENIED with an expired one, 403 FORBIDDEN for an instructor`, async () => {
      const params = { ...c.params, ...(c.params?.orderId !== undefined ? { orderId: orderOf2 } : {}) };
      const none = await call(t.app, c.op, { params, body: c.body, headers: c.headers });
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('UNAUTHORIZED');
      const stale = await call(t.app, c.op, { params, body: c.body, headers: c.headers, cookie: 'sid=not-a-live-session' });
      expect(stale.status).toBe(401);
      expect(stale.body.error).toMatchObject({ code: 'PERMISSION_DENIED', msg: 'Unauthorized' });
      // a refusal never touches the cookie (another tab may have logged in since it was sent)
      expect(stale.headers['set-cookie']).toBeUndefined();
      const inst = await call(t.app, c.op, { params, body: c.body, headers: c.headers, cookie: teacher });
      expect(inst.status).toBe(403); // every student-only operation declares 403 for an instructor
      expect(inst.body.error.msg).toBe('This needs a student login');
    });
  }

  it('a session expires after its lifetime', async () => {
    t.clock.advance(15 * 24 * 3_600_000);
    const r = await call(t.app, 'getStudentProfile', { cookie: sid });
    expect(r.body.error.code).toBe('PERMISSION_DENIED');
    // "who am I?" answers nobody and clears the ended session's cookie (the page then reads as a visitor)
    const me = await call(t.app, 'getSession', { cookie: sid });
    expect(me.body.user).toBeNull();
    expect(String(me.headers['set-cookie'])).toMatch(/^sid=;.*Expires=Thu, 01 Jan 1970/);
    t.clock.advance(-15 * 24 * 3_600_000);
    const live = await call(t.app, 'getSession', { cookie: sid });
    expect([live.body.user?.id !== undefined, live.headers['set-cookie']]).toEqual([true, undefined]);
    expect((await call(t.app, 'getStudentProfile', { cookie: sid })).status).toBe(200);
  });
});

describe("another student's data", () => {
  it('getOrder of another student: 403, nothing leaked', async () => {
    const r = await call(t.app, 'getOrder', { cookie: sid2, params: { orderId: orderOf2 } });
    expect(r.status).toBe(403);
    expect(JSON.stringify(r.body)).not.toContain('order_token');
  });

  it('payment methods of another student\'s order (payments plugin): refused, nothing leaked', async () => {
    const own = await call(t.app, 'getPaymentMethodsForOrder', { cookie: sid, params: { orderId: orderOf2 } });
    expect(own.status).toBe(200);
    const other = await call(t.app, 'getPaymentMethodsForOrder', { cookie: sid2, params: { orderId: orderOf2 } });
    expect([403, 404]).toContain(other.status);
    expect(other.body.success).toBe(false);
  });

  it('progress and last lecture of another student: 403', async () => {
    for (const op of ['getStudentCourseProgress', 'getLastViewedLecture']) {
      const r = await call(t.app, op, { cookie: sid2, params: { userId: 2, courseId: 2 } });
      expect(r.status).toBe(403);
    }
  });

  it('countdown is always the session student\'s own (student2 does not own course 2)', async () => {
    expect((await call(t.app, 'getCourseCountdown', { cookie: sid2, params: { courseId: 2 } })).status).toBe(404);
  });

  it('createOrder for another user_id: 403, no order', async () => {
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
    const r = await call(t.app, 'createOrder', { cookie: sid2, headers: { 'idempotency-key': idemKey() }, body: { user_id: 2, course_id: [6], pricingplan_id: [14], payment_method_id: 1, currency_code: 'THB' } });
    expect(r.status).toBe(403);
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders')).rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('deleteOrder of another student (or anonymously): 403, the order stays', async () => {
    expect((await call(t.app, 'deleteOrder', { cookie: sid2, body: { order_id: orderOf2 } })).status).toBe(403);
    expect((await call(t.app, 'deleteOrder', { body: { order_id: orderOf2 } })).status).toBe(403);
    expect((await call(t.app, 'getOrder', { cookie: sid, params: { orderId: orderOf2 } })).status).toBe(200);
  });

  it('carts: the public cart by a student id never shows that student\'s cart; clearing it is refused', async () => {
    const pub = await call(t.app, 'getCartPublic', { params: { userId: '2' } });
    expect(pub.body.data.lines).toEqual([]);
    const other = await call(t.app, 'getCartPublic', { cookie: sid2, params: { userId: '2' } });
    expect(other.body.data.lines).toEqual([]);
    await call(t.app, 'saveCartPublic', { cookie: sid2, params: { userId: '2' }, body: { lines: [], coupon_ids: [], payment_method_id: 9 } });
    expect((await call(t.app, 'clearCart', { cookie: sid2, body: { user_id: '2' } })).status).toBe(403);
    expect((await call(t.app, 'clearCart', { body: { user_id: '2' } })).status).toBe(403);
    const own = await call(t.app, 'getCartPrivate', { cookie: sid });
    expect(own.body.data).toMatchObject({ payment_method_id: 1 });
    expect(own.body.data.lines.length).toBe(1);
    expect((await call(t.app, 'getCartPublic', { cookie: sid, params: { userId: '2' } })).body.data.lines.length).toBe(1);
  });

  it('tax data and shipping addresses are the session student\'s only', async () => {
    await call(t.app, 'updateStudentTax', { cookie: sid2, body: { is_require_tax_invoice: false, tax_person_type: 'normal_person' } });
    const mine = await call(t.app, 'getStudentProfile', { cookie: sid });
    expect(mine.body.data.tax_person_type).toBe('normal_person');
    const two = await call(t.app, 'listShippingAddresses', { cookie: sid2 });
    expect(two.body.data.every((a: { name: string }) => a.name.startsWith('สมหญิง'))).toBe(true);
  });

  it('the book-store cart of another user_id: 403', async () => {
    expect((await call(t.app, 'sendCartToChulabook', { cookie: sid2, body: { user_id: 2, email: 'student@example.com', course_id: [12] } })).status).toBe(403);
  });

  it('the payments seam reads an order only for its owner when asked', async () => {
    expect(await t.app.ctx.orders.getOrderForPayment(t.db, orderOf2, 3)).toBeNull();
    expect((await t.app.ctx.orders.getOrderForPayment(t.db, orderOf2, 2))?.id).toBe(orderOf2);
  });
});
