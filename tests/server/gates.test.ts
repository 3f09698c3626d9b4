// Purchase gates hold on the server and no password is in any e-mail.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, idemKey, login, testApp, type TestApp } from './support/app';

let t: TestApp;

beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

const order = (cookie: string, body: Record<string, unknown>) =>
  call(t.app, 'createOrder', { cookie, headers: { 'idempotency-key': idemKey() }, body: { payment_method_id: 1, currency_code: 'THB', ...body } });

function outbox(): { to: string; subject: string; text: string; tag: string }[] {
  return readdirSync(t.dirs.outbox).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(join(t.dirs.outbox, f), 'utf8')));
}

const guest = (n: number, extra: Record<string, unknown> = {}) => ({
  firstname: 'ผู้ซื้อ', lastname: `ที่ ${n}`, email: `g${n}@example.com`, tel: '0812345678', password: `layout4-buyer-secret-0000000000-${String(n).padStart(4, '0')}`, studentGroupKpi: 1,
  customLabel: '[{"id":1,"value":"โรงเรียนสาธิต"},{"id":2,"value":"ม.5"},{"id":5,"value":"เพื่อนแนะนำ"}]', is_registration_layout_four: true, ...extra,
});

async function guestSession(n: number): Promise<{ cookie: string; userId: number }> {
  const body = guest(n);
  const r = await call(t.app, 'registerStudent', { body });
  expect(r.status).toBe(201);
  const l = await call(t.app, 'loginNonMember', { body: { email: body.email, credential: body.password } });
  expect(l.status).toBe(200);
  const set = l.headers['set-cookie'];
  return { cookie: String(Array.isArray(set) ? set[0] : set).split(';')[0]!, userId: r.body.userId as number };
}

describe('member-only plans need a member session', () => {
  it('a layout-4 non-member session cannot buy member-only plan 3; a member can', async () => {
    const plan = await t.db.query<{ id: number; course_id: number; is_for_member: boolean }>('SELECT id, course_id, is_for_member FROM pricing_plans WHERE id = 3');
    expect(plan.rows[0]).toMatchObject({ course_id: 1, is_for_member: true });
    const g = await guestSession(1);
    const refused = await order(g.cookie, { user_id: g.userId, course_id: [1], pricingplan_id: [3] });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('dont_have_pricing');
    // The ordinary plan stays open to the non-member.
    const open = await order(g.cookie, { user_id: g.userId, course_id: [1], pricingplan_id: [1] });
    expect(open.status, JSON.stringify(open.body)).toBe(201);
    const member = await login(t.app, 'student2');
    expect((await order(member, { user_id: 3, course_id: [8], pricingplan_id: [17] })).status).toBe(201);
  });
});

describe('a restricted user group is never chosen by the buyer', () => {
  it('only selectable groups are listed and accepted at registration', async () => {
    const groups = (await call(t.app, 'listUserGroups')).body.data as { id: number }[];
    expect(groups.map((g) => g.id)).toEqual([1]);
    const staff = await call(t.app, 'registerStudent', { body: { ...guest(2), username: 'wants_staff', password: 'pass-1234', is_registration_layout_four: false, studentGroupKpi: 3 } });
    expect(staff.status).toBe(400);
    expect(staff.body.error.result[0].field).toBe('studentGroupKpi');
    const partner = await call(t.app, 'registerStudent', { body: { ...guest(3), username: 'wants_partner', password: 'pass-1234', is_registration_layout_four: false, studentGroupKpi: 2 } });
    expect(partner.status).toBe(400);
    const u = await t.db.query('SELECT 1 FROM users WHERE username IN ($1, $2)', ['wants_staff', 'wants_partner']);
    expect(u.rows).toHaveLength(0);
  });
});

describe('no password in any e-mail', () => {
  it('the registration and login e-mails carry neither the password nor the caller\'s text', async () => {
    const body = { firstname: 'สมัคร', lastname: 'ใหม่', email: 'pw1@example.com', tel: '0812345678', username: 'pw_user_1', password: 'pass-98765', studentGroupKpi: 1, customLabel: '[{"id":1,"value":"โรงเรียนสาธิต"},{"id":2,"value":"ม.5"},{"id":5,"value":"เพื่อนแนะนำ"}]' };
    expect((await call(t.app, 'registerStudent', { body })).status).toBe(201);
    const sent = await call(t.app, 'sendRegistrationEmail', { body: { firstname: 'Click https://evil.example/x', lastname: 'now', email: body.email, username: body.username, password: body.password } });
    expect(sent.status).toBe(202);
    const mails = outbox().filter((m) => m.to === body.email);
    // One registration mail per account: the welcome mail, which says how to log in.
    expect(mails.map((m) => m.tag)).toEqual(['registration']);
    for (const m of mails) {
      expect(m.text).not.toContain(body.password);
      expect(m.text).not.toContain('evil.example');
    }
    expect(mails[0]!.text).toContain('pw_user_1');
  });
});
