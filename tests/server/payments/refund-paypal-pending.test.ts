// Pending is not failed, and refunds happen once.
//  - PayPal: a capture left PENDING answers 200 PENDING, the order stays awaiting payment; PayPal's
//    webhook (verified with verify-webhook-signature) settles it: COMPLETED pays once, DENIED fails
//    the attempt; a forged delivery is refused; with no webhook, the scheduled re-read settles it.
//  - Refunds from the back office's JSON API: a duplicate Omise payment refunded through Omise
//    once (three concurrent requests + a repeat), a manual SCB refund recorded, a bank-transfer
//    notice for a cancelled order recorded, a payment of a live order refused.
import { describe, expect, it } from 'vitest';
import { housekeeping } from '../../../server/housekeeping';
import { api, appForFile, deliveries, fetchManual, form, formAction, makeOrder, omiseTokenize, orderRow, payApp, paymentsOf, replay, until, type PayApp } from './helpers';

let t: PayApp;
let sid: string;

appForFile(payApp, ['student'], (app, [c]) => { t = app; sid = c; }, 300_000);

const admin = (method: 'GET' | 'POST', url: string, payload?: Record<string, string>) =>
  t.app.inject({ method, url, headers: { authorization: 'Bearer admin-dev-token', ...(payload ? { 'content-type': 'application/json' } : {}) }, payload: payload ? JSON.stringify(payload) : undefined });

async function approvePaypal(id: string, outcome: 'ok' | 'pending') {
  const page = await (await fetch(`${t.origin}/sandbox/paypal/checkoutnow?token=${id}`)).text();
  await fetchManual(formAction(page), form({ outcome }));
}

async function pendingPaypalOrder(total: number) {
  const o = await makeOrder(t, { userId: 2, total, methodId: 2, email: 'student@example.com' });
  const id = (await api(t, 'createPaypalOrder', { cookie: sid, body: { orderId: o.id } })).body.paypal_order_id as string;
  await approvePaypal(id, 'pending');
  const c = await api(t, 'capturePaypalOrder', { cookie: sid, params: { paypalOrderId: id }, body: { orderId: o.id } });
  expect(c).toMatchObject({ status: 200, body: { success: true, status: 'PENDING', order_token: o.token } });
  const cap = (await (await fetch(`${t.origin}/sandbox/paypal/control/captures`)).json()) as { captures: { id: string; supplementary_data: { related_ids: { order_id: string } } }[] };
  const captureId = cap.captures.find((x) => x.supplementary_data.related_ids.order_id === id)!.id;
  return { o, id, captureId };
}

const control = (captureId: string, action: 'complete' | 'deny') => fetch(`${t.origin}/sandbox/paypal/control/captures/${captureId}/${action}`, { method: 'POST' });

describe('PayPal capture left PENDING', () => {
  it('is not failed: 200 PENDING, the order awaits payment; the verified COMPLETED webhook pays it once', async () => {
    const { o, id, captureId } = await pendingPaypalOrder(150000);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'notYetReceived' });
    expect(await paymentsOf(t, o.id)).toEqual([expect.objectContaining({ status: 'pending', provider_ref: id })]);
    const read = await api(t, 'getOrderByToken', { cookie: sid, params: { orderToken: o.token } });
    expect(read.body.data.outcome.state).toBe('awaitingPayment');
    // Capturing again while PayPal holds it still answers PENDING (nothing paid, nothing deleted).
    expect((await api(t, 'capturePaypalOrder', { cookie: sid, params: { paypalOrderId: id }, body: { orderId: o.id } })).body.status).toBe('PENDING');

    const before = deliveries(t, 'paypal').length;
    expect((await control(captureId, 'complete')).status).toBe(200);
    await until(async () => (await orderRow(t, o.id)).status === 'approved', 'the webhook pays the order');
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'approved', approve_by: 'paypal' });
    const sent = deliveries(t, 'paypal').slice(before);
    expect(sent.map((d) => d.status)).toEqual([200]);
    expect(JSON.parse(sent[0]!.body)).toMatchObject({ event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: captureId, status: 'COMPLETED' } });
    // Replayed three times in reverse: applied once.
    expect(new Set(await replay(t, sent))).toEqual(new Set([200]));
    expect(t.changes.get(o.id)).toHaveLength(1);
    // A forged delivery (PayPal does not verify it) is refused.
    const forged = await t.app.inject({ method: 'POST', url: '/api/paypal/webhook', headers: { ...sent[0]!.headers, 'paypal-transmission-sig': 'forged' }, payload: sent[0]!.body });
    expect(forged.statusCode).toBe(401);
    // The capture button now answers COMPLETED.
    expect((await api(t, 'capturePaypalOrder', { cookie: sid, params: { paypalOrderId: id }, body: { orderId: o.id } })).body.status).toBe('COMPLETED');
  });

  it('DENIED fails the attempt; the order stays payable', async () => {
    const { o, captureId } = await pendingPaypalOrder(150000);
    await control(captureId, 'deny');
    await until(async () => (await paymentsOf(t, o.id))[0]?.status === 'failed', 'the webhook fails the attempt');
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'notYetReceived' });
  });

  it('no webhook arrives: the scheduled re-read (housekeeping round) settles it once', async () => {
    const { o, captureId } = await pendingPaypalOrder(150000);
    process.env.PAYPAL_SANDBOX_WEBHOOK_URL = 'http://127.0.0.1:9/unreachable';
    try {
      await control(captureId, 'complete');
    } finally {
      delete process.env.PAYPAL_SANDBOX_WEBHOOK_URL;
    }
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'notYetReceived' });
    // Within the grace period nothing is asked.
    await housekeeping(t.app.ctx.db, t.clock.now());
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'notYetReceived' });
    const later = new Date(t.clock.now().getTime() + 10 * 60_000);
    expect(await housekeeping(t.app.ctx.db, later)).toBe(true);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'approved', approve_by: 'paypal' });
    const again = await t.db.query<{ reread_at: Date | null }>('SELECT reread_at FROM payments WHERE order_id = $1', [o.id]);
    expect(again.rows[0]!.reread_at).not.toBeNull();
    await housekeeping(t.app.ctx.db, new Date(later.getTime() + 10 * 60_000));
    expect(t.changes.get(o.id)).toHaveLength(1);
  });
});

const tokenize = async (number: string) => (await omiseTokenize(t, number, undefined, 2031)).body.id;

describe('refunds from the back office', () => {
  it('a duplicate Omise payment is refunded through Omise once, however many requests race', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 8, email: 'student@example.com' });
    const charge = (token: string) => api(t, 'chargeOmiseCard', { cookie: sid, body: { orderId: o.id, omise_token: token, email: 'student@example.com', name: 'S', total_amount: 1 } });
    const first = await charge(await tokenize('4111111111111111'));
    expect(first.body.status).toBe('pending');
    // The buyer gave up on that 3-D Secure page and paid with another card.
    await t.db.query(`UPDATE payments SET status = 'cancelled' WHERE order_id = $1`, [o.id]);
    expect((await charge(await tokenize('4242424242424242'))).body.status).toBe('successful');
    // The old page is finished late: Omise's webhook reports a second payment.
    const page = await (await fetch(first.body.charges.authorize_uri)).text();
    await fetchManual(formAction(page), form({ result: 'pass' }));
    const dup = (await until(async () => (await paymentsOf(t, o.id)).find((p) => p.attention === 'duplicate_payment'), 'the duplicate payment'))!;
    const pending = (await admin('GET', '/admin/api/pending')).json().data as { payment_id: number | null; attention: string | null }[];
    expect(pending.some((p) => p.payment_id === dup.id && p.attention === 'duplicate_payment')).toBe(true);

    const answers = await Promise.all([1, 2, 3].map(() => admin('POST', `/admin/api/payments/${dup.id}/refund`, { by: 'tester', note: 'paid twice' })));
    for (const a of answers) expect(a.statusCode).toBe(200);
    const again = await admin('POST', `/admin/api/payments/${dup.id}/refund`, { by: 'tester' });
    expect(again.json().data).toMatchObject({ repeated: true });
    const detail = (await admin('GET', `/admin/api/orders/${o.id}`)).json().data as { refunds: { kind: string; status: string; amount: number; provider_refund_id: string | null; reason: string }[] };
    expect(detail.refunds).toEqual([expect.objectContaining({ kind: 'api', status: 'refunded', amount: 150000, reason: 'duplicate_payment', provider_refund_id: expect.stringMatching(/^rfnd_test_/) })]);
    // Omise itself holds one refund of the whole charge.
    const keys = t.ctx.payments.config.omise;
    const r = await fetch(`${t.origin}/sandbox/omise/charges/${dup.provider_ref}/refunds`, { headers: { authorization: `Basic ${Buffer.from(`${keys.secretKey}:`).toString('base64')}` } });
    expect(await r.json()).toMatchObject({ total: 1, data: [{ amount: 150000 }] });
    // It leaves the pending list; the paid order is untouched.
    const after = (await admin('GET', '/admin/api/pending')).json().data as { payment_id: number | null }[];
    expect(after.some((p) => p.payment_id === dup.id)).toBe(false);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'approved' });
    // The back office page lists it.
    const html = (await admin('GET', '/admin')).body;
    expect(html).toContain('duplicate_payment');
  });

  it('PayPal: money that arrives after the order was cancelled (a pending capture completed late) is refunded through PayPal', async () => {
    const { o, id, captureId } = await pendingPaypalOrder(99000);
    expect((await admin('POST', `/admin/api/orders/${o.id}/cancel`, {})).statusCode).toBe(200);
    await control(captureId, 'complete');
    const pay = (await until(async () => (await paymentsOf(t, o.id)).find((p) => p.status === 'successful'), 'the late capture'))!;
    // The seats were still free, so the late money re-approved the order; the shop then closes it for good.
    if (pay.attention === null) await t.db.query(`UPDATE orders SET status = 'cancelled' WHERE id = $1`, [o.id]);
    const a = await admin('POST', `/admin/api/payments/${pay.id}/refund`, { note: 'order was cancelled' });
    expect(a.json().data.refund).toMatchObject({ provider: 'paypal', kind: 'api', status: 'refunded', amount: 99000, provider_refund_id: expect.stringMatching(/RFD$/) });
    expect(['order_closed', 'order_cancelled']).toContain(a.json().data.refund.reason);
    const caps = (await (await fetch(`${t.origin}/sandbox/paypal/control/captures`)).json()) as { captures: { status: string; supplementary_data: { related_ids: { order_id: string } } }[] };
    expect(caps.captures.find((c) => c.supplementary_data.related_ids.order_id === id)?.status).toBe('REFUNDED');
  });

  it('a payment of a live order is not refunded', async () => {
    const o = await makeOrder(t, { userId: 2, total: 99000, methodId: 2, email: 'student@example.com' });
    const id = (await api(t, 'createPaypalOrder', { cookie: sid, body: { orderId: o.id } })).body.paypal_order_id as string;
    await approvePaypal(id, 'ok');
    expect((await api(t, 'capturePaypalOrder', { cookie: sid, params: { paypalOrderId: id }, body: { orderId: o.id } })).body.status).toBe('COMPLETED');
    const pay = (await paymentsOf(t, o.id))[0]!;
    expect((await admin('POST', `/admin/api/payments/${pay.id}/refund`, {})).statusCode).toBe(409);
    expect(await t.db.query('SELECT id FROM refunds WHERE payment_id = $1', [pay.id])).toMatchObject({ rows: [] });
  });

  it('SCB (no refund call) and a bank-transfer notice: recorded manual refunds, once', async () => {
    const o = await makeOrder(t, { userId: 2, total: 50000, methodId: 4 });
    await t.db.query(`UPDATE orders SET status = 'approved', payment_status = 'approved' WHERE id = $1`, [o.id]);
    const p = await t.db.query<{ id: number }>(
      `INSERT INTO payments (order_id, provider, method_id, provider_ref, status, amount, currency, paid_amount, attention) VALUES ($1, 'scb', 4, $2, 'successful', 50000, 'THB', 50000, 'duplicate_payment') RETURNING id`,
      [o.id, `O${o.id}.QDUP`],
    );
    const pid = p.rows[0]!.id;
    const [x, y] = await Promise.all([admin('POST', `/admin/api/payments/${pid}/refund`, { note: 'transferred back' }), admin('POST', `/admin/api/payments/${pid}/refund`, {})]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    expect([x.json().data.repeated, y.json().data.repeated].sort()).toEqual([false, true]);
    expect(x.json().data.refund).toMatchObject({ kind: 'manual', status: 'refunded', provider: 'scb' });

    const b = await makeOrder(t, { userId: 2, total: 70000, methodId: 1 });
    const rep = await t.db.query<{ id: number }>(`INSERT INTO payment_reports (order_id, payment, status, transfer_amount) VALUES ($1, 'BankTransfer', 'approved', 70000) RETURNING id`, [b.id]);
    expect((await admin('POST', `/admin/api/reports/${rep.rows[0]!.id}/refund`, {})).statusCode).toBe(409);
    await t.db.query(`UPDATE orders SET status = 'cancelled' WHERE id = $1`, [b.id]);
    const m = await admin('POST', `/admin/api/reports/${rep.rows[0]!.id}/refund`, { note: 'KBank 123' });
    expect(m.json().data.refund).toMatchObject({ provider: 'bank_transfer', kind: 'manual', status: 'refunded', amount: 70000, reason: 'order_cancelled' });
    expect((await admin('POST', `/admin/api/reports/${rep.rows[0]!.id}/refund`, {})).json().data.repeated).toBe(true);
    const rows = await t.db.query('SELECT id FROM refunds WHERE order_id = ANY($1::int[])', [[o.id, b.id]]);
    expect(rows.rows).toHaveLength(2);
  });
});
