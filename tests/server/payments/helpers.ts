/**
 * A seeded app with the payments plugin, listening on 127.0.0.1:<random> so the sandboxes can call
 * our callbacks over HTTP like the real providers. API calls go through `call` (app.inject, answers
 * re-checked against openapi.yaml); sandbox pages are fetched over HTTP.
 */
import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { PNG } from 'pngjs';
import jsQR from 'jsqr';
import { appForFile, call, login, testApp, type Answer, type TestApp } from '../support/app';
import type { Delivery } from '../../../server/providers/sandbox/common';
import { paymentsContext } from '../../../server/payments/plugin';
import type { PaymentsContext } from '../../../server/context';

export { appForFile, call, login };

export interface PayApp extends TestApp {
  origin: string;
  /** The app's context with the payments plugin's members (providers, payments, realtime). */
  ctx: PaymentsContext;
  /** order.statusChanged events seen, by order id. */
  changes: Map<number, { status: string; paymentStatus: string }[]>;
}

/** Calls an operation as a browser on the listening origin would (Host header = our origin). */
export function api(t: PayApp, operationId: string, o: Parameters<typeof call>[2] = {}): Promise<Answer> {
  return call(t.app, operationId, { ...o, headers: { host: new URL(t.origin).host, ...(o.headers ?? {}) } });
}

export async function payApp(): Promise<PayApp> {
  const t = await testApp({ payments: true });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  const changes = new Map<number, { status: string; paymentStatus: string }[]>();
  t.app.ctx.events.on('order.statusChanged', (e) => {
    const list = changes.get(e.orderId) ?? [];
    list.push({ status: e.status, paymentStatus: e.paymentStatus });
    changes.set(e.orderId, list);
  });
  return { ...t, ctx: paymentsContext(t.app), origin: `http://127.0.0.1:${port}`, changes };
}

let tokenSeq = 0;

/** An unpaid order of `userId` (inserted directly: these tests are about paying it). */
export async function makeOrder(
  t: TestApp,
  o: { userId: number; total: number; currency?: 'THB' | 'USD'; methodId?: number; planName?: string; email?: string },
): Promise<{ id: number; token: string }> {
  const plan = await t.db.query<{ id: number; course_id: number; name: string }>(
    o.planName ? 'SELECT pp.id, pp.course_id, c.name FROM pricing_plans pp JOIN courses c ON c.id = pp.course_id WHERE pp.name = $1 LIMIT 1' : 'SELECT pp.id, pp.course_id, c.name FROM pricing_plans pp JOIN courses c ON c.id = pp.course_id ORDER BY pp.id LIMIT 1',
    o.planName ? [o.planName] : [],
  );
  const p = plan.rows[0]!;
  const token = `tok-${Date.now().toString(36)}-${++tokenSeq}`;
  const now = t.clock.now();
  const r = await t.db.query<{ id: number }>(
    `INSERT INTO orders (order_token, user_id, status, payment_status, currency_code, payment_method_id, price, total, email, cancel_at, created_at, updated_at)
     VALUES ($1, $2, 'notYetReceived', 'notYetReceived', $3, $4, $5, $5, $6, $7, $8, $8) RETURNING id`,
    [token, o.userId, o.currency ?? 'THB', o.methodId ?? 1, o.total, o.email ?? null, new Date(now.getTime() + 24 * 3600_000), now],
  );
  const id = r.rows[0]!.id;
  await t.db.query(
    `INSERT INTO order_courses (order_id, course_id, pricing_plan_id, course_name, course_type, qty, original_pricing_price, discount, price) VALUES ($1, $2, $3, $4, 'Online', 1, $5, 0, $5)`,
    [id, p.course_id, p.id, p.name, o.total],
  );
  return { id, token };
}

export async function orderRow(t: TestApp, id: number) {
  const r = await t.db.query<{ status: string; payment_status: string; order_payment_id: number | null; approve_by: string | null }>('SELECT status, payment_status, order_payment_id, approve_by FROM orders WHERE id = $1', [id]);
  return r.rows[0]!;
}

export async function paymentsOf(t: TestApp, orderId: number) {
  const r = await t.db.query<{ id: number; provider: string; status: string; amount: number; paid_amount: number | null; attention: string | null; failure_code: string | null; order_payment_id: number | null; provider_ref: string }>(
    'SELECT id, provider, status, amount, paid_amount, attention, failure_code, order_payment_id, provider_ref FROM payments WHERE order_id = $1 ORDER BY id',
    [orderId],
  );
  return r.rows;
}

export async function reportsOf(t: TestApp, orderId: number) {
  const r = await t.db.query<{ id: number; payment: string; status: string; transfer_amount: number; payment_id: number | null; description: string | null; transfer_at: Date | null }>(
    'SELECT id, payment, status, transfer_amount, payment_id, description, transfer_at FROM payment_reports WHERE order_id = $1 ORDER BY id',
    [orderId],
  );
  return r.rows;
}

/** Waits until fn() is truthy (callbacks arrive over HTTP, asynchronously). */
export async function until<T>(fn: () => Promise<T> | T, what = 'condition', ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function deliveries(t: PayApp, provider: string): Delivery[] {
  return (t.ctx.payments.sandbox?.deliveries ?? []).filter((d) => d.provider === provider);
}

/** Re-posts recorded deliveries (3 times each, in reverse order) straight to our server. */
export async function replay(t: PayApp, list: Delivery[], times = 3): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) {
    for (const d of [...list].reverse()) {
      const path = new URL(d.url).pathname;
      const r = await t.app.inject({ method: 'POST', url: path, headers: d.headers, payload: d.body });
      statuses.push(r.statusCode);
    }
  }
  return statuses;
}

/** Decodes a QR PNG to its text. */
export function decodeQr(png: Buffer): string {
  const img = PNG.sync.read(png);
  const code = jsQR(new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.byteLength), img.width, img.height);
  if (!code) throw new Error('no QR code found in the image');
  return code.data;
}

export async function fetchManual(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { redirect: 'manual', ...init });
}

export function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() };
}

/** The action of the first <form> in an HTML page. */
export function formAction(html: string): string {
  const m = /<form[^>]*action="([^"]+)"/u.exec(html);
  if (!m?.[1]) throw new Error('no form in page');
  return m[1].replace(/&amp;/gu, '&');
}

/** Hidden inputs of an HTML page. */
export function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  const unescape = (s: string) => s.replace(/&quot;/gu, '"').replace(/&#39;/gu, "'").replace(/&lt;/gu, '<').replace(/&gt;/gu, '>').replace(/&amp;/gu, '&');
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/gu)) out[unescape(m[1]!)] = unescape(m[2]!);
  return out;
}

export type { Answer };

/**
 * What Omise.js does in the browser: the card posted to the sandbox's vault with a public key (Basic
 * auth, the shop's own by default); the answer's status and body (a token `id`, or an error `code`).
 */
export async function omiseTokenize(t: PayApp, number: string, key = t.ctx.payments.config.omise.publicKey, expirationYear = 2030) {
  const r = await fetch(`${t.origin}/sandbox/omise/vault/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
    body: JSON.stringify({ card: { name: 'Somchai Jaidee', number, expiration_month: 12, expiration_year: expirationYear, security_code: '123' } }),
  });
  return { status: r.status, body: (await r.json()) as { id: string; code?: string } };
}

/** What my2c2p.js does in the browser: the card encrypted with the sandbox's public key (RSA-OAEP, SHA-256), sent with the masked number and the expiry. */
export async function encrypt2c2pCard(t: PayApp, number: string) {
  const { spki } = (await (await fetch(`${t.origin}/sandbox/2c2p/control/public-key`)).json()) as { spki: string };
  const key = createPublicKey({ key: Buffer.from(spki, 'base64'), format: 'der', type: 'spki' });
  const enc = publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(JSON.stringify({ number, month: '12', year: '2030', cvv: '123' })));
  return { encryptedCardInfo: enc.toString('base64'), maskedCardInfo: `${number.slice(0, 6)}XXXXXX${number.slice(-4)}`, expMonthCardInfo: '12', expYearCardInfo: '2030' };
}
