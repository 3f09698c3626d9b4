// SCB QR30 (OAuth, create, our expiry, unsigned confirmation re-checked by inquiry) and GB Prime
// Pay PromptPay (QR PNG, background re-checked): real EMVCo payloads, callbacks applied once.
import { describe, expect, it } from 'vitest';
import { parsePromptPayPayload } from '../../../domain/promptpay';
import { createScbClient } from '../../../server/providers/scb';
import { ProviderError } from '../../../server/providers/http';
import { api, appForFile, decodeQr, deliveries, makeOrder, orderRow, payApp, paymentsOf, replay, reportsOf, until, type PayApp } from './helpers';

let t: PayApp;
let sid: string;

appForFile(payApp, ['student'], (app, [c]) => { t = app; sid = c; });

const post = (path: string, body: unknown) => fetch(`${t.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('SCB QR', () => {
  const create = (orderId: number) => api(t, 'createScbQrCode', { cookie: sid, body: { orderId } });
  const scbPay = async (orderId: number, amount?: string) => {
    const p = (await paymentsOf(t, orderId)).at(-1)!;
    const [ref1, ref2] = p.provider_ref.split('.');
    return post('/sandbox/scb/control/pay', { ref1, ref2, ...(amount ? { amount } : {}) });
  };

  it('QR30 for the order total: status 1000, decodable, CRC right, expiry we enforce', async () => {
    const o = await makeOrder(t, { userId: 2, total: 259900, methodId: 4 });
    const r = await create(o.id);
    expect(r.status).toBe(200);
    expect(r.body.status.code).toBe(1000);
    expect(r.body.data.csExtExpiryTime).toBe(15);
    expect(new Date(r.body.data.expires_at).getTime()).toBe(t.clock.now().getTime() + 15 * 60_000);
    const payload = decodeQr(Buffer.from(r.body.data.qrImage, 'base64'));
    expect(payload).toBe(r.body.data.qrRawData);
    const parsed = parsePromptPayPayload(payload);
    expect(parsed).toMatchObject({ crcValid: true, amount: 259900, currency: '764', target: { kind: 'billPayment', ref1: `O${o.id}` } });
    // Asked again while valid: the same QR.
    expect((await create(o.id)).body.data.qrRawData).toBe(r.body.data.qrRawData);
  });

  it('paid in the bank app: the unsigned confirmation is re-checked by inquiry and applied once (3 deliveries, reversed)', async () => {
    const o = await makeOrder(t, { userId: 2, total: 100000, methodId: 4 });
    await create(o.id);
    const r = await (await scbPay(o.id)).json();
    expect(r.delivery.status).toBe(200);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'approved', approve_by: 'scb' });
    const mine = deliveries(t, 'scb').filter((d) => d.body.includes(`"billPaymentRef1":"O${o.id}"`));
    const statuses = await replay(t, mine, 3);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const ack = await t.app.inject({ method: 'POST', url: '/api/payment/scb/confirm', headers: { 'content-type': 'application/json' }, payload: mine[0]!.body });
    expect(ack.json()).toMatchObject({ resCode: '00', resDesc: 'success' });
    expect(t.changes.get(o.id)).toHaveLength(1);
    expect(await reportsOf(t, o.id)).toEqual([expect.objectContaining({ payment: 'SCB', status: 'approved', transfer_amount: 100000 })]);
  });

  it('a forged confirmation (no such transaction at SCB) changes nothing', async () => {
    const o = await makeOrder(t, { userId: 2, total: 100000, methodId: 4 });
    await create(o.id);
    const p = (await paymentsOf(t, o.id))[0]!;
    const [ref1, ref2] = p.provider_ref.split('.');
    const forged = await t.app.inject({ method: 'POST', url: '/api/payment/scb/confirm', payload: { transactionId: 'FAKE123', amount: '1000.00', billPaymentRef1: ref1, billPaymentRef2: ref2, transactionDateandTime: t.clock.now().toISOString() } });
    expect(forged.statusCode).toBe(200);
    expect(forged.json().resCode).toBe('99');
    const unknown = await t.app.inject({ method: 'POST', url: '/api/payment/scb/confirm', payload: { transactionId: 'X', amount: '1.00', billPaymentRef1: 'NOPE' } });
    expect(unknown.json().resCode).toBe('01');
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
  });

  it('a wrong amount paid is flagged (amount_mismatch) and waits for the back office', async () => {
    const o = await makeOrder(t, { userId: 2, total: 100000, methodId: 4 });
    await create(o.id);
    await scbPay(o.id, '1.00');
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    expect((await paymentsOf(t, o.id))[0]).toMatchObject({ status: 'successful', paid_amount: 100, attention: 'amount_mismatch' });
    expect((await reportsOf(t, o.id))[0]).toMatchObject({ status: 'pending', payment: 'SCB' });
  });

  it('after our expiry: a new QR is made; a payment of the old one is late and not applied by itself', async () => {
    const o = await makeOrder(t, { userId: 2, total: 100000, methodId: 4 });
    const first = await create(o.id);
    const firstPayment = (await paymentsOf(t, o.id))[0]!;
    t.clock.advance(16 * 60_000);
    try {
      const second = await create(o.id);
      expect(second.body.data.qrRawData).not.toBe(first.body.data.qrRawData);
      const [ref1, ref2] = firstPayment.provider_ref.split('.');
      await post('/sandbox/scb/control/pay', { ref1, ref2 });
      expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
      const pays = await paymentsOf(t, o.id);
      expect(pays[0]).toMatchObject({ status: 'successful', attention: 'late_payment' });
      expect(pays[1]).toMatchObject({ status: 'pending' });
    } finally {
      t.clock.advance(-16 * 60_000);
    }
  });
});

describe('SCB adapter against the sandbox', () => {
  it('OAuth with a wrong secret fails with SCB\'s status; bad references are refused; the token is reused', async () => {
    const keys = t.ctx.payments.config.scb;
    const bad = createScbClient({ baseUrl: `${t.origin}/sandbox/scb`, keys: { ...keys, applicationSecret: 'wrong' } });
    const err = await bad.token().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe('9300');
    const good = createScbClient({ baseUrl: `${t.origin}/sandbox/scb`, keys });
    const tok = await good.token();
    expect(await good.token()).toBe(tok);
    const refused = await good.createQr({ amount: 100, ref1: 'lower-case', ref2: 'X', ref3: 'SCB' }).catch((e: unknown) => e);
    expect((refused as ProviderError).code).toBe('4101');
    expect(await good.inquiry({ ref1: 'NONE', transactionDate: '2026-03-02' })).toEqual([]);
  });
});

describe('GB Prime Pay PromptPay', () => {
  const create = (orderId: number) => api(t, 'createGbPrimePromptPay', { cookie: sid, body: { orderId, email: 'student@example.com', name: 'Somchai', total_amount: 5 } });

  it('QR image decodes to a valid payload of the order total; paid from the sandbox; background re-checked and applied once', async () => {
    const o = await makeOrder(t, { userId: 2, total: 77700, methodId: 12 });
    const r = await create(o.id);
    expect(r.status).toBe(200);
    const parsed = parsePromptPayPayload(decodeQr(Buffer.from(r.body.data.qrImage, 'base64')));
    expect(parsed).toMatchObject({ crcValid: true, amount: 77700, target: { kind: 'billPayment', ref1: r.body.data.referenceNo } });
    expect((await create(o.id)).body.data.referenceNo).toBe(r.body.data.referenceNo);
    const paid = await (await fetch(`${t.origin}/sandbox/gbprime/control/qrcode/${r.body.data.referenceNo}/pay`, { method: 'POST' })).json();
    expect(paid.changed).toBe(true);
    await until(async () => (await orderRow(t, o.id)).status === 'approved', 'approved');
    const mine = deliveries(t, 'gbprime').filter((d) => d.body.includes(r.body.data.referenceNo));
    await replay(t, mine, 3);
    expect(t.changes.get(o.id)).toHaveLength(1);
    expect(await paymentsOf(t, o.id)).toEqual([expect.objectContaining({ status: 'successful', paid_amount: 77700 })]);
  });

  it('a declined QR payment fails; a forged "success" background is re-checked and ignored', async () => {
    const o = await makeOrder(t, { userId: 2, total: 77700, methodId: 12, email: 'student@example.com' });
    const r = await create(o.id);
    const forged = await t.app.inject({ method: 'POST', url: '/api/gbprime/background', payload: { resultCode: '00', referenceNo: r.body.data.referenceNo, amount: 777, gbpReferenceNo: 'gbpFAKE' } });
    expect(forged.statusCode).toBe(200);
    expect((await paymentsOf(t, o.id))[0]!.status).toBe('pending');
    await fetch(`${t.origin}/sandbox/gbprime/control/qrcode/${r.body.data.referenceNo}/decline`, { method: 'POST' });
    await until(async () => (await paymentsOf(t, o.id))[0]!.status === 'failed', 'failed');
    // A QR that did not pay is declined, never "invalid card data" (card result codes say nothing about a QR).
    expect((await paymentsOf(t, o.id))[0]!.failure_code).toBe('D');
    expect((await api(t, 'getOrder', { cookie: sid, params: { orderId: o.id } })).body.data.outcome).toMatchObject({ state: 'failed', reason: 'declined' });
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    const usd = await makeOrder(t, { userId: 2, total: 77700, methodId: 12, currency: 'USD' });
    expect((await create(usd.id)).status).toBe(409);
  });
});
