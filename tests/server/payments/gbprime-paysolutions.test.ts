// GB Prime Pay card (the shop's card page, the browser's token call to GB Prime Pay, charge,
// 3-D Secure, responseUrl and background re-read; card data never reaches our server) and PaySolutions (hosted form, postback re-checked by the Inquiry API), through the
// loopback sandboxes: paid, declined, 3-D Secure failed, cancelled, replayed notifications applied
// once, forged notifications refused. The QR (method 12) is in qr.test.ts.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGbPrimeClient } from '../../../server/providers/gbprime';
import { appForFile, testApp, type TestApp } from '../support/app';
import { api, deliveries, fetchManual, form, formAction, hiddenFields, login, makeOrder, orderRow, payApp, paymentsOf, replay, reportsOf, until, type PayApp } from './helpers';

let t: PayApp;
let sid: string;

appForFile(payApp, ['student'], (app, [c]) => { t = app; sid = c; });

describe('GB Prime Pay card (method 11)', () => {
  const start = (orderId: number) => api(t, 'createGbPrimeCardPayment', { cookie: sid, body: { orderId, email: 'student@example.com', name: 'Somchai', total_amount: 1 } });
  const at = (u: string) => new URL(new URL(u, t.origin).pathname + new URL(u, t.origin).search, t.origin).toString();

  const attr = (html: string, name: string) => (new RegExp(`${name}="([^"]*)"`, 'u').exec(html)?.[1] ?? '').replace(/&amp;/gu, '&');
  const basic = (user: string) => `Basic ${Buffer.from(`${user}:`).toString('base64')}`;

  /**
   * What the card page's script does in the browser: POST the card to GB Prime Pay's /v1/tokens
   * (the page's data-tokens, public key data-key, the plugin's body), then post ONLY the token (or
   * GB Prime Pay's refusal code) to our form's action.
   */
  async function tokeniseAndSubmit(cardHtml: string, number: string) {
    const res = await fetchManual(attr(cardHtml, 'data-tokens'), {
      method: 'POST',
      headers: { authorization: basic(attr(cardHtml, 'data-key')), 'content-type': 'application/json', origin: t.origin },
      body: JSON.stringify({ rememberCard: false, card: { number, expirationMonth: '12', expirationYear: '30', securityCode: '123', name: 'Somchai' } }),
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const b = (await res.json()) as { resultCode: string; card?: { token: string } };
    return fetchManual(at(formAction(cardHtml)), form(b.resultCode === '00' ? { token: b.card!.token } : { resultCode: b.resultCode }));
  }

  /** The shop's card page, the browser's token call, then GB Prime Pay's 3-D Secure page (sandbox), then the browser's return to the shop. */
  async function payByCard(invoiceUrl: string, number: string, result: 'pass' | 'fail') {
    const cardPage = await fetchManual(at(invoiceUrl));
    expect(cardPage.status).toBe(200);
    const html = await cardPage.text();
    const auto = await tokeniseAndSubmit(html, number);
    if (auto.status === 303) return auto;
    const autoHtml = await auto.text();
    expect(formAction(autoHtml)).toContain('/sandbox/gbprime/v1/tokens/3d_secured');
    // Auto-posted by a same-origin script (the page policy allows no inline script).
    expect(autoHtml).toContain('<script src="/api/gbprime/card.js"></script>');
    const script = await fetchManual(`${t.origin}/api/gbprime/card.js`);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect(await script.text()).toContain("if (f) { f.submit(); return; }");
    const threeDs = await (await fetchManual(formAction(autoHtml), form(hiddenFields(autoHtml)))).text();
    expect(threeDs).toContain('3-D Secure');
    const back = await (await fetchManual(formAction(threeDs), form({ result }))).text();
    // GB Prime Pay posts the browser back to responseUrl (resultCode, referenceNo, gbpReferenceNo, amount).
    expect(Object.keys(hiddenFields(back)).sort()).toEqual(['amount', 'gbpReferenceNo', 'referenceNo', 'resultCode']);
    return fetchManual(at(formAction(back)), form(hiddenFields(back)));
  }

  it('the card page sends the card from the browser to GB Prime Pay (public key, CORS) and never to us', async () => {
    const o = await makeOrder(t, { userId: 2, total: 45000, methodId: 11 });
    const r = await start(o.id);
    const res = await fetchManual(at(r.body.data.invoice_url));
    const page = await res.text();
    const cfg = t.ctx.payments.config.gbprime;
    expect(attr(page, 'data-tokens')).toBe(`${t.origin}/sandbox/gbprime/v1/tokens`);
    expect(attr(page, 'data-key')).toBe(cfg.publicKey);
    expect(page).not.toContain(cfg.secretKey);
    // The card inputs carry no name: a form post can never hold them; the only form posts to us.
    const inputs = [...page.matchAll(/<input[^>]*>/gu)].map((m) => m[0]);
    expect(inputs.length).toBe(5);
    for (const i of inputs) expect(i).not.toMatch(/\sname=/u);
    expect(page).toContain('<script src="/api/gbprime/card.js"></script>');
    expect(page).toMatch(/<button type="submit" data-testid="gbp-pay" disabled>/u);
    // The page policy lets the browser reach the token API (our sandbox: the page's own origin).
    const csp = String(res.headers.get('content-security-policy'));
    expect(csp).toMatch(/connect-src 'self'/u);
    // The script calls the token URL with Basic public-key auth and the plugin's body, and posts only token / resultCode.
    const script = await (await fetchManual(`${t.origin}/api/gbprime/card.js`)).text();
    for (const s of ["c.getAttribute('data-tokens')", "'Basic ' + btoa(c.getAttribute('data-key') + ':')", 'rememberCard: false', "post('token'", "post('resultCode'", "credentials: 'omit'"]) expect(script).toContain(s);
    // The sandbox answers the browser's CORS preflight (Authorization + Content-Type).
    const pre = await fetchManual(attr(page, 'data-tokens'), { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(String(pre.headers.get('access-control-allow-headers')).split(/,\s*/u).sort()).toEqual(['authorization', 'content-type']);
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
  });

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
    const again = await tokeniseAndSubmit(page, '4535017710535741');
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toContain('/thankyou?orderId=');
    expect((await fetchManual(at(r.body.data.invoice_url))).status).toBe(404);
    expect(deliveries(t, 'gbprime').filter((d) => d.body.includes(`referenceNo=${ref}&`))).toHaveLength(1);
  });

  it('3-D Secure failed is recorded as such (V), a bank decline keeps its code, card data GB Prime Pay refused fails at once; the order stays unpaid', async () => {
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
    // A token GB Prime Pay does not know is refused by its charge: failed with its code.
    const unknown = await fetchManual(at((await start(o.id)).body.data.invoice_url), form({ token: 'notatoken' }));
    expect(unknown.status).toBe(303);
    expect((await paymentsOf(t, o.id))[3]).toMatchObject({ status: 'failed', failure_code: '02' });
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

  it('token API as GB Prime Pay publishes it: public-key token (the browser\'s call), secret-key charge (otp Y), 3-D Secure form post, status re-read', async () => {
    const base = `${t.origin}/sandbox/gbprime`;
    const cfg = t.ctx.payments.config.gbprime;
    const gb = createGbPrimeClient({ baseUrl: base, keys: cfg });
    expect(gb.tokenEndpoint()).toEqual({ url: `${base}/v1/tokens`, publicKey: cfg.publicKey });
    const tokenCall = (publicKey: string) =>
      fetchManual(gb.tokenEndpoint().url, { method: 'POST', headers: { authorization: basic(publicKey), 'content-type': 'application/json' }, body: JSON.stringify({ rememberCard: false, card: { number: '4535017710535741', expirationMonth: '12', expirationYear: '30', securityCode: '123', name: 'Somchai' } }) });
    const tokenAnswer = (await (await tokenCall(cfg.publicKey)).json()) as { resultCode: string; card: { token: string } };
    expect(tokenAnswer.resultCode).toBe('00');
    const token = tokenAnswer.card.token;
    const charged = await gb.chargeToken({ amount: 45000, referenceNo: 'TOKENTEST1', cardToken: token, detail: 'x', customerName: 'S', customerEmail: 's@example.com', responseUrl: `${t.origin}/done`, backgroundUrl: `${t.origin}/api/gbprime/background` });
    const f = gb.threeDSecureForm(charged.gbpReferenceNo);
    expect(f).toMatchObject({ action: `${base}/v1/tokens/3d_secured`, fields: { publicKey: cfg.publicKey, gbpReferenceNo: charged.gbpReferenceNo } });
    const page = await (await fetchManual(f.action, form(f.fields))).text();
    await fetchManual(formAction(page), form({ result: 'pass' }));
    expect(await gb.checkStatus('TOKENTEST1')).toMatchObject({ status: 'S', amount: 45000 });
    expect((await tokenCall('wrong')).status).toBe(401);
    expect((await tokenCall(cfg.secretKey)).status).toBe(401);
  });
});

describe('GB Prime Pay card: card data never reaches our server', () => {
  const lines: string[] = [];
  let l: TestApp;
  let lsid: string;
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    l = await testApp({ payments: true, logStream: stream, config: { logLevel: 'trace' } });
    lsid = await login(l.app, 'student');
  }, 240_000);
  afterAll(async () => l?.close());

  it('a body with card fields is refused (400) and nothing of it is stored or logged', async () => {
    const o = await makeOrder(l, { userId: 2, total: 45000, methodId: 11 });
    const r = await l.app.inject({ method: 'POST', url: '/api/gbprime', headers: { cookie: lsid, 'content-type': 'application/json' }, payload: { orderId: o.id, email: 'student@example.com', name: 'Somchai', total_amount: 1 } });
    expect(r.statusCode).toBe(200);
    const u = new URL((r.json() as { data: { invoice_url: string } }).data.invoice_url);
    const url = u.pathname + u.search;
    const number = '4535017710535741';
    const cvv = '987';
    const bodies = [
      `number=${number}&expirationMonth=12&expirationYear=30&securityCode=${cvv}&name=Somchai`,
      `token=tok123&number=${number}`,
      `token=tok123&securityCode=${cvv}`,
      `resultCode=54&number=${number}`,
      `token=tok123&expirationMonth=12&expirationYear=30`,
    ];
    for (const payload of bodies) {
      const res = await l.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });
      expect(res.statusCode, payload).toBe(400);
      expect(res.body).not.toContain(number);
    }
    // Nothing happened to the attempt, and no table holds the number.
    const rows = (await l.db.query<{ status: string; details: unknown }>('SELECT status, details FROM payments WHERE order_id = $1', [o.id])).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('pending');
    expect(JSON.stringify(rows[0]!.details)).not.toContain(number);
    const tables = (await l.db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'")).rows;
    expect(tables.length).toBeGreaterThan(5);
    for (const { table_name } of tables) {
      const hit = await l.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table_name}" t WHERE row_to_json(t)::text LIKE $1`, [`%${number}%`]);
      expect(hit.rows[0]!.n, table_name).toBe(0);
    }
    // Logged (trace level): the refused requests, never the card.
    const text = lines.join('');
    expect(text).toContain('/api/gbprime/card/');
    expect(text).not.toContain(number);
    expect(text).not.toContain(`securityCode=${cvv}`);
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

  it("the provider's page opens in the buyer's language: lang EN for an English page, TH otherwise; the sandbox refuses another", async () => {
    const o = await makeOrder(t, { userId: 2, total: 32000, methodId: 13 });
    const en = await api(t, 'createPaySolutionsPayment', { cookie: sid, body: { order_id: o.id }, headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(en.status).toBe(200);
    expect(en.body.data.fields.lang).toBe('EN');
    expect(en.body.data.action).toContain('lang=EN');
    const page = await (await fetchManual(en.body.data.action, form(en.body.data.fields))).text();
    expect(page).toContain('data-lang="EN"');
    const th = await api(t, 'createPaySolutionsPayment', { cookie: sid, body: { order_id: o.id }, headers: { 'accept-language': 'th-TH' } });
    expect(th.body.data.fields.lang).toBe('TH');
    const bogus = await fetchManual(th.body.data.action.replace('lang=TH', 'lang=XX'), form({ ...th.body.data.fields, lang: 'XX' }));
    expect(bogus.status).toBe(400);
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
