// 2C2P card form (signed here, HMAC-SHA256 uppercase, 9.9, 12-digit amount, 764) and payment link
// (installments, JWT), GB Prime Pay card (hosted page with checksum, 3-D Secure; token API),
// PaySolutions (hosted form, postback re-checked): success and every failure the sandboxes make.
import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signHs256 } from '../../../server/providers/jwt';
import { createGbPrimeClient } from '../../../server/providers/gbprime';
import { api, deliveries, fetchManual, form, formAction, hiddenFields, login, makeOrder, orderRow, paymentsOf, payApp, replay, reportsOf, until, type PayApp } from './helpers';

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

describe('GB Prime Pay card (method 11)', () => {
  const start = (orderId: number) => api(t, 'createGbPrimeCardPayment', { cookie: sid, body: { orderId, email: 'student@example.com', name: 'Somchai', total_amount: 1 } });

  async function payOnHostedPage(invoiceUrl: string, number: string, result: 'pass' | 'fail') {
    const html = await (await fetch(invoiceUrl)).text();
    const fields = { ...hiddenFields(html), number, expirationMonth: '12', expirationYear: '30', securityCode: '123', name: 'Somchai' };
    const threeDs = await (await fetchManual(formAction(html), form(fields))).text();
    expect(threeDs).toContain('3-D Secure');
    return fetchManual(formAction(threeDs), form({ result }));
  }

  it('hosted page with a checksum over OUR amount; 3-D Secure pass; background re-checked, applied once', async () => {
    const o = await makeOrder(t, { userId: 2, total: 45000, methodId: 11 });
    const r = await start(o.id);
    expect(r.status).toBe(200);
    const url = new URL(r.body.data.invoice_url);
    expect(url.searchParams.get('amount')).toBe('450.00');
    url.searchParams.set('amount', '1.00');
    expect((await fetchManual(url.toString())).status).toBe(400);
    const back = await payOnHostedPage(r.body.data.invoice_url, '4535017710535741', 'pass');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toContain(`/thankyou?orderId=${encodeURIComponent(o.token)}`);
    await until(async () => (await orderRow(t, o.id)).status === 'approved', 'approved');
    const ref = (await paymentsOf(t, o.id))[0]!.provider_ref;
    await replay(t, deliveries(t, 'gbprime').filter((d) => d.body.includes(`"referenceNo":"${ref}"`)), 3);
    expect(t.changes.get(o.id)).toHaveLength(1);
  });

  it('3-D Secure fail and a declined card leave the order unpaid', async () => {
    const o = await makeOrder(t, { userId: 2, total: 45000, methodId: 11 });
    const failed = await payOnHostedPage((await start(o.id)).body.data.invoice_url, '4535017710535741', 'fail');
    expect(failed.headers.get('location')).toContain('/myaccount/student/order');
    await until(async () => (await paymentsOf(t, o.id))[0]!.status === 'failed', '3ds failed');
    await payOnHostedPage((await start(o.id)).body.data.invoice_url, '4111111111140011', 'pass');
    await until(async () => (await paymentsOf(t, o.id))[1]!.status === 'failed', 'declined');
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    const usd = await makeOrder(t, { userId: 2, total: 45000, methodId: 11, currency: 'USD' });
    expect((await start(usd.id)).status).toBe(409);
  });

  it('token API as GB Prime Pay defines it: public-key token, secret-key charge (otp Y), 3-D Secure form post, status re-read', async () => {
    const base = `${t.origin}/sandbox/gbprime`;
    const cfg = t.app.ctx.payments.config.gbprime;
    const gb = createGbPrimeClient({ baseUrl: base, keys: cfg });
    const token = await gb.createToken({ number: '4535017710535741', expirationMonth: '12', expirationYear: '30', securityCode: '123', name: 'Somchai' });
    const charged = await gb.chargeToken({ amount: 45000, referenceNo: 'TOKENTEST1', cardToken: token, detail: 'x', customerName: 'S', customerEmail: 's@example.com', responseUrl: `${t.origin}/done`, backgroundUrl: `${t.origin}/api/gbprime/background` });
    const f = gb.threeDSecureForm(charged.gbpReferenceNo);
    const page = await (await fetchManual(f.action, form(f.fields))).text();
    await fetchManual(formAction(page), form({ result: 'pass' }));
    expect(await gb.checkStatus('TOKENTEST1')).toMatchObject({ status: 'S', amount: 45000 });
    await expect(createGbPrimeClient({ baseUrl: base, keys: { ...cfg, publicKey: 'wrong' } }).createToken({ number: '4535017710535741', expirationMonth: '12', expirationYear: '30', securityCode: '123', name: 'S' })).rejects.toThrow();
  });
});

describe('PaySolutions (method 13)', () => {
  const start = (orderId: number) => api(t, 'createPaySolutionsPayment', { cookie: sid, body: { order_id: orderId } });

  async function hosted(orderId: number, result: 'pay' | 'decline' | 'cancel') {
    const r = await start(orderId);
    expect(r.status).toBe(200);
    const page = await (await fetchManual(r.body.data.action, form(r.body.data.fields))).text();
    return { r, back: await fetchManual(formAction(page), form({ result })) };
  }

  it('the form carries OUR total; paid; the postback is re-checked by inquiry and applied once', async () => {
    const o = await makeOrder(t, { userId: 2, total: 32000, methodId: 13 });
    const { r, back } = await hosted(o.id, 'pay');
    expect(r.body.data).toMatchObject({ application_id_1: '10012345', fields: { refno: String(o.id), total: '320.00', cc: '00', lang: 'TH', merchantid: '10012345' } });
    expect(r.body.data.action).toContain('lang=TH');
    expect(back.status).toBe(303);
    await until(async () => (await orderRow(t, o.id)).status === 'approved', 'approved');
    await replay(t, deliveries(t, 'paysolutions').filter((d) => d.body.includes(`refno=${o.id}&`)), 3);
    expect(t.changes.get(o.id)).toHaveLength(1);
  });

  it('declined and cancelled payments leave the order unpaid; a forged postback (not paid at PaySolutions) is ignored', async () => {
    const o = await makeOrder(t, { userId: 2, total: 32000, methodId: 13 });
    const forged = await t.app.inject({ method: 'POST', url: '/api/pay-solutions/postback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `refno=${o.id}&merchantid=10012345&total=320.00&status=CP` });
    expect(forged.statusCode).toBe(200);
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    await hosted(o.id, 'cancel');
    await hosted(o.id, 'decline');
    await until(async () => (await paymentsOf(t, o.id))[0]!.status === 'failed', 'declined');
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    const other = await t.app.inject({ method: 'POST', url: '/api/pay-solutions/postback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `refno=${o.id}&merchantid=999&total=320.00` });
    expect(other.statusCode).toBe(400);
  });
});
