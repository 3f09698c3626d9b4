/**
 * Back-office tokens are counted like member logins (server/admin/session.ts): Bearer guesses on
 * /admin/api/* and the /admin/login form share one account's failures per address; a guessing
 * address waits (429); after many failures from anywhere both ask a proof-of-work challenge, which
 * the owner from any other address solves and gets in; the token's strength is measured as randomness.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testApp, type TestApp } from './support/app';
import { CHALLENGE_AFTER, CHALLENGE_BITS, DEFAULT_LOGIN_LIMITS } from '../../server/auth/limits';
import { solve, solves } from '../../server/auth/challenge';
import { ADMIN_TOKEN_MIN_BITS, adminTokenProblem, tokenEntropyBits } from '../../server/admin/session';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ payments: true, config: { trustProxy: ['127.0.0.1'] } });
}, 180_000);
afterAll(async () => t?.close());

const api = (token: string, xff: string, proof: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/admin/api/orders', headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': xff, ...proof } });
const form = (payload: string, xff: string) =>
  t.app.inject({ method: 'POST', url: '/admin/login', headers: { 'x-forwarded-for': xff, 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80', host: 'localhost:80' }, payload });
const asked = (r: { json: () => unknown }) => (r.json() as { error: { code: string; result: { challenge: string; difficulty: number } } }).error;

describe('Bearer tokens on /admin/api/*', () => {
  it('a guessing address waits after the pair limit; the owner from another address gets in', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < DEFAULT_LOGIN_LIMITS.pairMax + 3; i++) statuses.push((await api(`guess-${i}`, '198.51.100.66')).statusCode);
    expect(statuses.slice(0, DEFAULT_LOGIN_LIMITS.pairMax).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(DEFAULT_LOGIN_LIMITS.pairMax).every((s) => s === 429)).toBe(true);
    const held = await api('admin-dev-token', '198.51.100.66');
    expect(held.statusCode).toBe(429);
    expect(held.headers['retry-after']).toBeDefined();
    // A distributed run (many addresses, each under its limit): past CHALLENGE_AFTER failures of the
    // account every new attempt costs a proof-of-work — guesses without one are not even tried.
    let challenged = 0;
    for (let a = 0; a < 8; a++)
      for (let i = 0; i < DEFAULT_LOGIN_LIMITS.pairMax - 1; i++) {
        const r = await api(`g${a}-${i}`, `198.18.0.${a + 1}`);
        expect([401, 429]).toContain(r.statusCode);
        if (r.statusCode === 429) {
          expect(asked(r).code).toBe('CHALLENGE_REQUIRED');
          challenged++;
        }
      }
    expect(challenged).toBeGreaterThan(0);
    // The owner from a new address: asked the challenge, solves it, gets in (never locked out).
    const first = await api('admin-dev-token', '192.0.2.200');
    expect(first.statusCode).toBe(429);
    const c = asked(first);
    expect(c.code).toBe('CHALLENGE_REQUIRED');
    expect(c.result.difficulty).toBeGreaterThanOrEqual(CHALLENGE_BITS);
    // a wrong nonce or a replayed challenge does not pass
    const nonce = solve(c.result.challenge, c.result.difficulty);
    let wrong = '0';
    while (solves(c.result.challenge, wrong, c.result.difficulty)) wrong += '0';
    expect((await api('admin-dev-token', '192.0.2.200', { 'x-admin-challenge': c.result.challenge, 'x-admin-nonce': wrong })).statusCode).toBe(429);
    const again = asked(await api('admin-dev-token', '192.0.2.200')).result;
    expect((await api('admin-dev-token', '192.0.2.200', { 'x-admin-challenge': again.challenge, 'x-admin-nonce': solve(again.challenge, again.difficulty) })).statusCode).toBe(200);
    expect((await api('admin-dev-token', '192.0.2.201', { 'x-admin-challenge': c.result.challenge, 'x-admin-nonce': nonce })).statusCode).toBe(429);
    // An address that logged in before passes without one.
    expect((await api('admin-dev-token', '192.0.2.200')).statusCode).toBe(200);
    expect(CHALLENGE_AFTER).toBeLessThan(8 * (DEFAULT_LOGIN_LIMITS.pairMax - 1));
  });

  it('the login form asks the same challenge and solves it in the page (/admin/pow.js); a solved form logs in', async () => {
    const r = await form('token=admin-dev-token', '192.0.2.210');
    expect(r.statusCode).toBe(429);
    const challenge = /data-challenge="([^"]+)"/.exec(r.body)?.[1];
    const difficulty = Number(/data-difficulty="(\d+)"/.exec(r.body)?.[1]);
    expect(challenge).toBeTruthy();
    expect(r.body).toContain('<script src="/admin/pow.js" defer></script>');
    expect(r.body).toContain('name="nonce"');
    const js = await t.app.inject({ method: 'GET', url: '/admin/pow.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('javascript');
    expect(js.body).toContain("crypto.subtle.digest('SHA-256'");
    // without the proof: asked again; with it: logged in (a session cookie, to /admin)
    expect((await form(`token=admin-dev-token&challenge=${encodeURIComponent(challenge!)}&nonce=zz-not-it`, '192.0.2.210')).statusCode).toBe(429);
    const fresh = /data-challenge="([^"]+)"/.exec((await form('token=admin-dev-token', '192.0.2.210')).body)![1]!;
    const ok = await form(`token=admin-dev-token&challenge=${encodeURIComponent(fresh)}&nonce=${solve(fresh, difficulty)}`, '192.0.2.210');
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/admin');
    expect(String(ok.headers['set-cookie'])).toContain('admin_sid=');
  });

  it('the login form shares the count', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/admin/login', headers: { 'x-forwarded-for': '198.51.100.66', 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80', host: 'localhost:80' }, payload: 'token=admin-dev-token' });
    expect(r.statusCode).toBe(429);
  });
});

describe('token strength is measured randomness', () => {
  it('refuses long tokens without randomness, accepts random ones', () => {
    expect(tokenEntropyBits(`${'a'.repeat(40)}0123456789`)).toBeLessThan(10);
    expect(adminTokenProblem(`${'a'.repeat(40)}0123456789`, 32)).not.toBeNull();
    expect(adminTokenProblem('abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH', 32)).not.toBeNull();
    expect(adminTokenProblem('aB3'.repeat(12), 32)).not.toBeNull();
    for (let i = 0; i < 20; i++) {
      expect(adminTokenProblem(randomBytes(32).toString('base64'), 32)).toBeNull();
      expect(adminTokenProblem(randomBytes(16).toString('hex'), 32)).toBeNull();
    }
    expect(tokenEntropyBits(randomBytes(32).toString('base64'))).toBeGreaterThan(ADMIN_TOKEN_MIN_BITS);
  });
});
