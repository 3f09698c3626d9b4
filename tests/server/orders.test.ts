// Order creation rules: prices recomputed from ids (tampering changes nothing), the spec's checks
// and codes, idempotency, auto-cancel giving seats and coupon uses back.
import { describe, expect, it } from 'vitest';
import { appForFile, call, idemKey, login, NOW, testApp, type TestApp } from './support/app';

let t: TestApp;
let sid: string; // student (id 2): owns Python (2) and Excel (9)
let sid2: string; // student2 (id 3): juristic person, owns English (1)

const order = (cookie: string, body: Record<string, unknown>, key = idemKey()) =>
  call(t.app, 'createOrder', { cookie, headers: { 'idempotency-key': key }, body: { payment_method_id: 1, currency_code: 'THB', ...body } });

appForFile(testApp, ['student', 'student2'], (app, [c0, c1]) => { t = app; sid = c0; sid2 = c1; });

describe('prices come from ids only', () => {
  it('ignores price, discount, shipping_fee, cancel_at and per-course amounts sent by the browser', async () => {
    const honest = await order(sid, { user_id: 2, course_id: [5], pricingplan_id: [12], coupon_id: [2] });
    expect(honest.status).toBe(201);
    await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: honest.body.orderId } });
    const tampered = await order(sid, {
      user_id: 2, course_id: [5], pricingplan_id: [12], coupon_id: [2],
      price: 1, discount: 889999, shipping_fee: 0, status: 'notYetReceived', cancel_at: '2099-01-01T00:00:00Z',
      courses: [{ course_id: 5, pricingplan_id: 12, qty: 1, price: 1, discount: 889999, coupon_code: 'FREE' }],
    });
    expect(tampered.status).toBe(201);
    const a = honest.body.order_detail;
    const b = tampered.body.order_detail;
    for (const k of ['price', 'discount', 'shipping_fee', 'withholding_price', 'total_amount'] as const) expect(b[k]).toBe(a[k]);
    expect(b).toMatchObject({ price: 890000, discount: 50000, total_amount: 840000, coupon_list_code: ['SAVE500'] });
    expect(b.order_course_list[0]).toMatchObject({ original_pricing_price: 890000, discount: 50000, coupon_code: 'SAVE500' });
    expect(new Date(b.cancel_at).getTime()).toBe(NOW.getTime() + 24 * 3_600_000);
    const stored = await t.db.query<{ price: number; total: number }>('SELECT price, total FROM orders WHERE id = $1', [tampered.body.orderId]);
    expect(stored.rows[0]).toEqual({ price: 890000, total: 840000 });
    await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: tampered.body.orderId } });
  });

  it('prices a product with qty, a shipping fee and a P2 amount coupon', async () => {
    const r = await order(sid, { user_id: 2, course_id: [12, 13], pricingplan_id: [22, 23], courses: [{ course_id: 12, pricingplan_id: 22, qty: 2 }, { course_id: 13, pricingplan_id: 23, qty: 1 }], coupon_id: [4], shipping_address_id: 1, shipping_fee_id: 2 });
    expect(r.status).toBe(201);
    // 2 × 450 + 320 = 1220 THB; BOOK100 takes 100 off each of the two books; EMS 50 THB
    expect(r.body.order_detail).toMatchObject({ price: 122000, discount: 20000, shipping_fee: 5000, total_amount: 107000 });
    const stock = await t.db.query<{ id: number; stock: number }>('SELECT id, stock FROM courses WHERE id IN (12, 13) ORDER BY id');
    expect(stock.rows).toEqual([{ id: 12, stock: 23 }, { id: 13, stock: 2 }]);
    await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: r.body.orderId } });
    const back = await t.db.query<{ stock: number }>('SELECT stock FROM courses WHERE id = 12');
    expect(back.rows[0]!.stock).toBe(25);
  });

  it('prices in USD, and refuses a plan without a USD price', async () => {
    const usd = await order(sid, { user_id: 2, course_id: [7], pricingplan_id: [15], currency_code: 'USD', payment_method_id: 2 });
    expect(usd.body.order_detail).toMatchObject({ currency_code: 'USD', price: 19900, total_amount: 19900 });
    await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: usd.body.orderId } });
    const none = await order(sid, { user_id: 2, course_id: [6], pricingplan_id: [14], currency_code: 'USD', payment_method_id: 2 });
    expect(none.status).toBe(422);
    expect(none.body.error.code).toBe('cart_pricing_usd_failed');
  });

  it('applies the promotion and spreads it over its courses', async () => {
    const r = await order(sid, { user_id: 2, course_id: [1, 7], pricingplan_id: [1, 15], promotion_id: 1 });
    expect(r.status).toBe(201);
    const d = r.body.order_detail;
    expect(d.discount).toBe(100000);
    expect(d.order_course_list.reduce((s: number, l: { discount: number }) => s + l.discount, 0)).toBe(100000);
    await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: r.body.orderId } });
  });

  it('computes withholding for a juristic buyer on the pre-VAT amount', async () => {
    const r = await order(sid2, { user_id: 3, course_id: [5], pricingplan_id: [12], is_withholding: true, withholding_percent: 3 });
    expect(r.status).toBe(201);
    // 8,900.00 incl. VAT 7% -> 8,317.76 before VAT -> 3% = 249.53
    expect(r.body.order_detail).toMatchObject({ price: 890000, withholding_price: 24953, total_amount: 865047 });
    await call(t.app, 'deleteOrder', { cookie: sid2, body: { order_id: r.body.orderId } });
    const person = await order(sid, { user_id: 2, course_id: [5], pricingplan_id: [12], is_withholding: true });
    expect(person.status).toBe(400);
    expect(person.body.error.code).toBe('TAX_INVOICE_INVALID');
  });
});

describe('the spec checks and codes', () => {
  it('duplicate_course, dont_have_pricing, have_course, dont_have_payment', async () => {
    expect((await order(sid, { user_id: 2, course_id: [1, 1], pricingplan_id: [1, 1] })).body.error.code).toBe('duplicate_course');
    expect((await order(sid, { user_id: 2, course_id: [1], pricingplan_id: [6] })).body.error.code).toBe('dont_have_pricing');
    expect((await order(sid, { user_id: 2, course_id: [3], pricingplan_id: [10] })).body.error.code).toBe('dont_have_pricing'); // hidden plan
    const owned = await order(sid, { user_id: 2, course_id: [2], pricingplan_id: [6] });
    expect(owned.status).toBe(409);
    expect(owned.body.error).toMatchObject({ code: 'have_course', result: [2] });
    const renew = await order(sid, { user_id: 2, course_id: [2], pricingplan_id: [8], promotion_id: 2 });
    expect(renew.status).toBe(201); // an owned course through its renewal plan
    const pending = await order(sid, { user_id: 2, course_id: [2], pricingplan_id: [8], promotion_id: 2 });
    expect(pending.body.error.code).toBe('have_course'); // an order of it is pending
    await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: renew.body.orderId } });
    expect((await order(sid, { user_id: 2, course_id: [1], pricingplan_id: [4] })).body.error.code).toBe('dont_have_pricing'); // renewal without owning
    await t.db.query('UPDATE payment_methods SET is_active = false WHERE id = 13');
    expect((await order(sid, { user_id: 2, course_id: [1], pricingplan_id: [1], payment_method_id: 13 })).body.error.code).toBe('dont_have_payment');
    await t.db.query('UPDATE payment_methods SET is_active = true WHERE id = 13');
  });

  it('free-for-student plans need the free courses; member-only plans are fine when logged in', async () => {
    const free = await order(sid, { user_id: 2, course_id: [1], pricingplan_id: [5] });
    expect(free.body.order_detail.total_amount).toBe(0);
    await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: free.body.orderId } });
    expect((await order(sid2, { user_id: 3, course_id: [15], pricingplan_id: [21] })).body.error.code).toBe('dont_have_pricing');
    const member = await order(sid, { user_id: 2, course_id: [8], pricingplan_id: [17] });
    expect(member.status).toBe(201);
    await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: member.body.orderId } });
  });

  it('PAYMENT_MINIMUM for methods 8 and 9 under 20 THB', async () => {
    await t.db.query("INSERT INTO pricing_plans (course_id, name, plan_type, price, price_usd) VALUES (6, 'cheap', 'One-Time Payment', 1500, 50)");
    const plan = (await t.db.query<{ id: number }>("SELECT id FROM pricing_plans WHERE name = 'cheap'")).rows[0]!.id;
    const r = await order(sid, { user_id: 2, course_id: [6], pricingplan_id: [plan], payment_method_id: 9 });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('PAYMENT_MINIMUM');
    await t.db.query('DELETE FROM pricing_plans WHERE id = $1', [plan]);
  });

  it('SHIPPING_ADDRESS_REQUIRED and SHIPPING_FEE_REQUIRED; another student\'s address is not found', async () => {
    expect((await order(sid, { user_id: 2, course_id: [12], pricingplan_id: [22], shipping_fee_id: 1 })).body.error.code).toBe('SHIPPING_ADDRESS_REQUIRED');
    expect((await order(sid, { user_id: 2, course_id: [12], pricingplan_id: [22], shipping_address_id: 1 })).body.error.code).toBe('SHIPPING_FEE_REQUIRED');
    expect((await order(sid, { user_id: 2, course_id: [14], pricingplan_id: [24], shipping_fee_id: 1 })).body.error.code).toBe('SHIPPING_ADDRESS_REQUIRED'); // free book
    expect((await order(sid, { user_id: 2, course_id: [12], pricingplan_id: [22], shipping_address_id: 2, shipping_fee_id: 1 })).status).toBe(404);
  });

  it('coupon codes: not for this method, not for these courses, full, expired', async () => {
    expect((await order(sid, { user_id: 2, course_id: [1], pricingplan_id: [1], coupon_id: [2], payment_method_id: 9 })).body.error.code).toBe('COUPON_NOT_SUPPORTED_PAYMENT');
    expect((await order(sid, { user_id: 2, course_id: [6], pricingplan_id: [14], coupon_id: [1] })).body.error.code).toBe('COUPON_NOT_SUPPORTED_COURSE');
    expect((await order(sid, { user_id: 2, course_id: [1], pricingplan_id: [1], coupon_id: [3] })).body.error.code).toBe('COUPON_NOT_ENOUGH_COURSES');
    const full = await order(sid, { user_id: 2, course_id: [1], pricingplan_id: [1], coupon_id: [6] });
    expect(full.status).toBe(422);
    expect(full.body.error).toMatchObject({ code: 'COUPON_NOT_AVAILABLE', result: ['SOLDOUT'] });
    expect(full.body.error.msg).toContain('SOLDOUT');
    const expired = await order(sid, { user_id: 2, course_id: [1], pricingplan_id: [1], coupon_id: [7] });
    expect(expired.status, JSON.stringify(expired.body)).toBe(404);
  });

  it('TIME_LEFT when registration is closed or seats are gone, with the message to show', async () => {
    const closed = await order(sid, { user_id: 2, course_id: [4], pricingplan_id: [11] });
    expect(closed.status).toBe(422);
    expect(closed.body.error).toMatchObject({ code: 'TIME_LEFT', msg: 'ปิดรับสมัครแล้ว' });
    await t.db.query('UPDATE courses SET seats = 0 WHERE id = 3');
    const full = await order(sid, { user_id: 2, course_id: [3], pricingplan_id: [9] });
    expect(full.body.error).toMatchObject({ code: 'TIME_LEFT', msg: 'ที่นั่งเต็มแล้ว' });
    await t.db.query('UPDATE courses SET seats = 10 WHERE id = 3');
  });

  it('FORBIDDEN for a course of another user group, and for an instructor', async () => {
    expect((await order(sid, { user_id: 2, course_id: [11], pricingplan_id: [20] })).status).toBe(403);
    const ok = await order(sid2, { user_id: 3, course_id: [11], pricingplan_id: [20] });
    expect(ok.status).toBe(201);
    await call(t.app, 'deleteOrder', { cookie: sid2, body: { order_id: ok.body.orderId } });
    const teacher = await login(t.app, 'teacher', 'teacher123');
    const r = await order(teacher, { user_id: 1, course_id: [1], pricingplan_id: [1] });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('FORBIDDEN');
  });
});

describe('idempotency', () => {
  it('same key and body: the same order and answer (replayed); another body: 422', async () => {
    const key = idemKey();
    const body = { user_id: 2, course_id: [7], pricingplan_id: [15] };
    const a = await order(sid, body, key);
    const b = await order(sid, body, key);
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.raw.body).toBe(a.raw.body);
    // the stored answer (written by the order's own statement, the id put in its slot) is the text sent
    const stored = await t.db.query<{ status_code: number; response: string; order_id: number }>('SELECT status_code, response, order_id FROM idempotency_keys WHERE user_id = 2 AND key = $1', [key]);
    expect(stored.rows[0]).toEqual({ status_code: 201, response: JSON.stringify(a.body), order_id: a.body.orderId });
    expect(a.body.order_detail.id).toBe(a.body.orderId);
    const c = await order(sid, { ...body, payment_method_id: 8 }, key);
    expect(c.status).toBe(422);
    expect(c.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const n = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE user_id = 2 AND NOT is_deleted AND status = $1', ['notYetReceived']);
    expect(n.rows[0]!.n).toBe(1);
    await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: a.body.orderId } });
  });

  it('a missing or malformed Idempotency-Key is a 400', async () => {
    const none = await call(t.app, 'createOrder', { cookie: sid, body: { user_id: 2, course_id: [7], pricingplan_id: [15], payment_method_id: 1, currency_code: 'THB' } });
    expect(none.status).toBe(400);
    const bad = await call(t.app, 'createOrder', { cookie: sid, headers: { 'idempotency-key': 'x y' }, body: { user_id: 2, course_id: [7], pricingplan_id: [15], payment_method_id: 1, currency_code: 'THB' } });
    expect(bad.status).toBe(400);
  });

  it('a refused order does not burn its key', async () => {
    const key = idemKey();
    await t.db.query('UPDATE courses SET seats = 0 WHERE id = 3');
    expect((await order(sid, { user_id: 2, course_id: [3], pricingplan_id: [9] }, key)).body.error.code).toBe('TIME_LEFT');
    await t.db.query('UPDATE courses SET seats = 10 WHERE id = 3');
    const ok = await order(sid, { user_id: 2, course_id: [3], pricingplan_id: [9] }, key);
    expect(ok.status).toBe(201);
    await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: ok.body.orderId } });
  });
});

describe('auto-cancel and state changes', () => {
  it('cancels unpaid orders past cancel_at and gives seats and coupon uses back', async () => {
    const events: string[] = [];
    const off = t.app.ctx.events.on('order.statusChanged', (e) => events.push(`${e.orderId}:${e.status}:${e.paymentStatus}`));
    const r = await order(sid, { user_id: 2, course_id: [3], pricingplan_id: [9], coupon_id: [5] });
    expect(r.status).toBe(201);
    const seats = async () => (await t.db.query<{ seats: number }>('SELECT seats FROM courses WHERE id = 3')).rows[0]!.seats;
    const uses = async () => (await t.db.query<{ used_count: number }>('SELECT used_count FROM coupons WHERE id = 5')).rows[0]!.used_count;
    expect(await seats()).toBe(9);
    expect(await uses()).toBe(1);
    expect(await t.app.ctx.orders.cancelExpiredOrders(new Date(NOW.getTime() + 23 * 3_600_000))).toBe(0);
    t.clock.advance(24 * 3_600_000 + 1);
    expect(await t.app.ctx.orders.cancelExpiredOrders(t.clock.now())).toBe(1);
    expect(await seats()).toBe(10);
    expect(await uses()).toBe(0);
    const read = await call(t.app, 'getOrder', { cookie: sid, params: { orderId: r.body.orderId } });
    expect(read.body.data.payment_status).toBe('rejected');
    expect(await t.app.ctx.orders.cancelExpiredOrders(t.clock.now())).toBe(0);
    expect(events).toEqual([`${r.body.orderId}:notYetReceived:notYetReceived`, `${r.body.orderId}:cancelled:rejected`]);
    // a cancelled order does not block buying again
    const again = await order(sid, { user_id: 2, course_id: [3], pricingplan_id: [9] });
    expect(again.status).toBe(201);
    await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: again.body.orderId } });
    off();
    t.clock.set(NOW);
  });

  it('approval (payments seam) makes the course owned; a paid order cannot be deleted or cancelled', async () => {
    const r = await order(sid, { user_id: 2, course_id: [6], pricingplan_id: [14] });
    const id = r.body.orderId;
    const approved = await t.db.tx((q) => t.app.ctx.orders.approveOrderPayment(q, { orderId: id, approveBy: 'test', paymentMethodId: 1 }));
    expect(approved).toMatchObject({ status: 'approved', payment_status: 'approved', total: 59000 });
    expect(approved.courses.map((c) => c.course_id)).toEqual([6]);
    const again = await t.db.tx((q) => t.app.ctx.orders.approveOrderPayment(q, { orderId: id, approveBy: 'test', paymentMethodId: 1 }));
    expect(again.approved_at).toEqual(approved.approved_at);
    expect((await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: id } })).body.error.code).toBe('ORDER_NOT_PAYABLE');
    await expect(t.db.tx((q) => t.app.ctx.orders.cancelOrder(q, id))).rejects.toThrow(/already paid/);
    const owned = await call(t.app, 'listOrderedCourses', { cookie: sid });
    expect(owned.body.data.find((c: { courseID: number }) => c.courseID === 6).status).toBe('approved');
    expect((await order(sid, { user_id: 2, course_id: [6], pricingplan_id: [14] })).body.error.code).toBe('have_course');
    expect(await t.app.ctx.orders.getOrderForPayment(t.db, id, 3)).toBeNull();
  });

  it('rejection gives the seat back; a payment approved after auto-cancel takes it again', async () => {
    const r = await order(sid2, { user_id: 3, course_id: [3], pricingplan_id: [9] });
    await t.db.tx((q) => t.app.ctx.orders.rejectOrder(q, r.body.orderId, 'slip unreadable'));
    expect((await t.db.query<{ seats: number }>('SELECT seats FROM courses WHERE id = 3')).rows[0]!.seats).toBe(10);
    const blocked = await order(sid2, { user_id: 3, course_id: [3], pricingplan_id: [9] });
    expect(blocked.body.error.code).toBe('have_course'); // decisions.md #7: rejected blocks buying
    const s = await order(sid, { user_id: 2, course_id: [3], pricingplan_id: [9] });
    await t.db.tx((q) => t.app.ctx.orders.cancelOrder(q, s.body.orderId));
    await t.db.tx((q) => t.app.ctx.orders.approveOrderPayment(q, { orderId: s.body.orderId, approveBy: 'late-webhook', paymentMethodId: 1 }));
    expect((await t.db.query<{ seats: number }>('SELECT seats FROM courses WHERE id = 3')).rows[0]!.seats).toBe(9);
  });
});

describe('housekeeping', () => {
  it('forgets idempotency keys after 7 days and drops expired sessions', async () => {
    const { housekeeping } = await import('../../server/housekeeping');
    const key = idemKey();
    const r = await order(sid, { user_id: 2, course_id: [7], pricingplan_id: [15] }, key);
    await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: r.body.orderId } });
    const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1', [key])).rows[0]!.n;
    await housekeeping(t.db, new Date(NOW.getTime() + 6 * 24 * 3_600_000));
    expect(await count()).toBe(1);
    await housekeeping(t.db, new Date(NOW.getTime() + 8 * 24 * 3_600_000));
    expect(await count()).toBe(0);
    const sessions = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions')).rows[0]!.n;
    expect(await sessions()).toBeGreaterThan(0); // sessions live 14 days
    await housekeeping(t.db, new Date(NOW.getTime() + 15 * 24 * 3_600_000));
    expect(await sessions()).toBe(0);
  });
});
