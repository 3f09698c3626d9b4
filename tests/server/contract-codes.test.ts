// The contract's newer answers: the domain's refusals under their own codes, cancel_at null when
// the site never auto-cancels, 403 for an instructor on student-only calls, and request bodies
// validated against the schema of the media type they were sent as.
import { describe, expect, it } from 'vitest';
import { appForFile, call, idemKey, login, testApp, type TestApp } from './support/app';

let t: TestApp;
let sid: string; // student (id 2)

const order = (body: Record<string, unknown>) =>
  call(t.app, 'createOrder', { cookie: sid, headers: { 'idempotency-key': idemKey() }, body: { user_id: 2, payment_method_id: 1, currency_code: 'THB', ...body } });

appForFile(() => testApp({ payments: true }), ['student'], (app, [c]) => { t = app; sid = c; });

describe('domain refusals keep their own codes', () => {
  it('coupons and a promotion together while the site makes them exclusive -> 409 COUPON_PROMOTION_EXCLUSIVE', async () => {
    // English (1) + Japanese (7) make promotion 1 usable; WELCOME10 (coupon 1) covers both.
    const r = await order({ course_id: [1, 7], pricingplan_id: [1, 15], promotion_id: 1, coupon_id: [1] });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('COUPON_PROMOTION_EXCLUSIVE');
  });

  it('a promotion that does not apply to the cart -> 422 PROMOTION_NOT_USABLE', async () => {
    // Promotion 1 is P2 over English and Japanese: English alone is not enough.
    const r = await order({ course_id: [1], pricingplan_id: [1], promotion_id: 1 });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('PROMOTION_NOT_USABLE');
  });

  it('a THB-only method for a USD order -> 400 METHOD_CURRENCY_NOT_SUPPORTED', async () => {
    const r = await order({ course_id: [7], pricingplan_id: [15], currency_code: 'USD', payment_method_id: 9 });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('METHOD_CURRENCY_NOT_SUPPORTED');
  });
});

describe('auto_cancel 0 means never', () => {
  it('answers cancel_at null and the sweep leaves the order alone', async () => {
    await t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{auto_cancel}', '0') WHERE id = 1`);
    try {
      const r = await order({ course_id: [1], pricingplan_id: [1] });
      expect(r.status).toBe(201);
      expect(r.body.order_detail.cancel_at).toBeNull();
      const read = await call(t.app, 'getOrder', { cookie: sid, params: { orderId: r.body.orderId } });
      expect(read.body.data.cancel_at).toBeNull();
      await t.app.ctx.orders.cancelExpiredOrders(new Date('2099-01-01T00:00:00Z'));
      const again = await call(t.app, 'getOrder', { cookie: sid, params: { orderId: r.body.orderId } });
      expect(again.body.data.payment_status).toBe('notYetReceived');
      await call(t.app, 'deleteOrder', { cookie: sid, body: { order_id: r.body.orderId } });
    } finally {
      await t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{auto_cancel}', '24') WHERE id = 1`);
    }
  });
});

describe('an instructor is not a student', () => {
  it.each(['getCartPrivate', 'listMyOrders', 'listOrderedCourses', 'getStorageDetails'])('%s answers 403 FORBIDDEN to an instructor session', async (op) => {
    const teacher = await login(t.app, 'teacher', 'teacher123');
    const r = await call(t.app, op, { cookie: teacher });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('FORBIDDEN');
  });
});

describe('bodies are validated against the schema of their media type', () => {
  it('a form post to a JSON-only operation is refused with a clear 400', async () => {
    const r = await call(t.app, 'getCouponByCouponCode', { raw: 'coupon_code=WELCOME10', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('a 2C2P form whose amount breaks the form schema is refused before the handler', async () => {
    const r = await call(t.app, 'handle2c2pBackendReturn', { raw: 'amount=12.50&hash_value=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    // The spec's words in the message, the failing field under result.
    expect(r.body.error.result).toContainEqual(expect.objectContaining({ field: 'amount' }));
  });

  it('the same operation as JSON is checked against the JSON schema', async () => {
    const r = await call(t.app, 'handle2c2pBackendReturn', { body: { payload: 'not-a-jwt' } });
    expect(r.status).toBe(401); // valid shape, bad signature: the handler refused it
    expect(r.body.error.code).toBe('UNAUTHORIZED');
  });
});
