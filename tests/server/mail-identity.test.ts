// E-mail that cannot be aimed (one registration mail per account, verified addresses only for later
// mails, no buyer-written links, per-recipient and per-address limits in the database), one
// identity per e-mail, the layout-4 buyer's random secret, and the way back in by a sign-in link.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { plainField } from '../../server/mail';
import { call, idemKey, login, testApp, type TestApp } from './support/app';

let t: TestApp;
let second: FastifyInstance;
const labels = '[{"id":1,"value":"โรงเรียนสาธิต"},{"id":2,"value":"ม.5"},{"id":5,"value":"เพื่อนแนะนำ"}]';
const secret = () => randomBytes(32).toString('base64url');
const buyer = (email: string, extra: Record<string, unknown> = {}) => ({
  firstname: 'ผู้ซื้อ', lastname: 'เลย์เอาต์สี่', email, tel: '0812345678', password: secret(), studentGroupKpi: 1, customLabel: labels, is_registration_layout_four: true, ...extra,
});
const from = (ip: string) => ({ 'x-forwarded-for': ip });

beforeAll(async () => {
  t = await testApp({ payments: true, config: { trustProxy: ['127.0.0.1'] } });
  // A second server process on the same database: the limits are counted there too.
  second = await buildApp({ db: t.db, clock: t.clock, payments: false, config: { outboxDir: t.dirs.outbox, uploadsDir: t.dirs.uploads, logLevel: 'silent', serveApp: false, authRateLimit: 0, cancelSweepMs: 0, trustProxy: ['127.0.0.1'] } });
}, 180_000);
afterAll(async () => {
  await second?.close();
  await t?.close();
});

type Mail = { to: string; subject: string; text: string; tag: string };
function outbox(to?: string): Mail[] {
  const all = readdirSync(t.dirs.outbox).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(join(t.dirs.outbox, f), 'utf8')) as Mail);
  return to ? all.filter((m) => m.to.toLowerCase() === to.toLowerCase()) : all;
}
const linkIn = (text: string) => /\/public\/auth\/link\/([A-Za-z0-9_-]{43})/u.exec(text)?.[1] ?? null;
const cookieOf = (set: string | string[] | undefined) => String(Array.isArray(set) ? set[0] : set).split(';')[0]!;
/** A layout-4 buyer's order of course 5 (its default plan) by bank transfer. */
async function orderCourse5(cookie: string, userId: number) {
  const plan = (await t.db.query<{ id: number }>('SELECT id FROM pricing_plans WHERE course_id = 5 AND is_default LIMIT 1')).rows[0]!.id;
  return call(t.app, 'createOrder', { cookie, headers: { 'idempotency-key': idemKey() }, body: { payment_method_id: 1, currency_code: 'THB', user_id: userId, course_id: [5], pricingplan_id: [plan] } });
}

describe('e-mail that cannot be aimed', () => {
  it('a victim address gets one mail: registration with an attacker name, then 25 registration-mail requests from two processes', async () => {
    const victim = 'victim1@example.com';
    const body = { firstname: 'Refund: visit http://evil.example/claim', lastname: 'www.evil.example', email: victim, tel: '0812345678', username: 'aimed_1', password: 'pass-123', studentGroupKpi: 1, customLabel: labels };
    expect((await call(t.app, 'registerStudent', { body, headers: from('198.51.100.1') })).status).toBe(201);
    for (let i = 0; i < 25; i++) {
      const app = i % 2 === 0 ? t.app : second;
      const r = await app.inject({ method: 'POST', url: '/api/send/to/email/registration', headers: from(`198.51.100.${i + 2}`), payload: { firstname: 'Click http://evil.example', lastname: 'x', email: victim, username: 'aimed_1', password: 'pass-123' } });
      expect(r.statusCode).toBe(202);
    }
    const mails = outbox(victim);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.tag).toBe('registration');
    // The buyer-written name is there as plain text; nothing in it can be followed as a link.
    expect(mails[0]!.text).toContain('Refund: visit hxxp[:]//evil[.]example/claim');
    expect(mails[0]!.text).not.toMatch(/evil\.example|http:\/\/evil/u);
    // Every link in the mail is the shop's own.
    for (const url of mails[0]!.text.match(/https?:\/\/\S+/gu) ?? []) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//u);
    // Counted in the database (both processes wrote there).
    const logged = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_log WHERE recipient = $1', [victim]);
    expect(logged.rows[0]!.n).toBe(1);
  });

  it('plainField defangs links, schemes and addresses and keeps names as written', () => {
    expect(plainField('สมชาย ใจดี')).toBe('สมชาย ใจดี');
    expect(plainField('Mr. Smith')).toBe('Mr. Smith');
    expect(plainField('see https://a.b/c now')).toBe('see hxxps[:]//a[.]b/c now');
    expect(plainField('javascript:alert(1)')).toBe('javascript[:]alert(1)');
    expect(plainField('x@evil.example')).toBe('x[at]evil[.]example');
    expect(plainField('line\r\nBcc: x')).toBe('line Bcc: x');
    expect(plainField('a'.repeat(300))).toHaveLength(100);
  });

  it('sign-in links: per recipient at most 3 an hour, per client address at most 10 an hour, across processes', async () => {
    const emails = Array.from({ length: 6 }, (_, i) => `limit${i}@example.com`);
    for (const e of emails) expect((await call(t.app, 'registerStudent', { body: buyer(e), headers: from('192.0.2.50') })).status).toBe(201);
    // One recipient, many addresses: 3 links, then 429.
    const asks = [];
    for (let i = 0; i < 5; i++) {
      const app = i % 2 === 0 ? t.app : second;
      asks.push((await app.inject({ method: 'POST', url: '/public/auth/link', headers: from(`192.0.2.${100 + i}`), payload: { email: emails[0] } })).statusCode);
    }
    expect(asks).toEqual([202, 202, 202, 429, 429]);
    expect(outbox(emails[0]).filter((m) => m.tag === 'signin-link')).toHaveLength(3);
    // One address, many recipients: 10 an hour.
    const byAddress = [];
    for (let i = 0; i < 12; i++) byAddress.push((await call(i % 2 ? t.app : t.app, 'requestSignInLink', { body: { email: emails[1 + (i % 5)] }, headers: from('203.0.113.99') })).status);
    expect(byAddress.filter((s) => s === 202)).toHaveLength(10);
    expect(byAddress.slice(10)).toEqual([429, 429]);
    // An hour later the recipient may ask again.
    t.clock.advance(61 * 60_000);
    expect((await call(t.app, 'requestSignInLink', { body: { email: emails[0] }, headers: from('192.0.2.200') })).status).toBe(202);
  });

  it('an address without an account: the same answer, no mail', async () => {
    const r = await call(t.app, 'requestSignInLink', { body: { email: 'nobody-here@example.com' } });
    expect(r.status).toBe(202);
    expect(outbox('nobody-here@example.com')).toHaveLength(0);
  });

  it('the payment-notice mail goes only to a verified address', async () => {
    const email = 'notice1@example.com';
    const reg = buyer(email);
    expect((await call(t.app, 'registerStudent', { body: reg })).status).toBe(201);
    const l = await call(t.app, 'loginNonMember', { body: { email, credential: reg.password } });
    const cookie = cookieOf(l.headers['set-cookie']);
    const userId = l.body.user.id as number;
    const o = await orderCourse5(cookie, userId);
    expect(o.status).toBe(201);
    const orderId = o.body.orderId as number;
    await t.db.query(`INSERT INTO uploads (user_id, file_name, original_name, mime, size) VALUES ($1, 'notice-slip.png', 'slip.png', 'image/png', 100)`, [userId]);
    const filed = await call(t.app, 'createPaymentReportPrivate', {
      cookie,
      body: { order_id: orderId, contact_name: 'ผู้ซื้อ', email, payment_method_id: 1, bank_code: 'KBANK', bank_account: '123-4-56789-0', transfer_datetime: '2026-03-02', time: '09:15:00', transfer_amount: o.body.order_detail.price, slip: 'notice-slip.png', status: 'pending' },
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    const mailBody = { fullname: 'x', orderId, email, description: '', amount: 1, date: '2026-03-02', time: '10:00' };
    expect((await call(t.app, 'sendPaymentOrderEmail', { cookie, body: mailBody })).status).toBe(202);
    expect(outbox(email).filter((m) => m.tag === 'paymentorder')).toHaveLength(0);
    // The buyer opens the link of their welcome mail: the address is verified, the notice is mailed.
    const token = linkIn(outbox(email).find((m) => m.tag === 'registration')!.text)!;
    expect((await call(t.app, 'openSignInLink', { params: { token } })).status).toBe(303);
    expect((await call(t.app, 'sendPaymentOrderEmail', { cookie, body: mailBody })).status).toBe(202);
    expect(outbox(email).filter((m) => m.tag === 'paymentorder')).toHaveLength(1);
  });
});

describe('one identity per e-mail, and the way back in', () => {
  it('the layout-4 password is a random secret: a timestamp is refused', async () => {
    const r = await call(t.app, 'registerStudent', { body: buyer('ts@example.com', { password: String(Date.UTC(2026, 2, 2)) }) });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('INVALID_FORMAT_PASSWORD');
    const l = await call(t.app, 'loginNonMember', { body: { email: 'ts@example.com', credential: '1772416800000' } });
    expect(l.status).toBe(400);
  });

  it('a member\'s e-mail answers DUPLICATE_EMAIL with account "member"; a returning buyer\'s with "buyer"; no second account, no second welcome', async () => {
    const member = await call(t.app, 'registerStudent', { body: buyer('STUDENT@example.com') });
    expect(member.status).toBe(409);
    expect(member.body.error).toMatchObject({ code: 'DUPLICATE_EMAIL', result: { account: 'member' } });

    const email = 'again@example.com';
    expect((await call(t.app, 'registerStudent', { body: buyer(email) })).status).toBe(201);
    const again = await call(t.app, 'registerStudent', { body: buyer(email.toUpperCase(), { firstname: 'อีกครั้ง' }) });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'DUPLICATE_EMAIL', result: { account: 'buyer' } });
    const withName = await call(t.app, 'registerStudent', { body: { ...buyer(email), username: 'again_member', password: 'pass-123', is_registration_layout_four: false } });
    expect(withName.body.error).toMatchObject({ code: 'DUPLICATE_EMAIL', result: { account: 'buyer' } });
    const users = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM users WHERE lower(email) = 'again@example.com'");
    expect(users.rows[0]!.n).toBe(1);
    expect(outbox(email).filter((m) => m.tag === 'registration')).toHaveLength(1);
  });

  it('the welcome mail says how to get in, in the buyer\'s language; its link opens the orders without a password; a course owned is not sold again', async () => {
    const email = 'back@example.com';
    const reg = buyer(email);
    expect((await call(t.app, 'registerStudent', { body: reg, headers: { 'accept-language': 'en-US,en;q=0.9' } })).status).toBe(201);
    const welcome = outbox(email).find((m) => m.tag === 'registration')!;
    expect(welcome.subject).toMatch(/^Welcome to /u);
    expect(welcome.text).toContain('no password to remember');
    expect(welcome.text).not.toContain(reg.password);
    const token = linkIn(welcome.text)!;
    expect(token).not.toBeNull();

    // Buys course 5 in the purchase's session; the shop approves the payment.
    const l = await call(t.app, 'loginNonMember', { body: { email, credential: reg.password } });
    const first = cookieOf(l.headers['set-cookie']);
    const o = await orderCourse5(first, l.body.user.id as number);
    expect(o.status).toBe(201);
    await t.db.query("UPDATE orders SET status = 'approved', payment_status = 'approved' WHERE id = $1", [o.body.orderId]);

    // Days later, another browser: the welcome link signs the same buyer in, on the order list.
    t.clock.advance(3 * 86_400_000);
    const open = await call(t.app, 'openSignInLink', { params: { token } });
    expect(open.status).toBe(303);
    expect(open.headers.location).toBe('/myaccount/student/order?signedIn=1');
    const cookie = cookieOf(open.headers['set-cookie']);
    const me = await call(t.app, 'getSession', { cookie });
    expect(me.body.user).toMatchObject({ email, is_non_member: true });
    // The same buyer: buying course 5 again is refused by the server.
    const twice = await orderCourse5(cookie, me.body.user.id as number);
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('have_course');
    // The welcome link keeps working until it expires (30 days), then leads to /forgotpass.
    t.clock.advance(28 * 86_400_000);
    expect((await call(t.app, 'openSignInLink', { params: { token } })).headers.location).toBe('/forgotpass?link=expired');
  });

  it('"send me a sign-in link" opens the course page once; the buyer then sets a password and logs in with it', async () => {
    const email = 'link@example.com';
    expect((await call(t.app, 'registerStudent', { body: buyer(email) })).status).toBe(201);
    expect((await call(t.app, 'requestSignInLink', { body: { email: 'LINK@example.com', course_id: 5 } })).status).toBe(202);
    const mail = outbox(email).find((m) => m.tag === 'signin-link')!;
    expect(mail.to).toBe(email); // the account's address, not the body's spelling
    const token = linkIn(mail.text)!;
    const open = await call(t.app, 'openSignInLink', { params: { token } });
    expect(open.headers.location).toBe('/course/5?signedIn=1');
    const cookie = cookieOf(open.headers['set-cookie']);
    // Used once.
    expect((await call(t.app, 'openSignInLink', { params: { token } })).headers.location).toBe('/forgotpass?link=expired');
    expect((await call(t.app, 'openSignInLink', { params: { token: 'nope' } })).headers.location).toBe('/forgotpass?link=expired');

    expect((await call(t.app, 'setStudentPassword', { cookie, body: { password: 'newpass-1' } })).body.error.code).toBe('INVALID_FORMAT_USERNAME');
    expect((await call(t.app, 'setStudentPassword', { cookie, body: { username: 'student', password: 'newpass-1' } })).body.error.code).toBe('DUPLICATE_USERNAME');
    expect((await call(t.app, 'setStudentPassword', { cookie, body: { username: 'link_buyer', password: 'newpass-1' } })).status).toBe(200);
    const sid = await login(t.app, 'link_buyer', 'newpass-1');
    expect((await call(t.app, 'getSession', { cookie: sid })).body.user).toMatchObject({ email, is_non_member: false });
  });

  it('a member sets a new password only with the current one or right after opening a link (a reset)', async () => {
    const sid = await login(t.app, 'student2');
    expect((await call(t.app, 'setStudentPassword', { cookie: sid, body: { password: 'other-pass' } })).status).toBe(403);
    expect((await call(t.app, 'setStudentPassword', { cookie: sid, body: { password: 'student123', current_password: 'student123' } })).status).toBe(200);
  });
});
