// 2C2P through the loopback sandbox (which imitates 2C2P's published API): the card form (one
// signed `paymentRequest`, 3DS API 9.9), the payment link (PGW 4.3, installments) and refunds via
// the Payment Action API: success, decline, 3-D Secure failed, cancel, pending, a replayed
// notification applied once, forged notifications refused, a reloaded 3-D Secure page that goes on.
import { describe, expect, it } from 'vitest';
import { signHs256 } from '../../../server/providers/jwt';
import { sealEnvelope, twoC2pProviderOn } from '../../../server/providers/twoc2p';
import { api, appForFile, deliveries, encrypt2c2pCard, fetchManual, form, formAction, hiddenFields, makeOrder, orderRow, payApp, paymentsOf, replay, reportsOf, until, type PayApp } from './helpers';

let t: PayApp;
let sid: string;

appForFile(payApp, ['student'], (app, [c]) => { t = app; sid = c; });

const provider = () => twoC2pProviderOn(t.ctx.providers.twoc2p());

/** The sandbox sends the browser back with an auto-posting form (as 2C2P does): post it to our frontend return. */
async function followBack(res: Response): Promise<Response> {
  expect(res.status).toBe(200);
  const html = await res.text();
  const action = formAction(html);
  expect(new URL(action).pathname).toBe('/api/payment/2c2p/frontend-return');
  return fetchManual(action, form(hiddenFields(html)));
}
const cardResults = () => deliveries(t, '2c2p').filter((d) => d.body.startsWith('paymentResponse='));

describe('2C2P card form (method 3)', () => {
  const encrypt = (number: string) => encrypt2c2pCard(t, number);
  const request = async (orderId: number, number: string) => api(t, 'create2c2pCardRequest', { cookie: sid, body: { orderId, ...(await encrypt(number)) } });

  it('one signed paymentRequest for OUR total; a tampered one is refused; 3-D Secure pass pays the order once, the notification replayed changes nothing', async () => {
    const o = await makeOrder(t, { userId: 2, total: 2500, methodId: 3 });
    const r = await request(o.id, '4111111111111111');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.fields)).toEqual(['paymentRequest']);
    const outer = Buffer.from(r.body.fields.paymentRequest as string, 'base64').toString();
    const inner = Buffer.from(/<payload>([^<]+)<\/payload>/u.exec(outer)![1]!, 'base64').toString();
    expect(inner).toContain('<amt>000000002500</amt>');
    expect(inner).toContain('<currencyCode>764</currencyCode>');
    // The browser cannot change the amount: re-encoding the payload breaks the signature.
    const tamperedPayload = Buffer.from(inner.replace('000000002500', '000000000100')).toString('base64');
    const tampered = Buffer.from(outer.replace(/<payload>[^<]+<\/payload>/u, `<payload>${tamperedPayload}</payload>`)).toString('base64');
    expect((await fetchManual(r.body.action, form({ paymentRequest: tampered }))).status).toBe(400);
    const page = await fetchManual(r.body.action, form(r.body.fields));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('411111XXXXXX1111');
    const back = await followBack(await fetchManual(formAction(html), form({ result: 'pass' })));
    expect(back.status).toBe(303);
    // Our frontend return re-read the payment: no 2C2P field is left in the address.
    expect(back.headers.get('location')).toMatch(/^\/(myaccount\/student\/order|thankyou\?orderId=[^&]+)$/u);
    await until(async () => (await orderRow(t, o.id)).status === 'approved', 'approved');
    await replay(t, cardResults().slice(-1), 3);
    expect(t.changes.get(o.id)).toHaveLength(1);
    expect(await reportsOf(t, o.id)).toEqual([expect.objectContaining({ payment: '2C2P', status: 'approved', transfer_amount: 2500 })]);
    expect((await paymentsOf(t, o.id))[0]).toMatchObject({ status: 'successful', paid_amount: 2500 });
  });

  it('reloading the 3-D Secure page goes on with the same payment; after the answer it leads back to the shop; another request reusing the code gets a way back in the buyer\'s language', async () => {
    const o = await makeOrder(t, { userId: 2, total: 2500, methodId: 3 });
    const r = await request(o.id, '4111111111111111');
    const first = await fetchManual(r.body.action, form(r.body.fields));
    expect(first.status).toBe(200);
    const again = await fetchManual(r.body.action, form(r.body.fields)); // the browser's reload re-posts the form
    expect(again.status).toBe(200);
    const html = await again.text();
    expect(html).not.toContain('Duplicate');
    expect(formAction(html)).toBe(formAction(await first.text()));
    const pass = await followBack(await fetchManual(formAction(html), form({ result: 'pass' })));
    expect(pass.status).toBe(303);
    await until(async () => (await orderRow(t, o.id)).status === 'approved', 'approved');
    const sent = cardResults().length;
    // Reloads after the answer: back to the shop (the same place), nothing sent again.
    const reload3ds = await followBack(await fetchManual(formAction(html), form({ result: 'pass' })));
    expect(reload3ds.headers.get('location')).toBe(pass.headers.get('location'));
    const reloadForm = await followBack(await fetchManual(r.body.action, form(r.body.fields)));
    expect(reloadForm.headers.get('location')).toBe(pass.headers.get('location'));
    expect(cardResults().length).toBe(sent);
    // A different request (another card) reusing the code: 2C2P refuses it; the page says how to go on.
    const code = (await paymentsOf(t, o.id))[0]!.provider_ref;
    const secret = t.ctx.providers.config.twoc2p.secretKey;
    const other = sealEnvelope('PaymentRequest', '9.9', `<PaymentRequest><merchantID>JT01</merchantID><uniqueTransactionCode>${code}</uniqueTransactionCode><desc>x</desc><amt>000000002500</amt><currencyCode>764</currencyCode><panCountry>TH</panCountry><cardholderName>x</cardholderName><encCardData>${(await encrypt('5555555555554444')).encryptedCardInfo}</encCardData></PaymentRequest>`, secret);
    const dup = await fetchManual(r.body.action, { ...form({ paymentRequest: other }), headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'th-TH,th;q=0.9' } });
    expect(dup.status).toBe(400);
    const dupHtml = await dup.text();
    expect(dupHtml).toContain('กลับไปที่คำสั่งซื้อของฉัน');
    expect(dupHtml).toMatch(/href="[^"]*\/myaccount\/student\/order"/u);
  });

  it('a declined card (4111 1111 1114 0011) fails with the bank\'s code; a failed 3-D Secure fails as AR; the order stays unpaid', async () => {
    const o = await makeOrder(t, { userId: 2, total: 2500, methodId: 3 });
    const r = await request(o.id, '4111111111140011');
    const res = await followBack(await fetchManual(r.body.action, form(r.body.fields)));
    expect(res.headers.get('location')).toBe('/myaccount/student/order');
    await until(async () => (await paymentsOf(t, o.id))[0]!.status === 'failed', 'declined');
    expect((await paymentsOf(t, o.id))[0]!.failure_code).toBe('4051');
    const r2 = await request(o.id, '4111111111111111');
    const html = await (await fetchManual(r2.body.action, form(r2.body.fields))).text();
    await fetchManual(formAction(html), form({ result: 'fail' }));
    await until(async () => (await paymentsOf(t, o.id))[1]!.status === 'failed', '3ds failed');
    expect((await paymentsOf(t, o.id))[1]!.failure_code).toBe('AR');
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
  });

  it('pending: while 3-D Secure is open the inquiry says pending and a genuine-looking notification changes nothing', async () => {
    const o = await makeOrder(t, { userId: 2, total: 2500, methodId: 3 });
    const r = await request(o.id, '4111111111111111');
    expect((await fetchManual(r.body.action, form(r.body.fields))).status).toBe(200);
    const p = (await paymentsOf(t, o.id))[0]!;
    expect(await provider().getPaymentStatus({ ref: p.provider_ref, amount: 2500, currency: 'THB', details: { kind: 'card-form' } })).toEqual({ kind: 'pending' });
    const inner = `<PaymentResponse><version>9.9</version><merchantID>JT01</merchantID><respCode>00</respCode><amt>000000002500</amt><uniqueTransactionCode>${p.provider_ref}</uniqueTransactionCode><status>A</status></PaymentResponse>`;
    const paymentResponse = sealEnvelope('PaymentResponse', '9.9', inner, t.ctx.providers.config.twoc2p.secretKey);
    const n = await t.app.inject({ method: 'POST', url: '/api/payment/2c2p/backend-return', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ paymentResponse }).toString() });
    expect(n.statusCode).toBe(200);
    expect((await paymentsOf(t, o.id))[0]!.status).toBe('pending');
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
  });

  it('a forged notification (wrong signature) is refused', async () => {
    const inner = '<PaymentResponse><version>9.9</version><merchantID>JT01</merchantID><respCode>00</respCode><status>A</status><amt>000000002500</amt><uniqueTransactionCode>C1</uniqueTransactionCode></PaymentResponse>';
    const payload = Buffer.from(inner).toString('base64');
    const env = Buffer.from(`<PaymentResponse><version>9.9</version><payload>${payload}</payload><signature>${'A'.repeat(64)}</signature></PaymentResponse>`).toString('base64');
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/2c2p/backend-return', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ paymentResponse: env }).toString() });
    expect(r.statusCode).toBe(401);
  });

  it('refund through the Payment Action API: an unsettled payment is voided, a settled one refunded; asking again refunds nothing more', async () => {
    const pay = async () => {
      const o = await makeOrder(t, { userId: 2, total: 2500, methodId: 3 });
      const r = await request(o.id, '4111111111111111');
      await fetchManual(formAction(await (await fetchManual(r.body.action, form(r.body.fields))).text()), form({ result: 'pass' }));
      await until(async () => (await orderRow(t, o.id)).status === 'approved', 'approved');
      return (await paymentsOf(t, o.id))[0]!;
    };
    const txn = async (ref: string) => (await (await fetch(`${t.origin}/sandbox/2c2p/control/txn/${ref}`)).json()) as { status: string; refunded: number };
    const a = await pay();
    const attempt = (ref: string) => ({ ref, amount: 2500, currency: 'THB' as const, txnId: null, details: { kind: 'card-form' } });
    expect(await provider().refundPayment(attempt(a.provider_ref), 2500, 'k1')).toMatchObject({ kind: 'refunded', amount: 2500 });
    expect((await txn(a.provider_ref)).status).toBe('V');
    expect(await provider().refundPayment(attempt(a.provider_ref), 2500, 'k1')).toMatchObject({ kind: 'refunded' });
    const s = await pay();
    expect((await fetch(`${t.origin}/sandbox/2c2p/control/settle/${s.provider_ref}`, { method: 'POST' })).status).toBe(200);
    const done = await provider().refundPayment(attempt(s.provider_ref), 2500, 'k2');
    expect(done).toMatchObject({ kind: 'refunded', amount: 2500, pending: false });
    expect(await txn(s.provider_ref)).toMatchObject({ status: 'RF', refunded: 2500 });
    expect(await provider().refundPayment(attempt(s.provider_ref), 2500, 'k2')).toMatchObject({ kind: 'refunded' });
    expect((await txn(s.provider_ref)).refunded).toBe(2500);
  });
});

describe('2C2P payment link (method 10, installments, PGW 4.3)', () => {
  const link = (orderId: number) => api(t, 'create2c2pPaymentLink', { cookie: sid, body: { orderId, amount: 1 } });
  const linkResults = () => deliveries(t, '2c2p').filter((d) => d.body.startsWith('{"payload"'));

  it('installment page for OUR total; paid; the JWT notification verified, re-read by inquiry, applied once when replayed', async () => {
    const o = await makeOrder(t, { userId: 2, total: 1200000, methodId: 10 });
    const r = await link(o.id);
    expect(r.status).toBe(200);
    const url = r.body.result.webPaymentUrl as string;
    expect(url).toContain('/payment/4.3/');
    const p = (await paymentsOf(t, o.id))[0]!;
    // pending before the buyer pays
    expect(await provider().getPaymentStatus({ ref: p.provider_ref, amount: 1200000, currency: 'THB', details: { kind: 'payment-link' } })).toEqual({ kind: 'pending' });
    const html = await (await fetch(url)).text();
    expect(html).toContain('installment');
    expect(html).toContain('12000');
    const back = await followBack(await fetchManual(formAction(html), form({ cardnumber: '4111111111111111', month: '12', year: '2030', cvv: '123', period: '6', action: 'pay' })));
    expect(back.status).toBe(303);
    await until(async () => (await orderRow(t, o.id)).status === 'approved', 'approved');
    await replay(t, linkResults().slice(-1), 3);
    expect(t.changes.get(o.id)).toHaveLength(1);
    expect((await paymentsOf(t, o.id))[0]).toMatchObject({ provider: '2c2p', status: 'successful', paid_amount: 1200000 });
    // The page opened again after the payment leads back to the shop, to the same place.
    const again = await followBack(await fetchManual(url));
    expect(again.headers.get('location')).toBe(back.headers.get('location'));
  });

  it('the frontend return ends where the other methods end: the thank-you page when it is on, the order list when off; nothing of 2C2P stays in the address', async () => {
    const setThankYou = (on: boolean) => t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{is_thank_you_page}', $1::jsonb) WHERE id = 1`, [JSON.stringify(on)]);
    const payLink = async () => {
      const o = await makeOrder(t, { userId: 2, total: 1200000, methodId: 10 });
      const html = await (await fetch((await link(o.id)).body.result.webPaymentUrl)).text();
      const back = await followBack(await fetchManual(formAction(html), form({ cardnumber: '4111111111111111', month: '12', year: '2030', cvv: '123', period: '3', action: 'pay' })));
      expect(back.status).toBe(303);
      return { o, location: back.headers.get('location') };
    };
    try {
      await setThankYou(true);
      const on = await payLink();
      const token = (await t.db.query<{ order_token: string }>('SELECT order_token FROM orders WHERE id = $1', [on.o.id])).rows[0]!.order_token;
      expect(on.location).toBe(`/thankyou?orderId=${encodeURIComponent(token)}`);
      await setThankYou(false);
      expect((await payLink()).location).toBe('/myaccount/student/order');
    } finally {
      await setThankYou(true);
    }
    // Unknown or unreadable posts go to the order list, never an error page.
    const unknown = await api(t, 'handle2c2pFrontendReturn', { raw: 'paymentResponse=bm90LWpzb24', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(unknown.status).toBe(303);
    expect(unknown.headers.location).toBe('/myaccount/student/order');
  });

  it('cancel, decline, a bad signature', async () => {
    const o = await makeOrder(t, { userId: 2, total: 1200000, methodId: 10 });
    const html = await (await fetch((await link(o.id)).body.result.webPaymentUrl)).text();
    await fetchManual(formAction(html), form({ action: 'cancel', cardnumber: '' }));
    await until(async () => (await paymentsOf(t, o.id))[0]!.status === 'cancelled', 'cancelled');
    const html2 = await (await fetch((await link(o.id)).body.result.webPaymentUrl)).text();
    await fetchManual(formAction(html2), form({ cardnumber: '4111111111140011', month: '12', year: '2030', cvv: '123', action: 'pay' }));
    await until(async () => (await paymentsOf(t, o.id))[1]!.status === 'failed', 'declined');
    expect((await paymentsOf(t, o.id))[1]!.failure_code).toBe('4051');
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    const forged = signHs256({ merchantID: 'JT01', invoiceNo: (await paymentsOf(t, o.id))[1]!.provider_ref, respCode: '0000', amount: 12000, currencyCode: 'THB' }, 'not-the-secret');
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/2c2p/backend-return', payload: { payload: forged } });
    expect(r.statusCode).toBe(401);
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
  });

  it('a correctly signed "paid" notification the inquiry does not confirm changes nothing', async () => {
    const o = await makeOrder(t, { userId: 2, total: 1200000, methodId: 10 });
    await link(o.id);
    const ref = (await paymentsOf(t, o.id))[0]!.provider_ref;
    const claimed = signHs256({ merchantID: 'JT01', invoiceNo: ref, respCode: '0000', amount: '12000.00', currencyCode: 'THB' }, t.ctx.providers.config.twoc2p.secretKey);
    const r = await t.app.inject({ method: 'POST', url: '/api/payment/2c2p/backend-return', payload: { payload: claimed } });
    expect(r.statusCode).toBe(200);
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    expect((await paymentsOf(t, o.id))[0]!.status).toBe('pending');
  });
});
