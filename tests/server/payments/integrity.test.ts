// Issue 15 (part A, payment integrity): no way to get an order marked paid without money.
// Each block replays a finding of the issue against the server and expects it refused.
import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_FORM_RESPONSE_FIELDS, signFields, toFlatXml } from '../../../server/providers/twoc2p';
import { api, deliveries, fetchManual, form, formAction, login, makeOrder, orderRow, paymentsOf, payApp, replay, until, type PayApp } from './helpers';

let t: PayApp;
let sid: string;

beforeAll(async () => {
  t = await payApp();
  sid = await login(t.app, 'student');
});
afterAll(async () => t?.close());

describe('finding 1: the 2C2P card result is confirmed with 2C2P before it is applied', () => {
  async function encrypt(number: string) {
    const { spki } = (await (await fetch(`${t.origin}/sandbox/2c2p/control/public-key`)).json()) as { spki: string };
    const key = createPublicKey({ key: Buffer.from(spki, 'base64'), format: 'der', type: 'spki' });
    const enc = publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(JSON.stringify({ number, month: '12', year: '2030', cvv: '123' })));
    return { encryptedCardInfo: enc.toString('base64'), maskedCardInfo: `${number.slice(0, 6)}XXXXXX${number.slice(-4)}`, expMonthCardInfo: '12', expYearCardInfo: '2030' };
  }

  /** A PaymentResponse an attacker makes with the key the server signs with (the demo key when unset). */
  function forged(code: string, amt: string, status = 'A'): string {
    const f: Record<string, string> = {
      version: '9.9', timeStamp: new Date().toISOString(), merchantID: t.app.ctx.providers.config.twoc2p.merchantId, respCode: '00', pan: '411111XXXXXX1111', amt,
      uniqueTransactionCode: code, tranRef: '123456', approvalCode: '654321', refNumber: '11111', eci: '05', dateTime: new Date().toISOString(), status, failReason: '', userDefined1: '',
    };
    f.hashValue = signFields(f, CARD_FORM_RESPONSE_FIELDS, t.app.ctx.providers.config.twoc2p.secretKey);
    return new URLSearchParams({ paymentResponse: Buffer.from(toFlatXml('PaymentResponse', f)).toString('base64') }).toString();
  }
  const post = (payload: string) => t.app.inject({ method: 'POST', url: '/api/payment/2c2p/backend-return', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });

  it('a self-made, correctly signed "approved" result for a form never paid at the gateway changes nothing', async () => {
    const o = await makeOrder(t, { userId: 2, total: 2500, methodId: 3 });
    const r = await api(t, 'create2c2pCardRequest', { cookie: sid, body: { orderId: o.id, ...(await encrypt('4111111111111111')) } });
    expect(r.status).toBe(200);
    const code = r.body.fields.uniqueTransactionCode as string;
    const res = await post(forged(code, '000000002500'));
    expect(res.statusCode).toBe(200);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'notYetReceived' });
    expect((await paymentsOf(t, o.id))[0]).toMatchObject({ status: 'pending', paid_amount: null });
  });

  it('a forged "approved" while 3-D Secure is still open changes nothing; a forged approval after a real decline neither', async () => {
    const o = await makeOrder(t, { userId: 2, total: 2500, methodId: 3 });
    const r = await api(t, 'create2c2pCardRequest', { cookie: sid, body: { orderId: o.id, ...(await encrypt('4111111111111111')) } });
    const page = await fetchManual(r.body.action, form(r.body.fields));
    expect(page.status).toBe(200); // the 3-D Secure page: the payer has not passed it
    await post(forged(r.body.fields.uniqueTransactionCode as string, '000000002500'));
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    // 3-D Secure fails for real, then the attacker replays / forges an approval.
    await fetchManual(formAction(await page.text()), form({ result: 'fail' }));
    await until(async () => (await paymentsOf(t, o.id))[0]!.status === 'failed', 'failed');
    await post(forged(r.body.fields.uniqueTransactionCode as string, '000000002500'));
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    expect((await paymentsOf(t, o.id))[0]!.status).toBe('failed');
  });

  it('a real approval is applied once from the inquiry, even when the notification is replayed', async () => {
    const o = await makeOrder(t, { userId: 2, total: 2500, methodId: 3 });
    const r = await api(t, 'create2c2pCardRequest', { cookie: sid, body: { orderId: o.id, ...(await encrypt('4111111111111111')) } });
    const page = await fetchManual(r.body.action, form(r.body.fields));
    await fetchManual(formAction(await page.text()), form({ result: 'pass' }));
    await until(async () => (await orderRow(t, o.id)).status === 'approved', 'approved');
    const mine = deliveries(t, '2c2p').filter((d) => d.body.startsWith('paymentResponse='));
    await replay(t, mine.slice(-1), 3);
    expect(t.changes.get(o.id)).toHaveLength(1);
    expect((await paymentsOf(t, o.id))[0]).toMatchObject({ status: 'successful', paid_amount: 2500 });
  });
});
