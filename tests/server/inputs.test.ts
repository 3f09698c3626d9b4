/**
 * NUL and other invalid text, malformed multipart, over-long paths answer
 * 400 with the envelope; a body over the limit answers 413, which the contract declares.
 */
import { describe, expect, it } from 'vitest';
import { appForFile, call, testApp, type TestApp } from './support/app';

let t: TestApp;
let sid: string;
appForFile(testApp, ['student'], (app, [c]) => { t = app; sid = c; });

const isEnvelope = (b: { success?: unknown; error?: { code?: unknown; msg?: unknown } }) => b.success === false && typeof b.error?.code === 'string' && typeof b.error?.msg === 'string';

describe('invalid input answers 400 with the envelope', () => {
  it.each([
    ['login', { username: 'stu\u0000dent', password: 'student123' }],
    ['loginNonMember', { email: 'a\u0000@example.com', credential: 'x' }],
    ['getCouponByCouponCode', { coupon_code: 'WELCOME\u000010', course_id: [2], pricingplan_id: [1] }],
  ])('%s with a NUL character', async (op, body) => {
    const r = await call(t.app, op, { body, cookie: sid });
    expect(r.status).toBe(400);
    expect(isEnvelope(r.body)).toBe(true);
  });

  it('a lone surrogate in a JSON string', async () => {
    const r = await call(t.app, 'login', { raw: '{"username":"a\\ud800b","password":"student123"}', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(isEnvelope(r.body)).toBe(true);
  });

  it('a NUL in a query value', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/public/courses?keyword=a%00b' });
    expect(r.statusCode).toBe(400);
    expect(isEnvelope(r.json())).toBe(true);
  });

  it.each([
    ['no boundary', 'multipart/form-data', 'garbage'],
    ['an early end', 'multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition: form-data; name="imageinput"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG'],
    ['a broken part header', 'multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition\r\n\r\nx\r\n--XyZ--\r\n'],
  ])('a malformed multipart upload: %s', async (_what, type, raw) => {
    const r = await call(t.app, 'uploadFile', { cookie: sid, raw, headers: { 'content-type': type } });
    expect(r.status).toBe(400);
    expect(isEnvelope(r.body)).toBe(true);
  });

  it('a 5,000-character path value', async () => {
    for (const url of [`/public/courses/${'a'.repeat(5000)}`, `/api/order/${'1'.repeat(5000)}`]) {
      const r = await t.app.inject({ method: 'GET', url, headers: { cookie: sid } });
      expect(r.statusCode, url.slice(0, 30)).toBeLessThan(500);
      expect(r.statusCode).not.toBe(414);
      expect(isEnvelope(r.json())).toBe(true);
    }
    const r = await call(t.app, 'getCourse', { params: { id: '7'.repeat(5000), number: 1 } });
    expect(r.status).toBe(400);
  });

  it('a JSON body over 1 MiB: 413, declared by the operation', async () => {
    const r = await call(t.app, 'login', { raw: JSON.stringify({ username: 'x'.repeat(1024 * 1024 + 1), password: 'x' }), headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(413);
    expect(isEnvelope(r.body)).toBe(true);
  });
});
