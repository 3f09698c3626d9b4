// GB Prime Pay card (the shop's card page, token API, 3-D Secure, responseUrl and background
// re-read) and PaySolutions (hosted form, postback re-checked by the Inquiry API), through the
// loopback sandboxes: paid, declined, 3-D Secure failed, cancelled, replayed notifications applied
// once, forged notifications refused. The QR (method 12) is in qr.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGbPrimeClient } from '../../../server/providers/gbprime';
import { api, deliveries, fetchManual, form, formAction, hiddenFields, login, makeOrder, orderRow, paymentsOf, payApp, replay, reportsOf, until, type PayApp } from './helpers';

let t: PayApp;
let sid: string;

beforeAll(async () => {
  t = await payApp();
  sid = await login(t.app, 'student');
}, 240_000);
afterAll(async () => t?.close());

describe('GB Prime Pay card (method 11)', () => {
  const start = (orderId: number) => api(t, 'createGbPrimeCardPayment', { cookie: sid, body: { orderId, email: 'student@example.com', name: 'Somchai', total_amount: 1 } });
  const at = (u: string) => new URL(new URL(u, t.origin).pathname + new URL(u, t.origin).search, t.origin).toString();

  /** The shop's card page, then GB Prime Pay's 3-D Secure page (sandbox), then the browser's return to the shop. */
  async function payByCard(invoiceUrl: string, number: string, result: 'pass' | 'fail') {
    const cardPage = await fetchManual(at(invoiceUrl));
    expect(cardPage.status).toBe(200);
    const html = await cardPage.text();
    const auto = await fetchManual(at(formAction(html)), form({ number, expirationMonth: '12', expirationYear: '30', securityCode: '123', name: 'Somchai' }));
    if (auto.status === 303) return auto;
    const autoHtml = await auto.text();
    expect(formAction(autoHtml)).toContain('/sandbox/gbprime/v1/tokens/3d_secured');
    // Auto-posted by a same-origin script (the page policy allows no inline script).
    expect(autoHtml).toContain('<script src="/api/gbprime/card.js"></script>');
    const script = await fetchManual(`${t.origin}/api/gbprime/card.js`);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect(await script.text()).toContain("getElementById('f').submit()");
    const threeDs = await (await fetchManual(formAction(autoHtml), form(hiddenFields(autoHtml)))).text();
    expect(threeDs).toContain('3-D Secure');
    const back = await (await fetchManual(formAction(threeDs), form({ result }))).text();
    // GB Prime Pay posts the browser back to responseUrl (resultCode, referenceNo, gbpReferenceNo, amount).
    expect(Object.keys(hiddenFields(back)).sort()).toEqual(['amount', 'gbpReferenceNo', 'referenceNo', 'resultCode']);
    return fetchManual(at(formAction(back)), form(hiddenFields(back)));
  }

  it('card page for OUR amount; token + charge + 3-D Secure pass; the return and the background are re-checked, applied once', async () => {
    const o = await makeOrder(t, { userId: 2, total: 45000, methodId: 11 });
    const r = await start(o.id);
    expect(r.status).toBe(200);
    expect(r.body.data.invoice_url).toMatch(/\/api\/gbprime\/card\/G[A-Z0-9]+\?k=[0-9a-f]{32}$/u);
    const wrongKey = at(r.body.data.invoice_url).replace(/k=[0-9a-f]{32}/u, `k=${'0'.repeat(32)}`);
    expect((await fetchManual(wrongKey)).status).toBe(404);
    const page = await (await fetchManual(at(r.body.data.invoice_url))).text();
    expect(page).toContain('450.00');
    const back = await payByCard(r.body.data.invoice_url, '4535017710535741', 'pass');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toContain(`/thankyou?orderId=${encodeURIComponent(o.token)}`);
    expect((await orderRow(t, o.id)).status).toBe('approved');
    const ref = (await paymentsOf(t, o.id))[0]!.provider_ref;
    const bg = deliveries(t, 'gbprime').filter((d) => d.body.includes(`referenceNo=${ref}&`));
    expect(bg).toHaveLength(1);
    expect(bg[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    await replay(t, bg, 3);
    expect(t.changes.get(o.id)).toHaveLength(1);
    // The page is spent: a second card post for the paid attempt charges nothing and goes to the success path.
    const again = await fetchManual(at(formAction(page)), form({ number: '4535017710535741', expirationMonth: '12', expirationYear: '30', securityCode: '123', name: 'S' }));
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toContain('/thankyou?orderId=');
    expect((await fetchManual(at(r.body.data.invoice_url))).status).toBe(404);
    expect(deliveries(t, 'gbprime').filter((d) => d.body.includes(`referenceNo=${ref}&`))).toHaveLength(1);
  });

  it('3-D Secure failed is recorded as such (V), a bank decline keeps its code, refused card data fails at once; the order stays unpaid', async () => {
    const o = await makeOrder(t, { userId: 2, total: 45000, methodId: 11, email: 'student@example.com' });
    const failed = await payByCard((await start(o.id)).body.data.invoice_url, '4535017710535741', 'fail');
    expect(failed.headers.get('location')).toContain('/myaccount/student/order');
    expect((await paymentsOf(t, o.id))[0]).toMatchObject({ status: 'failed', failure_code: 'V' });
    const mine = await api(t, 'getOrder', { cookie: sid, params: { orderId: o.id } });
    expect(mine.body.data.outcome).toMatchObject({ state: 'failed', reason: 'authenticationFailed' });
    await payByCard((await start(o.id)).body.data.invoice_url, '4111111111140011', 'pass');
    await until(async () => (await paymentsOf(t, o.id))[1]!.status === 'failed', 'declined');
    const bad = await payByCard((await start(o.id)).body.data.invoice_url, '4535017710535742', 'pass');
    expect(bad.status).toBe(303);
    expect((await paymentsOf(t, o.id))[2]).toMatchObject({ status: 'failed', failure_code: '54' });
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    const usd = await makeOrder(t, { userId: 2, total: 45000, methodId: 11, currency: 'USD' });
    expect((await start(usd.id)).status).toBe(409);
  });

  it('a forged background or return ("00" for an attempt GB Prime Pay did not pay) is re-checked and changes nothing', async () => {
    const o = await makeOrder(t, { userId: 2, total: 45000, methodId: 11 });
    await start(o.id);
    const ref = (await paymentsOf(t, o.id))[0]!.provider_ref;
    const bg = await t.app.inject({ method: 'POST', url: '/api/gbprime/background', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `resultCode=00&referenceNo=${ref}&amount=450.00&gbpReferenceNo=gbpFAKE` });
    expect(bg.statusCode).toBe(200);
    const ret = await t.app.inject({ method: 'POST', url: '/api/gbprime/response', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `resultCode=00&referenceNo=${ref}&amount=450.00&gbpReferenceNo=gbpFAKE` });
    expect(ret.statusCode).toBe(303);
    expect(ret.headers.location).toBe('/myaccount/student/order');
    expect((await paymentsOf(t, o.id))[0]!.status).toBe('pending');
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
  });

  it('token API as GB Prime Pay publishes it: public-key token, secret-key charge (otp Y), 3-D Secure form post, status re-read', async () => {
    const base = `${t.origin}/sandbox/gbprime`;
    const cfg = t.app.ctx.payments.config.gbprime;
    const gb = createGbPrimeClient({ baseUrl: base, keys: cfg });
    const token = await gb.createToken({ number: '4535017710535741', expirationMonth: '12', expirationYear: '30', securityCode: '123', name: 'Somchai' });
    const charged = await gb.chargeToken({ amount: 45000, referenceNo: 'TOKENTEST1', cardToken: token, detail: 'x', customerName: 'S', customerEmail: 's@example.com', responseUrl: `${t.origin}/done`, backgroundUrl: `${t.origin}/api/gbprime/background` });
    const f = gb.threeDSecureForm(charged.gbpReferenceNo);
    expect(f).toMatchObject({ action: `${base}/v1/tokens/3d_secured`, fields: { publicKey: cfg.publicKey, gbpReferenceNo: charged.gbpReferenceNo } });
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

  it('the form carries OUR total and a fresh numeric refno; paid; the postback is re-checked by the Inquiry API and applied once', async () => {
    const o = await makeOrder(t, { userId: 2, total: 32000, methodId: 13 });
    const { r, back } = await hosted(o.id, 'pay');
    expect(r.body.data).toMatchObject({ application_id_1: '10012345', fields: { refno: `${o.id}00`, total: '320.00', cc: '00', lang: 'TH', merchantid: '10012345' } });
    expect(r.body.data.action).toContain('lang=TH');
    expect(back.status).toBe(303);
    await until(async () => (await orderRow(t, o.id)).status === 'approved', 'approved');
    const mine = deliveries(t, 'paysolutions').filter((d) => d.body.includes(`refno=${o.id}00&`));
    expect(mine).toHaveLength(1);
    await replay(t, mine, 3);
    expect(t.changes.get(o.id)).toHaveLength(1);
    expect(await reportsOf(t, o.id)).toEqual([expect.objectContaining({ payment: 'PaySolutions', status: 'approved', transfer_amount: 32000 })]);
  });

  it('declined, then cancelled, then paid again with a new refno each time; a forged "paid" postback is ignored', async () => {
    const o = await makeOrder(t, { userId: 2, total: 32000, methodId: 13, email: 'student@example.com' });
    await start(o.id);
    const forged = await t.app.inject({ method: 'POST', url: '/api/pay-solutions/postback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `refno=${o.id}00&merchantid=10012345&total=320.00&status=CP` });
    expect(forged.statusCode).toBe(200);
    expect((await paymentsOf(t, o.id))[0]!.status).toBe('pending');
    await hosted(o.id, 'decline');
    await until(async () => (await paymentsOf(t, o.id))[1]!.status === 'failed', 'declined');
    const read = async () => (await api(t, 'getOrder', { cookie: sid, params: { orderId: o.id } })).body.data.outcome;
    expect(await read()).toMatchObject({ state: 'failed', reason: 'declined' });
    await hosted(o.id, 'cancel');
    await until(async () => (await paymentsOf(t, o.id))[2]!.status === 'cancelled', 'cancelled');
    expect(await read()).toMatchObject({ state: 'failed', reason: 'cancelled' });
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    const { r } = await hosted(o.id, 'pay');
    expect(r.body.data.fields.refno).toBe(`${o.id}03`);
    await until(async () => (await orderRow(t, o.id)).status === 'approved', 'paid after a decline and a cancel');
    const other = await t.app.inject({ method: 'POST', url: '/api/pay-solutions/postback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `refno=${o.id}00&merchantid=999&total=320.00` });
    expect(other.statusCode).toBe(400);
  });
});
