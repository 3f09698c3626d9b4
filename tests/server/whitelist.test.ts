/**
 * The shop's whitelist (spec section 6, WHITELIST_USER_DENIED; server/db/migrations/801_whitelist.sql):
 * the back office takes a student off it and puts them back; off it, their sessions are refused on
 * student operations and their logins with the right password say why, with no session.
 */
import { describe, expect, it } from 'vitest';
import { appForFile, call, idemKey, login, testApp, type TestApp } from './support/app';
import { cheapHash } from '../support/cheap-hash';

let t: TestApp;
appForFile(() => testApp({ payments: true }), [], (app) => { t = app; });

describe("the shop's whitelist (spec section 6: WHITELIST_USER_DENIED)", () => {
  const whitelist = (id: number, on: boolean) =>
    t.app.inject({ method: 'POST', url: `/admin/api/students/${id}/${on ? 'on' : 'off'}-whitelist`, headers: { authorization: 'Bearer admin-dev-token' } });

  it('off it, a student is refused on every student operation (403, its code, the buyer\'s language) and reads public pages as a visitor; the login says so only to the right password; back on it, the same session works', async () => {
    const made = await t.db.query<{ id: number }>(
      "INSERT INTO users (role, username, email, password_hash, firstname, lastname) VALUES ('student', 'offlist', 'offlist@example.com', $1, 'นอก', 'รายชื่อ') RETURNING id",
      [cheapHash('student123')],
    );
    const id = made.rows[0]!.id;
    const cookie = await login(t.app, 'offlist');
    expect((await call(t.app, 'getStudentProfile', { cookie })).status).toBe(200);

    const off = await whitelist(id, false);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ success: true, data: { id, on_whitelist: false } });
    const profile = await call(t.app, 'getStudentProfile', { cookie });
    expect(profile.status).toBe(403);
    expect(profile.body.error).toMatchObject({ code: 'WHITELIST_USER_DENIED', msg: 'บัญชีของคุณไม่ได้รับอนุญาตให้ใช้งาน กรุณาติดต่อร้านค้า' });
    const english = await call(t.app, 'listMyOrders', { cookie, headers: { 'accept-language': 'en' } });
    expect([english.status, english.body.error.code, english.body.error.msg]).toEqual([403, 'WHITELIST_USER_DENIED', 'Your account is not allowed to use this site. Please contact the shop']);
    // nothing is ordered with such a session
    const order = await call(t.app, 'createOrder', { cookie, headers: { 'idempotency-key': idemKey() }, body: { user_id: id, course_id: [1], pricingplan_id: [1], payment_method_id: 1, currency_code: 'THB' } });
    expect([order.status, order.body.error.code]).toEqual([403, 'WHITELIST_USER_DENIED']);
    expect((await t.db.query('SELECT id FROM orders WHERE user_id = $1', [id])).rows).toEqual([]);
    // public pages as a visitor: the session is not a login any more
    expect((await call(t.app, 'getSession', { cookie })).body.user).toBeNull();
    expect((await call(t.app, 'listCourses')).status).toBe(200);

    // a guess learns nothing (401 as for any wrong password); the right password is told why, and gets no session
    const wrong = await call(t.app, 'login', { body: { username: 'offlist', password: 'not-it' } });
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    const right = await call(t.app, 'login', { body: { username: 'offlist', password: 'student123' } });
    expect([right.status, right.body.error.code]).toEqual([403, 'WHITELIST_USER_DENIED']);
    expect(right.headers['set-cookie']).toBeUndefined();

    expect((await whitelist(id, true)).json()).toEqual({ success: true, data: { id, on_whitelist: true } });
    expect((await call(t.app, 'getStudentProfile', { cookie })).status).toBe(200);
    expect((await call(t.app, 'login', { body: { username: 'offlist', password: 'student123' } })).status).toBe(200);
    expect((await whitelist(999_999, false)).statusCode).toBe(404);
  });

  it('a non-member buyer off it: the right credential is refused with the code, and no session', async () => {
    const ts = 'offListNonMember0v8WlU2m6oTz4yB1cR9xN5aJ7dE';
    const reg = await call(t.app, 'registerStudent', {
      body: { firstname: 'ผู้ซื้อ', lastname: 'นอกรายชื่อ', email: 'offlist-guest@example.com', tel: '0811111112', password: ts, is_registration_layout_four: true, studentGroupKpi: 1, customLabel: '[{"id":1,"value":"โรงเรียน"},{"id":2,"value":"ม.4"},{"id":5,"value":"Google"}]' },
    });
    expect(reg.status).toBe(201);
    const id = (await t.db.query<{ id: number }>("SELECT id FROM users WHERE email = 'offlist-guest@example.com'")).rows[0]!.id;
    await whitelist(id, false);
    const r = await call(t.app, 'loginNonMember', { body: { email: 'offlist-guest@example.com', credential: ts } });
    expect([r.status, r.body.error.code]).toEqual([403, 'WHITELIST_USER_DENIED']);
    expect(r.headers['set-cookie']).toBeUndefined();
  });
});
