/**
 * Security headers on the course page and every answer, HSTS and a
 * Secure session cookie over https, no public source maps in production, an idle session limit.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testApp, type TestApp } from './support/app';
import { contentSecurityPolicy, policyInputs } from '../../server/headers';
import { loadProvidersConfig } from '../../server/providers/config';

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map((d) => [d[0]!, d.slice(1)]),
  );
}

let dist: string;
beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>');
  writeFileSync(join(dist, 'assets', 'index.js'), 'console.log(1)\n//# sourceMappingURL=index.js.map');
  writeFileSync(join(dist, 'assets', 'index.js.map'), '{"version":3,"sources":["src/secret.ts"],"mappings":""}');
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('the course page and the API carry the security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ config: { serveApp: true, distDir: dist } });
  });
  afterAll(async () => t.close());

  it.each(['/course/2', '/', '/admin', '/public/courses', '/no/such/api/public/x'])('%s: strict CSP, no framing, referrer and permissions policy', async (url) => {
    const r = await t.app.inject({ method: 'GET', url });
    const csp = String(r.headers['content-security-policy'] ?? '');
    const d = directives(csp);
    expect(d.get('script-src')).toBeDefined();
    expect(d.get('script-src')).not.toContain("'unsafe-inline'");
    expect(d.get('script-src')).not.toContain("'unsafe-eval'");
    expect(d.get('script-src')).not.toContain('*');
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(String(r.headers['permissions-policy'])).toContain('camera=()');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    // Plain http on loopback: no HSTS.
    expect(r.headers['strict-transport-security']).toBeUndefined();
  });

  it('API answers are never stored by a cache (a back/forward navigation would show them stale)', async () => {
    for (const url of ['/public/courses', '/public/courses/3/0', '/private/cart/ordercourse']) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(String(r.headers['content-type'])).toContain('application/json');
      expect(r.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('the course page itself is the app', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/course/2' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('<div id="root">');
  });

  it('scripts come from self and the configured provider origins only', () => {
    const providers = loadProvidersConfig({ NODE_ENV: 'test', OMISE_API_BASE: 'https://api.omise.co', OMISE_VAULT_BASE: 'https://vault.omise.co', TWOC2P_SECURE_PAY_URL: 'https://t.2c2p.com/SecurePayment/PaymentAuth.aspx' });
    const csp = directives(contentSecurityPolicy(policyInputs(providers, { VITE_OMISE_JS_URL: 'https://cdn.omise.co/omise.js', VITE_MY2C2P_JS_URL: 'https://t.2c2p.com/SecurePayment/api/my2c2p.1.7.3.min.js' })));
    expect(csp.get('script-src')).toEqual(["'self'", 'https://cdn.omise.co', 'https://t.2c2p.com']);
    expect(csp.get('connect-src')).toEqual(expect.arrayContaining(['https://api.omise.co', 'https://vault.omise.co']));
    expect(csp.get('form-action')).toEqual(["'self'", 'https://t.2c2p.com']);
  });

  it("GB Prime Pay's card page may call GB Prime Pay's token API from the browser (connect-src) and post its 3-D Secure form (form-action)", () => {
    const providers = loadProvidersConfig({ NODE_ENV: 'test', GBPRIME_API_BASE: 'https://api.gbprimepay.com' });
    const csp = directives(contentSecurityPolicy(policyInputs(providers, {})));
    expect(csp.get('connect-src')).toEqual(expect.arrayContaining(["'self'", 'https://api.gbprimepay.com']));
    expect(csp.get('form-action')).toEqual(expect.arrayContaining(["'self'", 'https://api.gbprimepay.com']));
    // Our loopback sandbox (/sandbox/gbprime) is reached on the page's own origin: 'self'.
    const sandbox = directives(contentSecurityPolicy(policyInputs(loadProvidersConfig({ NODE_ENV: 'test' }), {})));
    expect(sandbox.get('connect-src')?.[0]).toBe("'self'");
  });

  it('source maps stay public in the demo shop', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/assets/index.js.map' });
    expect(r.statusCode).toBe(200);
  });
});

describe('production over https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ config: { serveApp: true, distDir: dist, env: 'production', publicOrigin: 'https://shop.example' } });
  });
  afterAll(async () => t.close());

  it('sends HSTS', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/course/2' });
    expect(String(r.headers['strict-transport-security'])).toMatch(/max-age=\d{7,}/);
  });

  it('source maps are not public', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/assets/index.js' })).statusCode).toBe(200);
    const r = await t.app.inject({ method: 'GET', url: '/assets/index.js.map' });
    expect(r.statusCode).toBe(404);
    expect(r.body).not.toContain('secret.ts');
  });

  it.each(['/assets/index.js%2emap', '/assets/index.js%2Emap', '/assets/index.js%252emap', '/assets/index%2ejs%2emap', '/assets/INDEX.JS.MAP', '/assets/index.js.MAP', '/assets/index.js.map/', '/assets/index.js.map.', '/assets/./index.js.map', '/assets//index.js.map', '/assets/%69ndex.js.map', '/assets/index.js.map?x=1'])(
    'source maps are not public however the path is written: %s',
    async (url) => {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode).toBe(404);
      expect(r.body).not.toContain('secret.ts');
    },
  );

  it('a 5,000-character path answers the declared 400 with the envelope (page, API and asset paths)', async () => {
    for (const url of [`/${'a'.repeat(5000)}`, `/course/${'1'.repeat(5000)}`, `/public/courses/${'1'.repeat(5000)}/0`, `/api/${'a'.repeat(5000)}`, `/assets/${'a'.repeat(5000)}.js`]) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url.slice(0, 20)).toBe(400);
      expect(r.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    }
  });

  it('the session cookie is Secure when PUBLIC_ORIGIN is https, even without a proxy', async () => {
    const r = await call(t.app, 'login', { body: { username: 'student', password: 'student123' } });
    expect(r.status).toBe(200);
    expect(String(r.headers['set-cookie'])).toMatch(/;\s*Secure/i);
  });
});

describe('idle session limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ config: { sessionIdleMinutes: 30 } });
  });
  afterAll(async () => t.close());

  it('a session used within the idle limit lives on; one left idle longer ends', async () => {
    const sid = await login(t.app, 'student');
    for (let i = 0; i < 3; i++) {
      t.clock.advance(25 * 60_000);
      expect((await call(t.app, 'getSession', { cookie: sid })).body.user).not.toBeNull();
    }
    t.clock.advance(31 * 60_000);
    expect((await call(t.app, 'getSession', { cookie: sid })).body.user).toBeNull();
    expect((await call(t.app, 'listMyOrders', { cookie: sid })).status).toBe(401);
  });
});
