// Structured logs never contain passwords, session ids or card data; login and registration are rate limited.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { createDb, type Db } from '../../server/db/index';
import { seed } from '../../server/db/seed';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkAnswer } from './support/contract';

const lines: string[] = [];
const stream = new Writable({
  write(chunk, _enc, done) {
    lines.push(String(chunk));
    done();
  },
});
let app: FastifyInstance;
let db: Db;
const dir = mkdtempSync(join(tmpdir(), 'logs-'));

beforeAll(async () => {
  db = await createDb({ url: null, dataDir: 'memory' });
  await seed(db);
  app = await buildApp({ db, logStream: stream, config: { logLevel: 'info', outboxDir: join(dir, 'o'), uploadsDir: join(dir, 'u'), authRateLimit: 5, serveApp: false }, payments: false });
});
afterAll(async () => {
  await app?.close();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('logs', () => {
  it('log requests as JSON without passwords, cookies or card query data', async () => {
    const login = await app.inject({ method: 'POST', url: '/public/auth/login', payload: { username: 'student', password: 'student123' } });
    const sid = String(login.headers['set-cookie']).split(';')[0]!;
    await app.inject({ method: 'GET', url: '/private/students', headers: { cookie: sid } });
    await app.inject({ method: 'POST', url: '/public/students/course-detail-page', payload: { firstname: 'a', lastname: 'b', email: 'x@example.com', username: 'logtest', password: 'Secret-Pass-99' } });
    await app.inject({ method: 'GET', url: '/payment/card/12?encryptedCardInfo=ENCRYPTED4242&maskedCardInfo=424242XXXXXX4242&expMonthCardInfo=12' });
    await app.inject({ method: 'POST', url: '/public/auth/login', payload: '{"username":"student","password":"student123"' , headers: { 'content-type': 'application/json' } });
    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(5);
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    for (const secret of ['student123', 'Secret-Pass-99', sid.slice(4), 'ENCRYPTED4242', '424242XXXXXX4242']) expect(text).not.toContain(secret);
    expect(text).toContain('/payment/card/12');
  });
});

describe('order tokens', () => {
  it('are never written to the request log (the thank-you page token travels in the path)', async () => {
    const login = await app.inject({ method: 'POST', url: '/public/auth/login', payload: { username: 'student', password: 'student123' }, remoteAddress: '10.7.0.1' });
    const sid = String(login.headers['set-cookie']).split(';')[0]!;
    const tokens = (await db.query<{ order_token: string }>("SELECT order_token FROM orders WHERE user_id = (SELECT id FROM users WHERE username = 'student') LIMIT 2")).rows.map((r) => r.order_token);
    expect(tokens.length).toBeGreaterThan(0);
    const from = lines.length;
    for (const token of tokens) {
      const r = await app.inject({ method: 'GET', url: `/private/orders/token/${token}`, headers: { cookie: sid } });
      expect(r.statusCode).toBe(200);
      await app.inject({ method: 'GET', url: `/private/orders/token/${encodeURIComponent(token)}?lang=en`, headers: { cookie: sid } });
    }
    const captured = lines.slice(from);
    expect(captured.some((l) => l.includes('/private/orders/token/[redacted]'))).toBe(true);
    for (const token of tokens) for (const l of captured) expect(l).not.toContain(token);
  });
});

describe('rate limit', () => {
  // Logins are held back by the database-backed limits (server/auth/limits.ts: 10 failures of one
  // account from one address), not by the per-IP limiter.
  it('answers 429 RATE_LIMITED in the envelope after the login failure limit', async () => {
    const statuses: number[] = [];
    let last: { statusCode: number; json(): unknown; headers: Record<string, unknown> } | null = null;
    for (let i = 0; i < 12; i++) {
      last = await app.inject({ method: 'POST', url: '/public/auth/login', payload: { username: 'nobody', password: 'wrong' }, remoteAddress: '10.9.9.9' });
      statuses.push(last.statusCode);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(last!.statusCode).toBe(429);
    checkAnswer('login', 429, last!.json());
    expect(last!.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect(last!.headers['retry-after']).toBeDefined();
    // other callers and other operations are not affected
    expect((await app.inject({ method: 'GET', url: '/api/setting/site/into/1', remoteAddress: '10.9.9.9' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/public/auth/login', payload: { username: 'student', password: 'student123' }, remoteAddress: '10.9.9.8' })).statusCode).toBe(200);
  });
});
