/**
 * Back-office tokens are counted like member logins (server/admin/session.ts): Bearer guesses on
 * /admin/api/* and the /admin/login form share one account's failures per address; a guessing
 * address waits (429), the owner from any other address still gets in; the token's strength is
 * measured as randomness.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testApp, type TestApp } from './support/app';
import { DEFAULT_LOGIN_LIMITS } from '../../server/auth/limits';
import { ADMIN_TOKEN_MIN_BITS, adminTokenProblem, tokenEntropyBits } from '../../server/admin/session';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ payments: true, config: { trustProxy: ['127.0.0.1'] } });
}, 180_000);
afterAll(async () => t?.close());

const api = (token: string, xff: string) => t.app.inject({ method: 'GET', url: '/admin/api/orders', headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': xff } });

describe('Bearer tokens on /admin/api/*', () => {
  it('a guessing address waits after the pair limit; the owner from another address gets in', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < DEFAULT_LOGIN_LIMITS.pairMax + 3; i++) statuses.push((await api(`guess-${i}`, '198.51.100.66')).statusCode);
    expect(statuses.slice(0, DEFAULT_LOGIN_LIMITS.pairMax).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(DEFAULT_LOGIN_LIMITS.pairMax).every((s) => s === 429)).toBe(true);
    const held = await api('admin-dev-token', '198.51.100.66');
    expect(held.statusCode).toBe(429);
    expect(held.headers['retry-after']).toBeDefined();
    // A distributed run (many addresses, each under its limit) never locks the owner out.
    for (let a = 0; a < 8; a++) for (let i = 0; i < DEFAULT_LOGIN_LIMITS.pairMax - 1; i++) expect((await api(`g${a}-${i}`, `198.18.0.${a + 1}`)).statusCode).toBe(401);
    expect((await api('admin-dev-token', '192.0.2.200')).statusCode).toBe(200);
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
