// Registration limits and mail; uploads with type, size and quota; the mail outbox.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testApp, type TestApp } from './support/app';

let t: TestApp;
const labels = '[{"id":1,"value":"โรงเรียนสาธิต"},{"id":2,"value":"ม.5"},{"id":5,"value":"เพื่อนแนะนำ"}]';
const person = (n: number) => ({ firstname: 'นักเรียน', lastname: `ที่ ${n}`, email: `r${n}@example.com`, tel: '0812345678', username: `reg_${n}`, password: 'pass-123', studentGroupKpi: 1, customLabel: labels });

beforeAll(async () => {
  t = await testApp({ config: { storageQuotaBytes: 4000, maxUploadBytes: 3000 } });
});
afterAll(async () => t?.close());

function outbox(): { to: string; subject: string; text: string; tag: string }[] {
  return readdirSync(t.dirs.outbox).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(join(t.dirs.outbox, f), 'utf8')));
}

describe('registration', () => {
  it('creates a student who can log in, with a welcome mail (without the password) in the outbox', async () => {
    const r = await call(t.app, 'registerStudent', { body: person(1) });
    expect(r.status).toBe(201);
    const cookie = await login(t.app, 'reg_1', 'pass-123');
    const me = await call(t.app, 'getStudentProfile', { cookie });
    expect(me.body.data).toMatchObject({ email: 'r1@example.com', user_group_id: 1, is_non_member: false });
    const mails = outbox().filter((m) => m.to === 'r1@example.com');
    expect(mails.length).toBe(1);
    expect(mails[0]!.tag).toBe('registration');
    expect(mails[0]!.text).not.toContain('pass-123');
    expect(readdirSync(t.dirs.outbox).some((f) => f.endsWith('.eml'))).toBe(true);
    const stored = await t.db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'reg_1'");
    expect(stored.rows[0]!.password_hash).toMatch(/^scrypt\$/);
  });

  it('applies the site toggles: a required field, the user group, a valid group id', async () => {
    const { tel: _tel, ...noTel } = person(2);
    const r = await call(t.app, 'registerStudent', { body: noTel });
    expect(r.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(r.body.error.result).toEqual([{ field: 'tel', msg: 'กรุณากรอกเบอร์โทรศัพท์' }]);
    const { studentGroupKpi: _g, ...noGroup } = person(2);
    expect((await call(t.app, 'registerStudent', { body: noGroup })).body.error.result[0].field).toBe('studentGroupKpi');
    expect((await call(t.app, 'registerStudent', { body: { ...person(2), studentGroupKpi: 99 } })).body.error.code).toBe('VALIDATION_ERROR');
    await t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{registerForm,tel,is_require}', 'false') WHERE id = 1`);
    expect((await call(t.app, 'registerStudent', { body: noTel })).status).toBe(201);
    await t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{registerForm,tel,is_require}', 'true') WHERE id = 1`);
  });

  it('ERROR_CREATE_USER_IN_DAY with a real daily limit (Thai calendar day), then the next day works', async () => {
    const today = (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM users WHERE role = 'student' AND created_at >= $1", [new Date('2026-03-01T17:00:00Z')])).rows[0]!.n;
    await t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{max_registrations_per_day}', $1::text::jsonb) WHERE id = 1`, [String(today + 1)]);
    expect((await call(t.app, 'registerStudent', { body: person(3) })).status).toBe(201);
    const over = await call(t.app, 'registerStudent', { body: person(4) });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('ERROR_CREATE_USER_IN_DAY');
    t.clock.advance(24 * 3_600_000);
    expect((await call(t.app, 'registerStudent', { body: person(4) })).status).toBe(201);
    t.clock.advance(-24 * 3_600_000);
    await t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{max_registrations_per_day}', '500') WHERE id = 1`);
  });

  it('OVER_LIMIT_USER when the site is full', async () => {
    const n = (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM users WHERE role = 'student'")).rows[0]!.n;
    await t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{max_users}', $1::text::jsonb) WHERE id = 1`, [String(n)]);
    const r = await call(t.app, 'registerStudent', { body: person(5) });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('OVER_LIMIT_USER');
    await t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{max_users}', '100000') WHERE id = 1`);
  });

  it('a layout-4 buyer without a username is a non-member with a random secret; one identity per e-mail', async () => {
    const secret = () => randomBytes(32).toString('base64url');
    const r = await call(t.app, 'registerStudent', { body: { ...person(6), username: undefined, password: secret(), is_registration_layout_four: true } });
    expect(r.status).toBe(201);
    // a timestamp as the credential (the old browser's) is refused: it could be guessed
    const ts = String(Date.UTC(2026, 2, 2));
    expect((await call(t.app, 'registerStudent', { body: { ...person(9), username: undefined, password: ts, is_registration_layout_four: true } })).status).toBe(400);
    // the same buyer coming back with the same e-mail is not a second identity (a sign-in link brings them back)
    expect((await call(t.app, 'registerStudent', { body: { ...person(6), username: undefined, password: secret(), is_registration_layout_four: true } })).body.error.code).toBe('DUPLICATE_EMAIL');
    expect((await call(t.app, 'registerStudent', { body: { ...person(7), email: 'r1@example.com', username: undefined, password: secret(), is_registration_layout_four: true } })).body.error.code).toBe('DUPLICATE_EMAIL');
    expect((await call(t.app, 'registerStudent', { body: { ...person(8), username: undefined } })).body.error.code).toBe('INVALID_FORMAT_USERNAME');
  });

  it('the login e-mail goes only to an account just created, and only once (the registration mail already went)', async () => {
    const body = { firstname: 'นักเรียน', lastname: 'ที่ 1', email: 'r1@example.com', username: 'reg_1', password: 'pass-123' };
    expect((await call(t.app, 'sendRegistrationEmail', { body })).status).toBe(202);
    expect(outbox().filter((m) => m.to === 'r1@example.com' && m.tag.startsWith('registration')).length).toBe(1);
    t.clock.advance(16 * 60_000);
    expect((await call(t.app, 'sendRegistrationEmail', { body })).status).toBe(404);
    t.clock.advance(-16 * 60_000);
  });
});

describe('uploads', () => {
  const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(1000, 1)]);
  function multipart(parts: { field: string; filename: string; type: string; data: Buffer }[]) {
    const boundary = 'b' + Math.random().toString(16).slice(2);
    const chunks = parts.flatMap((p) => [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.field}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`), p.data, Buffer.from('\r\n')]);
    return { raw: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }
  // A student (visitors' upload tokens draw from a pool of their own: tests/server/visitor-uploads.test.ts).
  let student = '';
  const up = async (parts: Parameters<typeof multipart>[0]) => {
    if (!student) student = await login(t.app, 'student');
    return call(t.app, 'uploadFile', { ...multipart(parts), cookie: student });
  };

  it('accepts images and videos of the spec types, and refuses the others', async () => {
    expect((await up([{ field: 'imageinput', filename: 'a.png', type: 'image/png', data: PNG }])).status).toBe(200);
    expect((await up([{ field: 'imageinput', filename: 'clip.mp4', type: 'video/mp4', data: Buffer.alloc(10) }])).status).toBe(200);
    for (const [filename, type, data] of [['x.pdf', 'application/pdf', Buffer.alloc(5)], ['x.svg', 'image/svg+xml', Buffer.from('<svg/>')], ['fake.png', 'image/png', Buffer.from('<html>')], ['x.png', 'text/html', PNG]] as const) {
      const r = await up([{ field: 'imageinput', filename, type, data }]);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'INVALID_FILE_TYPE', msg: 'File type is not allow to upload.' });
    }
  });

  it('one file only; a file is required; too large is 413', async () => {
    expect((await up([{ field: 'imageinput', filename: 'a.png', type: 'image/png', data: PNG }, { field: 'imageinput', filename: 'b.png', type: 'image/png', data: PNG }])).body.error.code).toBe('VALIDATION_ERROR');
    expect((await up([])).status).toBe(400);
    const big = await up([{ field: 'imageinput', filename: 'big.png', type: 'image/png', data: Buffer.concat([PNG, Buffer.alloc(3000)]) }]);
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('FILE_TOO_LARGE');
  });

  it('OUT_OF_STORAGE past the quota; storage details follow the files', async () => {
    // quota 4000 bytes: 1008 + 10 used; two more PNGs fit, the third does not
    expect((await up([{ field: 'imageinput', filename: 'c.png', type: 'image/png', data: PNG }])).status).toBe(200);
    expect((await up([{ field: 'imageinput', filename: 'd.png', type: 'image/png', data: PNG }])).status).toBe(200);
    const full = await up([{ field: 'imageinput', filename: 'e.png', type: 'image/png', data: PNG }]);
    expect(full.status).toBe(422);
    expect(full.body.error).toMatchObject({ code: 'OUT_OF_STORAGE', msg: 'Out off Storage' });
    const cookie = await login(t.app, 'student');
    const s = await call(t.app, 'getStorageDetails', { cookie });
    expect(s.body.data.free_storage_gb * 1024 ** 3).toBeCloseTo(4000 - 3 * 1008 - 10, 3);
    expect(readdirSync(t.dirs.uploads).filter((f) => !f.startsWith('.')).length).toBe(4);
  });
});
