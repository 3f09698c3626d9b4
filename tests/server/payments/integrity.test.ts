// Payment integrity: no way to get an order marked paid without money.
// Each block replays a finding of the issue against the server and expects it refused.
import { describe, expect, it } from 'vitest';
import { sealEnvelope, toFlatXml } from '../../../server/providers/twoc2p';
import { api, appForFile, deliveries, encrypt2c2pCard, fetchManual, form, formAction, makeOrder, omiseTokenize, orderRow, payApp, paymentsOf, replay, until, type PayApp } from './helpers';

let t: PayApp;
let sid: string;

appForFile(payApp, ['student'], async (app, [c]) => {
  t = app;
  sid = c;
  await t.db.query(`INSERT INTO uploads (user_id, file_name, original_name, mime, size) VALUES (3, 'someone-elses-slip.png', 'slip.png', 'image/png', 100), (2, 'my-slip.png', 'slip.png', 'image/png', 100)`);
});

describe('the 2C2P card result is confirmed with 2C2P before it is applied', () => {
  const encrypt = (number: string) => encrypt2c2pCard(t, number);

  /** A PaymentResponse an attacker makes with the key the server signs with (the demo key when unset). */
  function forged(code: string, amt: string, status = 'A'): string {
    const f: Record<string, string> = {
      version: '9.9', timeStamp: '251125120000', merchantID: t.ctx.providers.config.twoc2p.merchantId, respCode: '00', pan: '411111XXXXXX1111', amt,
      uniqueTransactionCode: code, tranRef: '123456', approvalCode: '654321', refNumber: '11111', eci: '05', dateTime: '20251125120000', status, failReason: '', userDefined1: '',
    };
    const paymentResponse = sealEnvelope('PaymentResponse', '9.9', toFlatXml('PaymentResponse', f), t.ctx.providers.config.twoc2p.secretKey);
    return new URLSearchParams({ paymentResponse }).toString();
  }
  const post = (payload: string) => t.app.inject({ method: 'POST', url: '/api/payment/2c2p/backend-return', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });

  it('a self-made, correctly signed "approved" result for a form never paid at the gateway changes nothing', async () => {
    const o = await makeOrder(t, { userId: 2, total: 2500, methodId: 3 });
    const r = await api(t, 'create2c2pCardRequest', { cookie: sid, body: { orderId: o.id, ...(await encrypt('4111111111111111')) } });
    expect(r.status).toBe(200);
    const code = (await paymentsOf(t, o.id))[0]!.provider_ref;
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
    const code = (await paymentsOf(t, o.id))[0]!.provider_ref;
    await post(forged(code, '000000002500'));
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    // 3-D Secure fails for real, then the attacker replays / forges an approval.
    await fetchManual(formAction(await page.text()), form({ result: 'fail' }));
    await until(async () => (await paymentsOf(t, o.id))[0]!.status === 'failed', 'failed');
    await post(forged(code, '000000002500'));
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

const notice = (orderId: number, extra: Record<string, unknown> = {}, cookie: string | null = sid) =>
  api(t, 'createPaymentReportPrivate', {
    cookie,
    body: {
      order_id: orderId, contact_name: 'สมชาย ใจดี', email: 'student@example.com', payment_method_id: 1, bank_code: 'KBANK', bank_account: '123-4-56789-0',
      transfer_datetime: '2026-03-02', time: '09:15:00', transfer_amount: 150000, slip: 'my-slip.png', status: 'pending', ...extra,
    },
  });
const reportRows = async (orderId: number) =>
  (await t.db.query<{ id: number; payment: string; status: string; slip: string | null }>('SELECT id, payment, status, slip FROM payment_reports WHERE order_id = $1 ORDER BY id', [orderId])).rows;

describe('payment reports are accepted only where the spec uses them, from the owner', () => {
  const publicReport = (orderId: number, cookie: string | null, payment: 'Paypal' | 'AutoFree', amount = 1) =>
    api(t, 'createPaymentReportPublic', { cookie, body: { order_id: orderId, contact_name: 'x', email: 'student@example.com', transfer_datetime: '2026-03-02', time: '10:00', transfer_amount: amount, payment, description: 'paid' } });

  it('an anonymous "Paypal" report with the buyer\'s e-mail is refused; the owner\'s before any capture too; nothing waits in the back office', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 2, email: 'student@example.com' });
    expect((await publicReport(o.id, null, 'Paypal')).status).toBe(403);
    expect((await publicReport(o.id, sid, 'Paypal')).status).toBe(409);
    expect(await reportRows(o.id)).toEqual([]);
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
  });

  it('a private report never claims a card method it did not come from', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 8 });
    const r = await notice(o.id, { payment_method_id: 8 });
    expect(r.status).toBe(409);
    expect(await reportRows(o.id)).toEqual([]);
  });

  it('rejecting a report rejects that report; the order waits for payment again', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000 });
    const r = await notice(o.id);
    expect(r.status).toBe(201);
    const res = await fetch(`${t.origin}/admin/api/reports/${r.body.orderPaymentId}/reject`, { method: 'POST', headers: { authorization: 'Bearer admin-dev-token', 'content-type': 'application/json' }, body: JSON.stringify({ reason: 'forged' }) });
    expect(res.status).toBe(200);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'notYetReceived' });
    expect((await reportRows(o.id))[0]).toMatchObject({ status: 'rejected' });
  });
});

describe('hoarding and the payment-notice e-mail', () => {
  it('a slip must be the reporter\'s own upload (the demo shop requires a slip)', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000 });
    const foreign = await notice(o.id, { slip: 'someone-elses-slip.png' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.result[0].field).toBe('slip');
    expect(await reportRows(o.id)).toEqual([]);
    expect((await notice(o.id, { slip: 'my-slip.png' })).status).toBe(201);
    expect((await reportRows(o.id))[0]!.slip).toBe('my-slip.png');
  });

  it('an unpaid order with a pending report still expires after the bounded hold (PENDING_REPORT_HOLD_HOURS, 72 h) unless an admin acts', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000 }); // cancel_at = now + 24 h
    expect((await notice(o.id, { transfer_amount: 150000 })).status).toBe(201);
    expect((await orderRow(t, o.id)).status).toBe('pendingApproved');
    const now = t.clock.now().getTime();
    await t.app.ctx.orders.cancelExpiredOrders(new Date(now + 25 * 3600_000));
    expect((await orderRow(t, o.id)).status).toBe('pendingApproved'); // within the hold
    await t.app.ctx.orders.cancelExpiredOrders(new Date(now + 73 * 3600_000));
    expect((await orderRow(t, o.id)).status).toBe('cancelled');
    // The report still waits in the back office: an admin may approve it (seats are taken back if free).
    expect((await reportRows(o.id))[0]).toMatchObject({ status: 'pending' });
  });

  it('the payment-notice e-mail: not anonymous, only for the owner\'s own notice, written from the stored notice with no links', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000 });
    const body = { fullname: 'Visit https://evil.example/login', orderId: o.id, email: 'student@example.com', description: 'see www.evil.example', amount: 1, date: '2026-03-02', time: '09:15' };
    expect((await api(t, 'sendPaymentOrderEmail', { cookie: null, body })).status).toBe(401);
    expect((await api(t, 'sendPaymentOrderEmail', { cookie: sid, body })).status).toBe(404); // no notice of the owner's yet
    expect((await notice(o.id, { contact_name: 'สมชาย evil.example/pay' })).status).toBe(201);
    const before = t.app.ctx.mail.list().length;
    expect((await api(t, 'sendPaymentOrderEmail', { cookie: sid, body })).status).toBe(202);
    const sent = t.app.ctx.mail.list().slice(before).find((m) => m.tag === 'paymentorder')!;
    expect(sent.to).toBe('student@example.com');
    expect(sent.text).not.toMatch(/evil|https?:/u);
    expect(sent.text).toContain('1,500.00'); // the stored notice's amount, not the request's
  });
});

describe('an attempt the provider no longer has (404 after a restart) is replaced, not answered 422', () => {
  /** A pending attempt stored before a restart whose provider record is gone. */
  async function goneAttempt(orderId: number, provider: 'omise' | 'paypal', methodId: number, ref: string, amount: number) {
    await t.db.query(
      `INSERT INTO payments (order_id, provider, method_id, provider_ref, amount, currency, status, details, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, 'THB', 'pending', '{}', $6, $6)`,
      [orderId, provider, methodId, ref, amount, t.clock.now()],
    );
  }
  const omiseToken = async (number: string) => (await omiseTokenize(t, number)).body.id;

  it('Omise card: a new charge replaces the lost one and pays the order', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 8 });
    await goneAttempt(o.id, 'omise', 8, 'chrg_test_lost_before_restart', 150000);
    const r = await api(t, 'chargeOmiseCard', { cookie: sid, body: { orderId: o.id, omise_token: await omiseToken('4242424242424242'), email: 'student@example.com', name: 'Somchai', total_amount: 1 } });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('successful');
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'approved' });
    expect((await paymentsOf(t, o.id)).map((p) => [p.provider_ref === 'chrg_test_lost_before_restart', p.status, p.failure_code])).toEqual([
      [true, 'failed', 'not_found'],
      [false, 'successful', null],
    ]);
  });

  it('Omise PromptPay: a new QR replaces the lost one', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 9 });
    await goneAttempt(o.id, 'omise', 9, 'chrg_test_lost_qr', 150000);
    const r = await api(t, 'createOmisePromptPay', { cookie: sid, body: { orderId: o.id, email: 'student@example.com', name: 'Somchai' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.charge_id).not.toBe('chrg_test_lost_qr');
    expect((await paymentsOf(t, o.id))[0]).toMatchObject({ status: 'failed', failure_code: 'not_found' });
  });

  it('PayPal: a new PayPal order replaces one PayPal no longer knows', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 2 });
    await goneAttempt(o.id, 'paypal', 2, 'PAYPALLOST0000001', 150000);
    const r = await api(t, 'createPaypalOrder', { cookie: sid, body: { orderId: o.id } });
    expect(r.status).toBe(201);
    expect(r.body.paypal_order_id).not.toBe('PAYPALLOST0000001');
    expect((await paymentsOf(t, o.id))[0]).toMatchObject({ status: 'failed', failure_code: 'not_found' });
  });
});
