// One real listen: the full app (with the payments plugin when present) on a port, the built web
// app served with SPA fallback, the API answering JSON, and every call of endpoints.txt routed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testApp, type TestApp } from './support/app';

let t: TestApp;
let app: FastifyInstance;
let base: string;
const dist = mkdtempSync(join(tmpdir(), 'dist-'));

beforeAll(async () => {
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>shop</title><div id="root"></div>');
  writeFileSync(join(dist, 'app.js'), 'console.log(1)');
  t = await testApp({ payments: true, config: { distDir: dist, serveApp: true } });
  app = t.app;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});
afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('a real server on a port', () => {
  it('serves the app, its assets, and the SPA fallback for client routes', async () => {
    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<div id="root">');
    expect((await fetch(`${base}/app.js`)).status).toBe(200);
    const route = await fetch(`${base}/course/1-english-for-communication`, { headers: { accept: 'text/html' } });
    expect(route.status).toBe(200);
    expect(route.headers.get('content-type')).toContain('text/html');
    const thank = await fetch(`${base}/thankyou?orderId=abc`);
    expect(await thank.text()).toContain('<div id="root">');
  });

  it('answers the API in JSON, and unknown API paths with a 404 envelope (never the app)', async () => {
    const s = await fetch(`${base}/api/setting/site/into/1`);
    expect(s.status).toBe(200);
    expect(((await s.json()) as { data: { layout_course_detail: number } }).data.layout_course_detail).toBe(3);
    const nope = await fetch(`${base}/api/does-not-exist`);
    expect(nope.status).toBe(404);
    expect(await nope.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });

  it('logs in over HTTP with a cookie the browser keeps', async () => {
    const r = await fetch(`${base}/public/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'student', password: 'student123' }) });
    expect(r.status).toBe(200);
    const cookie = r.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/sid=.+HttpOnly/);
    const me = await fetch(`${base}/private/students`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(me.status).toBe(200);
  });

  it('routes every call of docs/spec/endpoints.txt (no 404 route-miss)', async () => {
    const text = readFileSync(join(new URL('../../', import.meta.url).pathname, 'docs', 'spec', 'endpoints.txt'), 'utf8');
    const lines = text.split('\n').filter((l) => /^(GET|POST|PUT|DELETE) \//.test(l));
    expect(lines.length).toBeGreaterThan(40);
    const unrouted: string[] = [];
    for (const line of lines) {
      const [method, path] = line.split(' ') as [string, string];
      const url = path.replace(/\{[^}]+\}/g, '1');
      const r = await app.inject({ method: method as 'GET', url, payload: method === 'GET' ? undefined : {} });
      const body = String(r.headers['content-type'] ?? '').includes('json') ? r.json() : {};
      if (r.statusCode === 404 && String(body?.error?.msg ?? '').startsWith('No route')) unrouted.push(line);
      expect(r.statusCode).toBeLessThan(500);
    }
    // Core routes always; the payments plugin's only when server/payments/plugin.ts is present.
    const payments = /payment|omise|gbprime|pay-solutions|scb|2c2p|paymentorder/;
    expect(unrouted.filter((l) => !payments.test(l))).toEqual([]);
  });
});
