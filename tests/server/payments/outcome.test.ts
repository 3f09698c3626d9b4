// What the buyer is told is what the server knows. Order.outcome (domain/order-outcome)
// from the order and its latest attempt; the thank-you page's read by token thanks no one for an
// unknown or someone else's token; pay again on the same order (declined Omise card, then a bank
// transfer → waiting for approval); a cancelled order is listed as cancelled.
import { describe, expect, it } from 'vitest';
import { applyOutcome } from '../../../server/payments/apply';
import { api, appForFile, call, makeOrder, omiseTokenize, orderRow, payApp, paymentsOf, type PayApp } from './helpers';

let t: PayApp;
let sid: string;
let sid2: string;
let pkey: string;

appForFile(payApp, ['student', 'student2'], async (app, [c0, c1]) => {
  t = app;
  sid = c0;
  sid2 = c1;
  pkey = (await call(t.app, 'getOmiseCardPublicKey')).body.publicKey;
  await t.db.query(`INSERT INTO uploads (user_id, file_name, original_name, mime, size) VALUES (2, 'slip-9.png', 'slip.png', 'image/png', 100)`);
});

const tokenize = async (number: string) => (await omiseTokenize(t, number, pkey)).body.id;

const byToken = (token: string, cookie = sid) => api(t, 'getOrderByToken', { cookie, params: { orderToken: token } });

describe('Order.outcome', () => {
  it('a new order waits for payment; an unknown or someone else’s token is 404', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 8, email: 'student@example.com' });
    const mine = await byToken(o.token);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ id: o.id, order_token: o.token, outcome: { state: 'awaitingPayment', reason: null, method_id: null } });
    expect((await byToken('bogus')).status).toBe(404);
    const theirs = await byToken(o.token, sid2);
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(theirs.body)).not.toContain(o.token);
  });

  it('declined Omise card → failed (insufficientFunds); pay again by bank transfer on the same order → awaitingApproval', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 8, email: 'student@example.com' });
    const r = await api(t, 'chargeOmiseCard', { cookie: sid, body: { orderId: o.id, omise_token: await tokenize('4111111111140011'), email: 'student@example.com', name: 'Somchai', total_amount: 1 } });
    expect(r.body.status).toBe('failed');
    const failed = await api(t, 'getOrder', { cookie: sid, params: { orderId: o.id } });
    expect(failed.body.data.outcome).toEqual({ state: 'failed', reason: 'insufficientFunds', method_id: 8 });
    const notice = await api(t, 'createPaymentReportPrivate', {
      cookie: sid,
      body: {
        order_id: o.id, contact_name: 'สมชาย ใจดี', email: 'student@example.com', payment_method_id: 1, bank_code: 'KBANK', bank_account: '123-4-56789-0',
        transfer_datetime: '2026-03-02', time: '09:15:00', transfer_amount: 150000, slip: 'slip-9.png', status: 'pending',
      },
    });
    expect(notice.status).toBe(201);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'pendingApproved' });
    expect((await byToken(o.token)).body.data.outcome.state).toBe('awaitingApproval');
    // One order, no successful provider payment.
    expect((await paymentsOf(t, o.id)).filter((p) => p.status === 'successful')).toHaveLength(0);
  });

  it('a paid order reads as paid, with the method of its payment', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 8, email: 'student@example.com' });
    const ok = await api(t, 'chargeOmiseCard', { cookie: sid, body: { orderId: o.id, omise_token: await tokenize('4242424242424242'), email: 'student@example.com', name: 'Somchai', total_amount: 1 } });
    expect(ok.body.status).toBe('successful');
    expect((await byToken(o.token)).body.data.outcome).toEqual({ state: 'paid', reason: null, method_id: 8 });
  });

  it('a second payment succeeding after the order was paid is not applied: kept for a refund (duplicate_payment)', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 8, email: 'student@example.com' });
    // An earlier attempt (say a 3-D Secure page left open) and a later one that pays.
    const first = await api(t, 'chargeOmiseCard', { cookie: sid, body: { orderId: o.id, omise_token: await tokenize('4111111111111111'), email: 'student@example.com', name: 'Somchai', total_amount: 1 } });
    expect(first.body.status).toBe('pending');
    await t.db.query(`UPDATE payments SET status = 'cancelled' WHERE order_id = $1`, [o.id]);
    const second = await api(t, 'chargeOmiseCard', { cookie: sid, body: { orderId: o.id, omise_token: await tokenize('4242424242424242'), email: 'student@example.com', name: 'Somchai', total_amount: 1 } });
    expect(second.body.status).toBe('successful');
    // The first attempt's 3-D Secure page is finished late: the money moved, the order stays paid once.
    // (as the webhook applies it after re-reading the charge)
    const r = await applyOutcome(t.app.ctx, { provider: 'omise', ref: first.body.charges.id, eventId: 'evnt_late_1', eventKind: 'charge.complete', outcome: { kind: 'paid', paidAmount: 150000, currency: 'THB', txnId: 'trxn_late' } });
    expect(r.changed).toBe(false);
    const pays = await paymentsOf(t, o.id);
    const late = pays.find((p) => p.provider_ref === first.body.charges.id);
    expect(late).toMatchObject({ status: 'successful', attention: 'duplicate_payment' });
    expect(pays.filter((p) => p.status === 'successful' && p.attention === null)).toHaveLength(1);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'approved' });
  });

  it('cancelled by the buyer: seats given back, listed and read as cancelled; auto-cancelled reads as expired', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 8, email: 'student@example.com' });
    expect((await api(t, 'deleteOrder', { cookie: sid, body: { order_id: o.id } })).status).toBe(200);
    expect((await byToken(o.token)).body.data.outcome.state).toBe('cancelled');
    const list = await api(t, 'listMyOrders', { cookie: sid, query: {} });
    expect(list.body.data.find((x: { id: number }) => x.id === o.id)?.outcome.state).toBe('cancelled');
    const e = await makeOrder(t, { userId: 2, total: 150000, methodId: 1, email: 'student@example.com' });
    await t.app.ctx.orders.cancelExpiredOrders(new Date(t.clock.now().getTime() + 25 * 3600_000));
    expect((await byToken(e.token)).body.data.outcome.state).toBe('expired');
  });
});
