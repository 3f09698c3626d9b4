/**
 * The back office takes a session login (SameSite=Strict cookie), a CSRF
 * token and an Origin check on every state change, and cannot be framed. HTTP Basic is gone.
 * `npm run admin` never opens the embedded PGlite folder a server holds.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteHolderFile } from '../../server/config';
import { makeOrder, orderRow } from './payments/helpers';
import { testApp, type TestApp } from './support/app';

const OWN = 'http://localhost:80';
const HOST = { host: 'localhost:80' };
let t: TestApp;

beforeAll(async () => {
  t = await testApp({ payments: true });
});
afterAll(async () => t.close());

async function adminLogin(): Promise<{ cookie: string; csrf: string; setCookie: string }> {
  const r = await t.app.inject({ method: 'POST', url: '/admin/login', headers: { ...HOST, origin: OWN, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'token=admin-dev-token' });
  expect(r.statusCode).toBe(303);
  const setCookie = String(r.headers['set-cookie']);
  const cookie = setCookie.split(';')[0]!;
  const page = await t.app.inject({ method: 'GET', url: '/admin', headers: { ...HOST, cookie } });
  expect(page.statusCode).toBe(200);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
  expect(csrf).toBeTruthy();
  return { cookie, csrf: csrf!, setCookie };
}

const post = (url: string, headers: Record<string, string>, payload: string) =>
  t.app.inject({ method: 'POST', url, headers: { ...HOST, 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload });

describe('back office login', () => {
  it('HTTP Basic no longer opens the back office', async () => {
    const basic = { authorization: `Basic ${Buffer.from('admin:admin-dev-token').toString('base64')}` };
    const page = await t.app.inject({ method: 'GET', url: '/admin', headers: { ...HOST, ...basic } });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/admin/login');
    const o = await makeOrder(t, { userId: 2, total: 10000 });
    const r = await post(`/admin/api/orders/${o.id}/approve`, { ...basic, origin: 'https://evil.example' }, '');
    expect(r.statusCode).toBe(401);
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
  });

  it('the session cookie is httpOnly, SameSite=Strict, scoped to /admin', async () => {
    const { setCookie } = await adminLogin();
    expect(setCookie).toMatch(/admin_sid=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\/admin/);
  });

  it('a wrong token is refused, and so is a login posted from another origin', async () => {
    expect((await post('/admin/login', { origin: OWN }, 'token=nope')).statusCode).toBe(401);
    expect((await post('/admin/login', { origin: 'https://evil.example' }, 'token=admin-dev-token')).statusCode).toBe(403);
  });

  it('cannot be framed', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/admin/login', headers: HOST });
    expect(String(r.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(r.headers['x-frame-options']).toBe('DENY');
  });
});

describe('a page on another origin cannot change anything (the finding replayed)', () => {
  it('auto-submitted approve with the admin browser credentials: refused, the order stays unpaid', async () => {
    const { cookie, csrf } = await adminLogin();
    const o = await makeOrder(t, { userId: 2, total: 10000 });
    // The attacker's page: another Origin, no CSRF token (it cannot read ours).
    expect((await post(`/admin/api/orders/${o.id}/approve`, { cookie, origin: 'https://evil.example' }, '')).statusCode).toBe(403);
    // Even guessing a token does not help from another origin.
    expect((await post(`/admin/api/orders/${o.id}/approve`, { cookie, origin: 'https://evil.example' }, `_csrf=${csrf}`)).statusCode).toBe(403);
    // Same origin without the token (e.g. a sibling page injecting a form): refused.
    expect((await post(`/admin/api/orders/${o.id}/approve`, { cookie, origin: OWN }, '')).statusCode).toBe(403);
    // No Origin and no Referer: refused.
    expect((await post(`/admin/api/orders/${o.id}/approve`, { cookie }, `_csrf=${csrf}`)).statusCode).toBe(403);
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    // The back office page's own form: accepted.
    const ok = await post(`/admin/api/orders/${o.id}/approve`, { cookie, origin: OWN }, `_csrf=${encodeURIComponent(csrf)}`);
    expect(ok.statusCode).toBe(303);
    expect((await orderRow(t, o.id)).status).toBe('approved');
  });

  it('the command line (Bearer) still works; logout ends the session', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/admin/api/pending', headers: { authorization: 'Bearer admin-dev-token' } });
    expect(r.statusCode).toBe(200);
    const { cookie, csrf } = await adminLogin();
    expect((await post('/admin/logout', { cookie, origin: OWN }, `_csrf=${encodeURIComponent(csrf)}`)).statusCode).toBe(303);
    expect((await t.app.inject({ method: 'GET', url: '/admin/api/pending', headers: { ...HOST, cookie } })).statusCode).toBe(401);
  });
});

describe('npm run admin and the embedded database', () => {
  it('refuses to open a PGlite folder that a running server holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pglite-held-'));
    const dataDir = join(dir, 'pglite');
    // This test process stands for the server holding the folder; nothing listens at its URL.
    writeFileSync(pgliteHolderFile(dataDir), JSON.stringify({ pid: process.pid, url: 'http://127.0.0.1:5899' }));
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'development', PGLITE_DIR: dataDir };
    const child = spawn(process.execPath, ['--import', './scripts/ts-hooks.mjs', 'scripts/admin.ts', 'pending'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(out).toContain('refusing to open the embedded database');
    expect(out).toContain('ADMIN_URL=http://127.0.0.1:5899');
  }, 30_000);
});
