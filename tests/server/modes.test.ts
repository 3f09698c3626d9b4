/**
 * Two modes. `npm start` is the demo shop (development: sandboxes, demo keys,
 * a demo-payments notice); NODE_ENV=production refuses to start on a sandbox, a built-in key, the
 * sandbox routes or a weak ADMIN_TOKEN, with one message naming each setting.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, productionProblems, trustedProxies } from '../../server/config';
import { loadProvidersConfig, PROVIDER_URL_SETTINGS, SANDBOX_KEYS, secretValues } from '../../server/providers/config';
import { call, testApp, type TestApp } from './support/app';
import { realEnv } from './support/requests';

describe('production refuses unsafe settings', () => {
  it('names every missing provider setting and ADMIN_TOKEN when nothing is set', () => {
    const problems = productionProblems({ NODE_ENV: 'production' });
    const text = problems.join('\n');
    for (const name of [...PROVIDER_URL_SETTINGS, ...Object.keys(SANDBOX_KEYS), 'ADMIN_TOKEN']) expect(text).toContain(name);
    // The finding's key: 2C2P's secret has no default outside the demo.
    expect(text).toContain('TWOC2P_SECRET_KEY');
  });

  it('accepts a complete real configuration', () => {
    expect(productionProblems(realEnv())).toEqual([]);
  });

  it.each([
    ['a built-in sandbox key', { TWOC2P_SECRET_KEY: SANDBOX_KEYS.TWOC2P_SECRET_KEY }, 'TWOC2P_SECRET_KEY'],
    ['a sandbox URL', { SCB_API_BASE: 'https://shop.example/sandbox/scb' }, 'SCB_API_BASE'],
    ['a plain-http provider URL', { OMISE_API_BASE: 'http://api.omise.co' }, 'OMISE_API_BASE'],
    ['the sandbox routes', { PAYMENTS_SANDBOX: 'on' }, 'PAYMENTS_SANDBOX'],
    ['the demo admin token', { ADMIN_TOKEN: 'admin-dev-token' }, 'ADMIN_TOKEN'],
    ['a short admin token', { ADMIN_TOKEN: 'secret123' }, 'ADMIN_TOKEN'],
    ['a long admin token without randomness', { ADMIN_TOKEN: `${'a'.repeat(40)}0123456789` }, 'ADMIN_TOKEN'],
    ['a long alphabet as admin token', { ADMIN_TOKEN: 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH' }, 'ADMIN_TOKEN'],
    ['a trust-everyone proxy setting', { TRUST_PROXY: '1' }, 'TRUST_PROXY'],
  ])('refuses %s', (_what, change, name) => {
    const problems = productionProblems({ ...realEnv(), ...change });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(name);
  });

  it('has no secret default outside the demo', () => {
    const prod = loadProvidersConfig({ NODE_ENV: 'production' });
    expect(secretValues(prod)).toEqual([]);
    expect(prod.twoc2p.secretKey).toBe('');
    expect(prod.sandboxEnabled).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).adminToken).toBeNull();
    const demo = loadProvidersConfig({ NODE_ENV: 'development' });
    expect(demo.twoc2p.secretKey).toBe(SANDBOX_KEYS.TWOC2P_SECRET_KEY);
    expect(demo.sandboxEnabled).toBe(true);
  });

  it('a production start with no provider keys exits with the list of missing settings', async () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: '5890', HOST: '127.0.0.1', PGLITE_DIR: 'memory', SERVE_APP: '0' };
    const child = spawn(process.execPath, ['--import', './scripts/ts-hooks.mjs', 'server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), 20_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    clearTimeout(timer);
    expect(code).toBe(78);
    expect(out).toContain('Refusing to start in production');
    for (const name of ['TWOC2P_SECRET_KEY', 'OMISE_SECRET_KEY', 'SCB_API_BASE', 'PAYPAL_CLIENT_SECRET', 'ADMIN_TOKEN']) expect(out).toContain(name);
  }, 30_000);

  it('npm start is the demo shop (development), not production', () => {
    const start = readFileSync('scripts/start.mjs', 'utf8');
    expect(start).toMatch(/NODE_ENV: process\.env\.NODE_ENV \|\| 'development'/);
  });
});

describe('TRUST_PROXY takes the balancer addresses', () => {
  it('takes a list of addresses and CIDR ranges, and refuses "everyone"', () => {
    expect(trustedProxies('10.0.0.5, 10.1.0.0/16,::1')).toEqual(['10.0.0.5', '10.1.0.0/16', '::1']);
    expect(trustedProxies(undefined)).toBe(false);
    expect(trustedProxies('off')).toBe(false);
    for (const v of ['1', 'true', '*', '2']) expect(() => trustedProxies(v)).toThrow(/TRUST_PROXY/);
  });
});

describe('the page is told it is the demo shop', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(async () => t.close());

  it('site settings carry demo_payments', async () => {
    const r = await call(t.app, 'getSiteSettings');
    expect(r.body.data.demo_payments).toBe(true);
  });
});
