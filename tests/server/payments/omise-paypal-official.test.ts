// The providers' own libraries against our running sandboxes: omise-node (npm `omise`) and
// PayPal's server SDK (`@paypal/paypal-server-sdk`) complete every call the shop uses, unmodified.
// Both libraries have fixed hosts (api.omise.co / vault.omise.co with no port; api-m.sandbox.paypal.com),
// so an HTTP agent sends their connections to this app, whose sandboxes answer by Host header
// (server/payments/plugin.ts). Any refusal (a rejected promise) or missing field fails the test.
/* eslint-disable @typescript-eslint/no-explicit-any -- omise-node's answers are untyped JSON, checked field by field below */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutPaymentIntent, Client, Environment, OAuthAuthorizationController, OrdersController, PaymentsController } from '@paypal/paypal-server-sdk';
import { fetchManual, form, formAction, payApp, type PayApp } from './helpers';

type OmiseApi = {
  tokens: { create(req: unknown): Promise<Record<string, any>>; retrieve(id: string): Promise<Record<string, any>> };
  sources: { create(req: unknown): Promise<Record<string, any>>; retrieve(id: string): Promise<Record<string, any>> };
  charges: {
    create(req: unknown): Promise<Record<string, any>>;
    retrieve(id: string): Promise<Record<string, any>>;
    list(): Promise<Record<string, any>>;
    expire(id: string): Promise<Record<string, any>>;
    createRefund(id: string, req: unknown): Promise<Record<string, any>>;
    listRefunds(id: string): Promise<Record<string, any>>;
    retrieveRefund(id: string, rid: string): Promise<Record<string, any>>;
  };
  events: { list(): Promise<Record<string, any>>; retrieve(id: string): Promise<Record<string, any>> };
  customers: { list(): Promise<Record<string, any>> };
};
const Omise = createRequire(import.meta.url)('omise') as (cfg: Record<string, unknown>) => OmiseApi;

let t: PayApp;
let port: number;
const savedAgent = http.globalAgent;

/** Every connection goes to this app (plain HTTP), whatever host the library asked for. */
class ToApp extends http.Agent {
  override createConnection(): net.Socket {
    return net.connect(port, '127.0.0.1');
  }
}
class ToAppTls extends https.Agent {
  override createConnection(): net.Socket {
    return net.connect(port, '127.0.0.1');
  }
}

beforeAll(async () => {
  t = await payApp();
  port = Number(new URL(t.origin).port);
  // omise-node passes no agent: it uses Node's global one (scheme 'http' from its config).
  http.globalAgent = new ToApp({ keepAlive: false });
}, 300_000);
afterAll(async () => {
  http.globalAgent = savedAgent;
  await t?.close();
});

const CHARGE_FIELDS = ['object', 'id', 'livemode', 'location', 'amount', 'currency', 'status', 'paid', 'paid_at', 'authorized', 'authorize_uri', 'return_uri', 'failure_code', 'failure_message', 'refunded_amount', 'refunds', 'expired', 'expires_at', 'transaction', 'metadata', 'created_at'];

describe('omise-node (npm omise 1.1.0) against /sandbox/omise', () => {
  const omise = () => {
    const k = t.ctx.payments.config.omise;
    return Omise({ publicKey: k.publicKey, secretKey: k.secretKey, scheme: 'http', omiseVersion: '2019-05-29' });
  };
  const card = (number: string) => ({ card: { name: 'Somchai Jaidee', number, expiration_month: 12, expiration_year: 2031, security_code: '123' } });

  it('token, card charge, refunds (partial, listed, retrieved, over-refund refused), events', async () => {
    const o = omise();
    const tok = await o.tokens.create(card('4242424242424242'));
    expect(tok).toMatchObject({ object: 'token', used: false, card: { last_digits: '4242', brand: 'Visa' } });
    expect((await o.tokens.retrieve(tok.id)).id).toBe(tok.id);
    const ch = await o.charges.create({ amount: 150000, currency: 'thb', card: tok.id, description: 'order 1', metadata: { order_id: 1 } });
    for (const f of CHARGE_FIELDS) expect(ch, `charge.${f}`).toHaveProperty(f);
    expect(ch).toMatchObject({ status: 'successful', paid: true, refunded_amount: 0, refunds: { object: 'list', total: 0 } });
    expect(typeof ch.paid_at).toBe('string');
    const r1 = await o.charges.createRefund(ch.id, { amount: 50000, metadata: { why: 'test' } });
    expect(r1).toMatchObject({ object: 'refund', amount: 50000, currency: 'thb', charge: ch.id, voided: false, metadata: { why: 'test' } });
    expect(typeof r1.transaction).toBe('string');
    const list = await o.charges.listRefunds(ch.id);
    expect(list).toMatchObject({ object: 'list', total: 1, data: [expect.objectContaining({ id: r1.id })] });
    expect((await o.charges.retrieveRefund(ch.id, r1.id)).id).toBe(r1.id);
    expect(await o.charges.retrieve(ch.id)).toMatchObject({ refunded_amount: 50000, refundable: true, refunds: { total: 1 } });
    await expect(o.charges.createRefund(ch.id, { amount: 100001 })).rejects.toMatchObject({ object: 'error', code: 'failed_refund' });
    const ev = await o.events.list();
    expect(ev.object).toBe('list');
    const mine = ev.data.find((e: Record<string, any>) => e.key === 'refund.create' && e.data.id === r1.id);
    expect(mine).toBeTruthy();
    expect(await o.events.retrieve(mine.id)).toMatchObject({ object: 'event', key: 'refund.create' });
    expect((await o.charges.list()).object).toBe('list');
  });

  it('3-D Secure: pending with authorize_uri, passed on the authorize page, then successful', async () => {
    const o = omise();
    const tok = await o.tokens.create(card('4111111111111111'));
    const ch = await o.charges.create({ amount: 59000, currency: 'thb', card: tok.id, return_uri: `${t.origin}/done` });
    expect(ch).toMatchObject({ status: 'pending', paid: false });
    expect(ch.authorize_uri).toMatch(/\/payments\/.+\/authorize$/);
    const page = await (await fetch(ch.authorize_uri)).text();
    const back = await fetchManual(formAction(page), form({ result: 'pass', otp: '123456' }));
    expect(back.status).toBe(303);
    expect(await o.charges.retrieve(ch.id)).toMatchObject({ status: 'successful', paid: true });
  });

  it('PromptPay: source with the PUBLIC key, charge, expire with no body; a paid charge cannot be expired', async () => {
    const o = omise();
    const src = await o.sources.create({ type: 'promptpay', amount: 59000, currency: 'thb' });
    expect(src).toMatchObject({ object: 'source', type: 'promptpay', flow: 'offline', amount: 59000, scannable_code: { object: 'barcode', image: { download_uri: expect.any(String) } } });
    expect((await o.sources.retrieve(src.id)).id).toBe(src.id);
    const ch = await o.charges.create({ amount: 59000, currency: 'thb', source: src.id, return_uri: `${t.origin}/done` });
    expect(ch).toMatchObject({ status: 'pending', source: { id: src.id } });
    expect(typeof ch.expires_at).toBe('string');
    const png = await fetch(ch.source.scannable_code.image.download_uri);
    expect(png.headers.get('content-type')).toBe('image/png');
    const gone = await o.charges.expire(ch.id);
    expect(gone).toMatchObject({ status: 'expired', expired: true });
    expect(typeof gone.expired_at).toBe('string');
    expect((await o.charges.expire(ch.id)).status).toBe('expired');
    // A paid charge cannot be expired: Omise's error, which the library rejects.
    const paid = await o.charges.create({ amount: 59000, currency: 'thb', card: (await o.tokens.create(card('4242424242424242'))).id });
    await expect(o.charges.expire(paid.id)).rejects.toMatchObject({ object: 'error', code: 'failed_expire' });
  });

  it('refusals are Omise errors the library rejects: unknown route, unknown charge, wrong key', async () => {
    const o = omise();
    await expect(o.customers.list()).rejects.toMatchObject({ object: 'error', code: 'not_found' });
    await expect(o.charges.retrieve('chrg_test_nope')).rejects.toMatchObject({ object: 'error', code: 'not_found' });
    const bad = Omise({ publicKey: 'pkey_test_x', secretKey: 'skey_test_x', scheme: 'http' });
    await expect(bad.charges.list()).rejects.toMatchObject({ object: 'error', code: 'authentication_failure' });
  });
});

describe('@paypal/paypal-server-sdk 2.5.0 against /sandbox/paypal', () => {
  const client = (secret?: string) => {
    const k = t.ctx.payments.config.paypal;
    return new Client({
      clientCredentialsAuthCredentials: { oAuthClientId: k.clientId, oAuthClientSecret: secret ?? k.clientSecret },
      environment: Environment.Sandbox,
      timeout: 0,
      httpClientOptions: { httpsAgent: new ToAppTls({ keepAlive: false }), retryConfig: { maxNumberOfRetries: 0 } },
    });
  };
  const approve = async (id: string, outcome: 'ok' | 'pending') => {
    const page = await (await fetch(`${t.origin}/sandbox/paypal/checkoutnow?token=${id}`)).text();
    expect((await fetchManual(formAction(page), form({ outcome }))).status).toBeLessThan(400);
  };
  const newOrder = async (c: Client, value: string) => {
    const { result, statusCode } = await new OrdersController(c).createOrder({
      body: { intent: CheckoutPaymentIntent.Capture, purchaseUnits: [{ referenceId: 'order-1', customId: '1', amount: { currencyCode: 'THB', value } }] },
      paypalRequestId: `sdk-${Math.random()}`,
      prefer: 'return=representation',
    });
    expect(statusCode).toBe(201);
    expect(result.status).toBe('CREATED');
    expect(result.links?.some((l) => l.rel === 'approve')).toBe(true);
    return result.id!;
  };

  it('OAuth as the SDK asks for it; a wrong secret is refused', async () => {
    const k = t.ctx.payments.config.paypal;
    const auth = `Basic ${Buffer.from(`${k.clientId}:${k.clientSecret}`).toString('base64')}`;
    const { result } = await new OAuthAuthorizationController(client()).requestToken({ authorization: auth });
    expect(result).toMatchObject({ accessToken: expect.any(String), tokenType: 'Bearer' });
    expect(result.expiresIn).toBeGreaterThan(0);
    await expect(new OrdersController(client('wrong')).getOrder({ id: 'X' })).rejects.toThrow();
  });

  it('create order, approve, capture with no body, read the capture, refund (a retry answers the same refund)', async () => {
    const c = client();
    const id = await newOrder(c, '1500.00');
    await approve(id, 'ok');
    const { result: captured, statusCode } = await new OrdersController(c).captureOrder({ id, prefer: 'return=representation', paypalRequestId: `cap-${id}` });
    expect(statusCode).toBe(201);
    expect(captured.status).toBe('COMPLETED');
    const cap = captured.purchaseUnits![0]!.payments!.captures![0]!;
    expect(cap).toMatchObject({ status: 'COMPLETED', amount: { currencyCode: 'THB', value: '1500.00' } });
    const payments = new PaymentsController(c);
    expect((await payments.getCapturedPayment({ captureId: cap.id! })).result.status).toBe('COMPLETED');
    const refundReq = { captureId: cap.id!, paypalRequestId: `refund-${cap.id}`, prefer: 'return=representation', body: { amount: { currencyCode: 'THB', value: '1500.00' } } };
    const r1 = await payments.refundCapturedPayment(refundReq);
    expect(r1.statusCode).toBe(201);
    expect(r1.result).toMatchObject({ status: 'COMPLETED', amount: { currencyCode: 'THB', value: '1500.00' } });
    const r2 = await payments.refundCapturedPayment(refundReq);
    expect(r2.result.id).toBe(r1.result.id);
    expect((await payments.getRefund({ refundId: r1.result.id! })).result.id).toBe(r1.result.id);
    expect((await payments.getCapturedPayment({ captureId: cap.id! })).result.status).toBe('REFUNDED');
    await expect(payments.refundCapturedPayment({ captureId: cap.id!, paypalRequestId: 'another', body: { amount: { currencyCode: 'THB', value: '1.00' } } })).rejects.toThrow();
  });

  it('capture pending: PENDING with a reason, then completed by the sandbox control (and its webhook sent)', async () => {
    const c = client();
    const id = await newOrder(c, '590.00');
    await approve(id, 'pending');
    const { result } = await new OrdersController(c).captureOrder({ id, prefer: 'return=representation' });
    const cap = result.purchaseUnits![0]!.payments!.captures![0]!;
    expect(cap.status).toBe('PENDING');
    expect(cap.statusDetails?.reason).toBe('PENDING_REVIEW');
    const done = await fetch(`${t.origin}/sandbox/paypal/control/captures/${cap.id}/complete`, { method: 'POST' });
    expect(((await done.json()) as { changed: boolean }).changed).toBe(true);
    expect((await new PaymentsController(c).getCapturedPayment({ captureId: cap.id! })).result.status).toBe('COMPLETED');
    expect((await new OrdersController(c).getOrder({ id })).result.purchaseUnits![0]!.payments!.captures![0]!.status).toBe('COMPLETED');
  });
});
