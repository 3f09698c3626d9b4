// Omise card (tokenisation in the sandbox vault, charge, 3-D Secure pass / fail, return) and
// PromptPay (source + charge, real QR, paid / failed / expired from the sandbox), the signed
// webhook applied once whatever the order or number of deliveries.
import { describe, expect, it } from 'vitest';
import { createOmiseClient, omiseSignature } from '../../../server/providers/omise';
import { ProviderError } from '../../../server/providers/http';
import { parsePromptPayPayload } from '../../../domain/promptpay';
import { api, appForFile, call, decodeQr, deliveries, fetchManual, form, formAction, makeOrder, omiseTokenize, orderRow, payApp, paymentsOf, replay, reportsOf, until, type PayApp } from './helpers';

let t: PayApp;
let sid: string;
let pkey: string;

appForFile(payApp, ['student'], async (app, [c]) => {
  t = app;
  sid = c;
  pkey = (await call(t.app, 'getOmiseCardPublicKey')).body.publicKey;
});

const tokenize = (number: string, key = pkey) => omiseTokenize(t, number, key);

const charge = (orderId: number, token: string) => api(t, 'chargeOmiseCard', { cookie: sid, body: { orderId, omise_token: token, email: 'student@example.com', name: 'Somchai', total_amount: 1 } });

describe('Omise card', () => {
  it('adapter: a wrong secret key is refused by the API (authentication_failure)', async () => {
    const keys = t.ctx.payments.config.omise;
    const bad = createOmiseClient({ baseUrl: `${t.origin}/sandbox/omise`, vaultUrl: `${t.origin}/sandbox/omise/vault`, keys: { ...keys, secretKey: 'skey_test_wrong' } });
    const err = await bad.retrieveCharge('chrg_test_x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe('authentication_failure');
  });

  it('vault: refuses a wrong public key and an invalid number; keeps only the last 4 digits', async () => {
    expect((await tokenize('4242424242424242', 'pkey_wrong')).status).toBe(401);
    const bad = await tokenize('4242424242424241');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_card');
    const ok = await tokenize('4242424242424242');
    expect(ok.body.id).toMatch(/^tokn_test_/u);
    expect(JSON.stringify(ok.body)).not.toContain('4242424242424242');
  });

  it('4242 4242 4242 4242: paid at once with OUR total, report filed, approval call idempotent', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 8 });
    const tok = await tokenize('4242424242424242');
    const r = await charge(o.id, tok.body.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'successful', chargesDetails: { last_digits: '4242', brand: 'visa' }, charges: { authorize_uri: null } });
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'approved', payment_status: 'approved', approve_by: 'omise' });
    const pays = await paymentsOf(t, o.id);
    expect(pays).toEqual([expect.objectContaining({ provider: 'omise', status: 'successful', amount: 150000, paid_amount: 150000, attention: null })]);
    const reports = await reportsOf(t, o.id);
    expect(reports).toEqual([expect.objectContaining({ payment: 'Omise', status: 'approved', transfer_amount: 150000, id: r.body.orderPaymentId })]);
    const a = await call(t.app, 'approveOrderPayment', { cookie: sid, body: { order_payment_id: r.body.orderPaymentId, order_id: o.id, payment_method_id: 8, approve_by: 'me' } });
    expect(a).toMatchObject({ status: 200, body: { order_token: o.token } });
    // A second call answers the same charge: no second charge.
    const again = await charge(o.id, (await tokenize('4242424242424242')).body.id);
    expect(again.body.charges.id).toBe(r.body.charges.id);
    expect(await paymentsOf(t, o.id)).toHaveLength(1);
    expect(t.changes.get(o.id)).toHaveLength(1);
  });

  it('4111 1111 1114 0011: failed (insufficient_fund), order untouched, a new card can pay', async () => {
    const o = await makeOrder(t, { userId: 2, total: 99000, methodId: 8 });
    const r = await charge(o.id, (await tokenize('4111111111140011')).body.id);
    expect(r.body).toMatchObject({ status: 'failed', charges: { failure_code: 'insufficient_fund' }, orderPaymentId: null });
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'notYetReceived', payment_status: 'notYetReceived' });
    expect(await paymentsOf(t, o.id)).toEqual([expect.objectContaining({ status: 'failed', failure_code: 'insufficient_fund' })]);
    const a = await call(t.app, 'approveOrderPayment', { cookie: sid, body: { order_payment_id: 1, order_id: o.id, payment_method_id: 8 } });
    expect([404, 422]).toContain(a.status);
    for (const [num, code] of [['4111111111130012', 'stolen_or_lost_card'], ['4111111111120013', 'failed_processing'], ['4111111111110014', 'payment_rejected']] as const) {
      const f = await charge(o.id, (await tokenize(num)).body.id);
      expect(f.body.charges.failure_code).toBe(code);
    }
    const ok = await charge(o.id, (await tokenize('4242424242424242')).body.id);
    expect(ok.body.status).toBe('successful');
    expect((await orderRow(t, o.id)).status).toBe('approved');
  });

  it('refuses a used token, another user\'s order, an approved order, and a total under 20 THB', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 8 });
    const tok = (await tokenize('4242424242424242')).body.id;
    const other = await makeOrder(t, { userId: 3, total: 150000, methodId: 8 });
    expect((await charge(other.id, tok)).status).toBe(403);
    expect((await charge(o.id, tok)).body.status).toBe('successful');
    const o2 = await makeOrder(t, { userId: 2, total: 150000, methodId: 8 });
    const used = await charge(o2.id, tok);
    expect(used.status).toBe(422);
    expect(used.body.error.code).toBe('PAYMENT_FAILED');
    const small = await makeOrder(t, { userId: 2, total: 1999, methodId: 8 });
    const s = await charge(small.id, (await tokenize('4242424242424242')).body.id);
    expect(s.status).toBe(422);
    expect(s.body.error.code).toBe('PAYMENT_MINIMUM');
    expect(await paymentsOf(t, small.id)).toHaveLength(0);
  });

  it('3-D Secure pass: pending with authorize_uri, the page passes, the return approves, the webhook changes nothing more', async () => {
    const o = await makeOrder(t, { userId: 2, total: 250000, methodId: 8 });
    const r = await charge(o.id, (await tokenize('4111111111111111')).body.id);
    expect(r.body.status).toBe('pending');
    const uri = r.body.charges.authorize_uri as string;
    expect(uri).toContain('/sandbox/omise/payments/');
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    const page = await (await fetch(uri)).text();
    expect(page).toContain('3-D Secure');
    const back = await fetchManual(formAction(page), form({ result: 'pass', otp: '123456' }));
    expect(back.status).toBe(303);
    const ret = back.headers.get('location')!;
    expect(ret).toBe(`${t.origin}/api/omise/return/${o.id}`);
    const done = await fetchManual(ret);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`/thankyou?orderId=${encodeURIComponent(o.token)}`);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'approved', payment_status: 'approved' });
    // Refresh / back: the return URL opened by hand again changes and duplicates nothing.
    for (let i = 0; i < 3; i++) expect((await fetchManual(ret)).headers.get('location')).toContain('/thankyou');
    const chargeId = r.body.charges.id as string;
    await until(async () => deliveries(t, 'omise').some((d) => d.body.includes(chargeId) && d.body.includes('charge.complete') && d.status === 200), 'charge.complete webhook');
    const mine = deliveries(t, 'omise').filter((d) => d.body.includes(chargeId));
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect((await replay(t, mine, 3)).every((s) => s === 200)).toBe(true);
    expect(await paymentsOf(t, o.id)).toHaveLength(1);
    expect(await reportsOf(t, o.id)).toHaveLength(1);
    expect(t.changes.get(o.id)).toEqual([{ status: 'approved', paymentStatus: 'approved' }]);
  });

  it('3-D Secure fail: failed, the return goes to the order list, the order stays unpaid', async () => {
    const o = await makeOrder(t, { userId: 2, total: 250000, methodId: 8 });
    const r = await charge(o.id, (await tokenize('5555555555554444')).body.id);
    const page = await (await fetch(r.body.charges.authorize_uri)).text();
    const back = await fetchManual(formAction(page), form({ result: 'fail' }));
    const done = await fetchManual(back.headers.get('location')!);
    expect(done.headers.get('location')).toBe('/myaccount/student/order');
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'notYetReceived' });
    expect(await paymentsOf(t, o.id)).toEqual([expect.objectContaining({ status: 'failed', failure_code: 'failed_3ds' })]);
  });

  it('a return URL opened by hand before anything happened, or for an unknown order, changes nothing', async () => {
    const o = await makeOrder(t, { userId: 2, total: 250000, methodId: 8 });
    const r = await fetchManual(`${t.origin}/api/omise/return/${o.id}`);
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/myaccount/student/order');
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    expect((await fetchManual(`${t.origin}/api/omise/return/999999`)).status).toBe(404);
  });
});

describe('Omise webhook signature', () => {
  const secret = () => t.ctx.payments.config.omise.webhookSecret;
  const post = (body: string, headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/omise/webhook', headers: { 'content-type': 'application/json', ...headers }, payload: body });

  it('refuses a wrong signature, a stale timestamp, and a body changed after signing', async () => {
    const body = JSON.stringify({ object: 'event', id: 'evnt_test_forged', key: 'charge.complete', data: { object: 'charge', id: 'chrg_test_x', status: 'successful', amount: 1 } });
    const now = Math.floor(t.clock.now().getTime() / 1000);
    expect((await post(body, { 'omise-signature': 'a'.repeat(64), 'omise-signature-timestamp': String(now) })).statusCode).toBe(401);
    const old = String(now - 301);
    expect((await post(body, { 'omise-signature': omiseSignature(secret(), old, body), 'omise-signature-timestamp': old })).statusCode).toBe(401);
    const sig = omiseSignature(secret(), String(now), body);
    expect((await post(body.replace('"amount":1', '"amount":2'), { 'omise-signature': sig, 'omise-signature-timestamp': String(now) })).statusCode).toBe(401);
    // Correctly signed but about a charge Omise does not know: acknowledged, nothing applied.
    expect((await post(body, { 'omise-signature': sig, 'omise-signature-timestamp': String(now) })).statusCode).toBe(200);
    const ev = await t.db.query('SELECT 1 FROM provider_events WHERE event_id = $1', ['evnt_test_forged']);
    expect(ev.rows).toHaveLength(0);
  });

  it('a signed event claiming success is re-read from Omise: a pending charge stays pending', async () => {
    const o = await makeOrder(t, { userId: 2, total: 250000, methodId: 8 });
    const r = await charge(o.id, (await tokenize('4111111111111111')).body.id);
    const body = JSON.stringify({ object: 'event', id: 'evnt_test_lie', key: 'charge.complete', data: { object: 'charge', id: r.body.charges.id, status: 'successful', amount: 250000 } });
    const ts = String(Math.floor(t.clock.now().getTime() / 1000));
    expect((await post(body, { 'omise-signature': omiseSignature(secret(), ts, body), 'omise-signature-timestamp': ts })).statusCode).toBe(200);
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    expect((await paymentsOf(t, o.id))[0]!.status).toBe('pending');
  });
});

describe('Omise PromptPay', () => {
  const create = (orderId: number) => api(t, 'createOmisePromptPay', { cookie: sid, body: { orderId, email: 'student@example.com', name: 'Somchai' } });

  it('QR: a real PromptPay payload (valid CRC, the order total); paid from the sandbox; webhooks applied once', async () => {
    const o = await makeOrder(t, { userId: 2, total: 123456, methodId: 9 });
    const r = await create(o.id);
    expect(r.status).toBe(200);
    const png = Buffer.from(await (await fetch(r.body.QrcodeUrl.image.download_uri)).arrayBuffer());
    const payload = decodeQr(png);
    const parsed = parsePromptPayPayload(payload);
    expect(parsed).toMatchObject({ crcValid: true, dynamic: true, amount: 123456, currency: '764', country: 'TH' });
    // Asking again answers the same QR (no second charge).
    expect((await create(o.id)).body.charge_id).toBe(r.body.charge_id);
    const paid = await fetch(`${t.origin}/sandbox/omise/control/charges/${r.body.charge_id}/paid`, { method: 'POST' });
    expect(paid.status).toBe(200);
    await until(async () => (await orderRow(t, o.id)).status === 'approved', 'order approved by webhook');
    const mine = deliveries(t, 'omise').filter((d) => d.body.includes(r.body.charge_id));
    await replay(t, mine, 3);
    expect(t.changes.get(o.id)).toHaveLength(1);
    expect(await reportsOf(t, o.id)).toHaveLength(1);
    expect(await paymentsOf(t, o.id)).toEqual([expect.objectContaining({ status: 'successful', paid_amount: 123456 })]);
  });

  it('expired and failed QR charges leave the order unpaid; a late "paid" cannot revive an expired charge', async () => {
    for (const action of ['expired', 'failed'] as const) {
      const o = await makeOrder(t, { userId: 2, total: 50000, methodId: 9 });
      const r = await create(o.id);
      await fetch(`${t.origin}/sandbox/omise/control/charges/${r.body.charge_id}/${action}`, { method: 'POST' });
      await until(async () => (await paymentsOf(t, o.id))[0]!.status !== 'pending', `payment ${action}`);
      expect((await paymentsOf(t, o.id))[0]!.status).toBe(action);
      const late = await (await fetch(`${t.origin}/sandbox/omise/control/charges/${r.body.charge_id}/paid`, { method: 'POST' })).json();
      expect(late.changed).toBe(false);
      expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
      // A new QR can be made after an expiry.
      const again = await create(o.id);
      expect(again.body.charge_id).not.toBe(r.body.charge_id);
    }
  });
});
