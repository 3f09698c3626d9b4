// (2C2P: twoc2p.test.ts and twoc2p-published.test.ts.) GB Prime Pay card (hosted page with checksum, 3-D Secure; token API),
// PaySolutions (hosted form, postback re-checked): success and every failure the sandboxes make.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGbPrimeClient } from '../../../server/providers/gbprime';
import { api, deliveries, fetchManual, form, formAction, hiddenFields, login, makeOrder, orderRow, paymentsOf, payApp, replay, until, type PayApp } from './helpers';

let t: PayApp;
let sid: string;

beforeAll(async () => {
  t = await payApp();
  sid = await login(t.app, 'student');
});
afterAll(async () => t?.close());

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
