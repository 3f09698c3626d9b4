// Realtime: a socket signs in with its user id, accepted only when it is the session's user; every
// order status change is pushed to that user's room and nobody else's. Secrets: no provider secret
// in any answer of the payment endpoints, the sandbox scripts, the back office or the web bundle;
// no card number stored.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { secretValues } from '../../../server/providers/config';
import { api, appForFile, makeOrder, payApp, type PayApp } from './helpers';

let t: PayApp;
let sid: string;
let sid2: string;
const sockets: Socket[] = [];

appForFile(payApp, ['student', 'student2'], (app, [c0, c1]) => { t = app; sid = c0; sid2 = c1; });
afterAll(() => {
  for (const s of sockets) s.disconnect();
});

async function socket(cookie: string | null): Promise<{ s: Socket; got: unknown[] }> {
  const s = connect(t.origin, { path: '/socket.io', transports: ['websocket'], reconnection: false, extraHeaders: cookie ? { cookie } : {} });
  sockets.push(s);
  const got: unknown[] = [];
  s.on('order.status', (m: unknown) => got.push(m));
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
  return { s, got };
}

const signIn = (s: Socket, userId: unknown) => s.timeout(3000).emitWithAck('sign-in', { userId }) as Promise<{ ok: boolean; error?: string }>;
const admin = (path: string) => fetch(`${t.origin}/admin/api${path}`, { method: 'POST', headers: { authorization: 'Bearer admin-dev-token', 'content-type': 'application/json' }, body: '{}' });

describe('realtime', () => {
  it('accepts only the session user\'s id and pushes each status change to that user alone', async () => {
    const mine = await socket(sid);
    const spy = await socket(sid2);
    const anon = await socket(null);
    const other = await socket(sid2);
    expect(await signIn(mine.s, 2)).toEqual({ ok: true });
    expect(await signIn(spy.s, 2)).toEqual({ ok: false, error: 'FORBIDDEN' });
    expect(await signIn(anon.s, 2)).toEqual({ ok: false, error: 'FORBIDDEN' });
    expect(await signIn(other.s, '3')).toEqual({ ok: true });
    expect(await t.ctx.realtime.countFor(2)).toBe(1);

    const o = await makeOrder(t, { userId: 2, total: 10000 });
    await admin(`/orders/${o.id}/pending`);
    await admin(`/orders/${o.id}/approve`);
    const o3 = await makeOrder(t, { userId: 3, total: 10000 });
    await admin(`/orders/${o3.id}/cancel`);
    await new Promise((r) => setTimeout(r, 200));
    expect(mine.got).toEqual([
      { orderId: o.id, status: 'pendingApproved', payment_status: expect.any(String) },
      { orderId: o.id, status: 'approved', payment_status: 'approved' },
    ]);
    expect(spy.got).toEqual([]);
    expect(anon.got).toEqual([]);
    expect(other.got).toEqual([{ orderId: o3.id, status: 'cancelled', payment_status: expect.any(String) }]);

    // Signing in as someone else later drops the earlier room too.
    expect(await signIn(mine.s, 3)).toEqual({ ok: false, error: 'FORBIDDEN' });
    expect(await t.ctx.realtime.countFor(2)).toBe(0);
  });
});

describe('secrets', () => {
  it('no secret in the answers of the payment endpoints, the sandbox scripts or the back office', async () => {
    const secrets = secretValues(t.ctx.payments.config);
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    const texts: string[] = [];
    const keep = (x: { body: unknown; raw?: { body: string } }) => texts.push(x.raw?.body ?? JSON.stringify(x.body));
    for (const op of ['getPaymentMethods', 'getCartPaymentMethods', 'getBankTransferMethod', 'getBankAccounts', 'get2c2pCardMethod', 'getOmiseCardPublicKey', 'getOmisePromptPayKey', 'getBankCodeOptions']) keep(await api(t, op));
    const o = await makeOrder(t, { userId: 2, total: 150000 });
    keep(await api(t, 'create2c2pCardRequest', { cookie: sid, body: { orderId: o.id, encryptedCardInfo: 'x', maskedCardInfo: '411111XXXXXX1111', expMonthCardInfo: '12', expYearCardInfo: '2030' } }));
    keep(await api(t, 'create2c2pPaymentLink', { cookie: sid, body: { orderId: o.id } }));
    keep(await api(t, 'createPaySolutionsPayment', { cookie: sid, body: { order_id: o.id } }));
    keep(await api(t, 'createGbPrimeCardPayment', { cookie: sid, body: { orderId: o.id, email: 'student@example.com', name: 'S' } }));
    keep(await api(t, 'createGbPrimePromptPay', { cookie: sid, body: { orderId: o.id, email: 'student@example.com', name: 'S' } }));
    keep(await api(t, 'createScbQrCode', { cookie: sid, body: { orderId: o.id } }));
    keep(await api(t, 'createOmisePromptPay', { cookie: sid, body: { orderId: o.id, email: 'student@example.com', name: 'S' } }));
    keep(await api(t, 'createPaypalOrder', { cookie: sid, body: { orderId: o.id } }));
    keep(await api(t, 'getPaymentMethodsForOrder', { cookie: sid, params: { orderId: o.id } }));
    const bad = await t.app.inject({ method: 'POST', url: '/api/omise/webhook', headers: { 'omise-signature': 'a'.repeat(64), 'omise-signature-timestamp': '1' }, payload: { object: 'event', id: 'evnt_x', key: 'k', data: { object: 'charge', id: 'c' } } });
    texts.push(bad.body);
    for (const path of ['/sandbox/omise/omise.js', '/sandbox/2c2p/my2c2p.js', '/sandbox/', '/admin']) {
      texts.push(await (await fetch(`${t.origin}${path}`, { headers: { authorization: 'Bearer admin-dev-token' } })).text());
    }
    const all = texts.join('\n');
    expect(all).toContain('pkey_'); // public keys do go out
    for (const s of secrets) expect(all, `secret ${s.slice(0, 6)}… leaked`).not.toContain(s);
  });

  it('the web app and its bundle carry no server secret', () => {
    const secrets = secretValues(t.ctx.payments.config);
    const files: string[] = [];
    const walk = (dir: string) => {
      if (!existsSync(dir)) return;
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(ts|tsx|js|mjs|html|json|map)$/u.test(f)) files.push(p);
      }
    };
    for (const d of ['src', 'machines', 'domain', 'generated', 'dist']) walk(d);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      let text: string;
      try {
        text = readFileSync(f, 'utf8');
      } catch {
        continue; // a concurrent build replaced dist/
      }
      for (const s of secrets) expect(text.includes(s), `${f} contains a secret`).toBe(false);
    }
  });

  it('no card number is stored with payments, reports or provider events', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 8 });
    const tok = await fetch(`${t.origin}/sandbox/omise/vault/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${t.ctx.payments.config.omise.publicKey}:`).toString('base64')}` },
      body: JSON.stringify({ card: { name: 'S', number: '4242424242424242', expiration_month: 12, expiration_year: 2030, security_code: '123' } }),
    });
    const charged = await api(t, 'chargeOmiseCard', { cookie: sid, body: { orderId: o.id, omise_token: ((await tok.json()) as { id: string }).id, email: 'student@example.com', name: 'S' } });
    expect(charged.body.status).toBe('successful');
    const rows = await t.db.query<{ t: string }>(
      `SELECT coalesce(string_agg(row_to_json(p)::text, ' '), '') AS t FROM (SELECT details FROM payments UNION ALL SELECT to_jsonb(r) FROM payment_reports r UNION ALL SELECT to_jsonb(e) FROM provider_events e) p`,
    );
    expect(rows.rows[0]!.t).toContain(charged.body.charges.id);
    for (const pan of ['4242424242424242', '4111111111111111', '4111111111140011']) expect(rows.rows[0]!.t).not.toContain(pan);
  });
});
