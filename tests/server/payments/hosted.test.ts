// 2C2P card form (signed here, HMAC-SHA256 uppercase, 9.9, 12-digit amount, 764) and payment link
// (installments, JWT): success and every failure the sandbox makes. GB Prime Pay and PaySolutions:
// gbprime-paysolutions.test.ts.
import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signHs256 } from '../../../server/providers/jwt';
import { api, deliveries, fetchManual, form, formAction, login, makeOrder, orderRow, paymentsOf, payApp, replay, reportsOf, until, type PayApp } from './helpers';

let t: PayApp;
let sid: string;

beforeAll(async () => {
  t = await payApp();
  sid = await login(t.app, 'student');
});
afterAll(async () => t?.close());

describe('2C2P card form (method 3)', () => {
  async function encrypt(number: string) {
    const { spki } = (await (await fetch(`${t.origin}/sandbox/2c2p/control/public-key`)).json()) as { spki: string };
    const key = createPublicKey({ key: Buffer.from(spki, 'base64'), format: 'der', type: 'spki' });
    const enc = publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(JSON.stringify({ number, month: '12', year: '2030', cvv: '123' })));
    return { encryptedCardInfo: enc.toString('base64'), maskedCardInfo: `${number.slice(0, 6)}XXXXXX${number.slice(-4)}`, expMonthCardInfo: '12', expYearCardInfo: '2030' };
  }
  const request = async (orderId: number, number: string) => api(t, 'create2c2pCardRequest', { cookie: sid, body: { orderId, ...(await encrypt(number)) } });

  it('signed form for OUR total; the gateway checks the hash; 3-D Secure pass pays the order once', async () => {
    const o = await makeOrder(t, { userId: 2, total: 2500, methodId: 3 });
    const r = await request(o.id, '4111111111111111');
    expect(r.status).toBe(200);
    const f = r.body.fields;
    expect(f).toMatchObject({ version: '9.9', amt: '000000002500', currencyCode: '764', merchantID: 'JT01' });
    expect(f.hashValue).toMatch(/^[0-9A-F]{64}$/u);
    const tampered = await fetchManual(r.body.action, form({ ...f, amt: '000000000100' }));
    expect(tampered.status).toBe(400);
    const page = await fetchManual(r.body.action, form(f));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('411111XXXXXX1111');
    const back = await fetchManual(formAction(html), form({ result: 'pass' }));
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toContain('/myaccount/student/order');
    await until(async () => (await orderRow(t, o.id)).status === 'approved', 'approved');
    const mine = deliveries(t, '2c2p').filter((d) => d.body.startsWith('paymentResponse='));
    await replay(t, mine.slice(-1), 3);
    expect(t.changes.get(o.id)).toHaveLength(1);
    expect(await reportsOf(t, o.id)).toEqual([expect.objectContaining({ payment: '2C2P', status: 'approved', transfer_amount: 2500 })]);
  });

  it('a declined card (4111 1111 1114 0011) and a failed 3-D Secure leave the order unpaid', async () => {
    const o = await makeOrder(t, { userId: 2, total: 2500, methodId: 3 });
    const r = await request(o.id, '4111111111140011');
    const res = await fetchManual(r.body.action, form(r.body.fields));
    expect(res.status).toBe(303);
    await until(async () => (await paymentsOf(t, o.id))[0]!.status === 'failed', 'declined');
    expect((await paymentsOf(t, o.id))[0]!.failure_code).toBe('4051');
    const r2 = await request(o.id, '4111111111111111');
    const html = await (await fetchManual(r2.body.action, form(r2.body.fields))).text();
    await fetchManual(formAction(html), form({ result: 'fail' }));
    await until(async () => (await paymentsOf(t, o.id))[1]!.status === 'failed', '3ds failed');
    // 3-D Secure rejected (status AR) is recorded as such, not as the bank's refusal: the buyer is told why.
    expect((await paymentsOf(t, o.id))[1]!.failure_code).toBe('AR');
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
  });

  it('a forged backend notification (wrong hash) is refused', async () => {
    const xml = '<PaymentResponse><version>9.9</version><merchantID>JT01</merchantID><respCode>00</respCode><status>A</status><amt>000000002500</amt><uniqueTransactionCode>C1</uniqueTransactionCode><hashValue>' + 'A'.repeat(64) + '</hashValue></PaymentResponse>';
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/2c2p/backend-return', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ paymentResponse: Buffer.from(xml).toString('base64') }).toString() });
    expect(r.statusCode).toBe(401);
  });
});

describe('2C2P payment link (method 10, installments)', () => {
  const link = (orderId: number) => api(t, 'create2c2pPaymentLink', { cookie: sid, body: { orderId, amount: 1 } });

  it('installment page for OUR total; paid; JWT notification verified, re-read by inquiry, applied once', async () => {
    const o = await makeOrder(t, { userId: 2, total: 1200000, methodId: 10 });
    const r = await link(o.id);
    expect(r.status).toBe(200);
    const url = r.body.result.webPaymentUrl as string;
    const html = await (await fetch(url)).text();
    expect(html).toContain('installment');
    expect(html).toContain('12000');
    const back = await fetchManual(formAction(html), form({ cardnumber: '4111111111111111', month: '12', year: '2030', cvv: '123', period: '6', action: 'pay' }));
    expect(back.status).toBe(303);
    await until(async () => (await orderRow(t, o.id)).status === 'approved', 'approved');
    await replay(t, deliveries(t, '2c2p').filter((d) => d.body.startsWith('{"payload"')).slice(-1), 3);
    expect(t.changes.get(o.id)).toHaveLength(1);
    expect((await paymentsOf(t, o.id))[0]).toMatchObject({ provider: '2c2p', status: 'successful', paid_amount: 1200000 });
  });

  it('cancel, decline, a bad signature', async () => {
    const o = await makeOrder(t, { userId: 2, total: 1200000, methodId: 10 });
    const html = await (await fetch((await link(o.id)).body.result.webPaymentUrl)).text();
    await fetchManual(formAction(html), form({ action: 'cancel', cardnumber: '' }));
    await until(async () => (await paymentsOf(t, o.id))[0]!.status === 'cancelled', 'cancelled');
    const html2 = await (await fetch((await link(o.id)).body.result.webPaymentUrl)).text();
    await fetchManual(formAction(html2), form({ cardnumber: '4111111111140011', month: '12', year: '2030', cvv: '123', action: 'pay' }));
    await until(async () => (await paymentsOf(t, o.id))[1]!.status === 'failed', 'declined');
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    const forged = signHs256({ merchantID: 'JT01', invoiceNo: (await paymentsOf(t, o.id))[1]!.provider_ref, respCode: '0000', amount: 12000 }, 'not-the-secret');
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/2c2p/backend-return', payload: { payload: forged } });
    expect(r.statusCode).toBe(401);
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
  });
});
