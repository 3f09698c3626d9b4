// PayPal: the order is created on our server from OUR total, approved on the sandbox's page,
// captured; paid only when the capture is COMPLETED. Declined (restart), pending, not approved,
// double calls, someone else's PayPal order.
import { describe, expect, it } from 'vitest';
import { createPaypalClient } from '../../../server/providers/paypal';
import { ProviderError } from '../../../server/providers/http';
import { api, appForFile, fetchManual, form, formAction, makeOrder, orderRow, payApp, paymentsOf, reportsOf, type PayApp } from './helpers';

let t: PayApp;
let sid: string;
let sid2: string;

appForFile(payApp, ['student', 'student2'], (app, [c0, c1]) => { t = app; sid = c0; sid2 = c1; });

const create = (orderId: number, cookie = sid) => api(t, 'createPaypalOrder', { cookie, body: { orderId } });
const capture = (orderId: number, paypalOrderId: string, cookie = sid) => api(t, 'capturePaypalOrder', { cookie, params: { paypalOrderId }, body: { orderId } });

async function approve(paypalOrderId: string, outcome: 'ok' | 'declined' | 'refused' | 'pending' | 'cancel') {
  const page = await (await fetch(`${t.origin}/sandbox/paypal/checkoutnow?token=${paypalOrderId}`)).text();
  return fetchManual(formAction(page), form({ outcome }));
}

describe('PayPal', () => {
  it('adapter: wrong client credentials fail at OAuth', async () => {
    const keys = t.ctx.payments.config.paypal;
    const bad = createPaypalClient({ baseUrl: `${t.origin}/sandbox/paypal`, keys: { ...keys, clientSecret: 'wrong' } });
    const err = await bad.getOrder('X').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe('invalid_client');
  });

  it('creates the PayPal order from OUR total (USD too), once per order while not captured', async () => {
    const o = await makeOrder(t, { userId: 2, total: 19900, methodId: 2, currency: 'USD' });
    const a = await create(o.id);
    expect(a.status).toBe(201);
    const page = await (await fetch(`${t.origin}/sandbox/paypal/checkoutnow?token=${a.body.paypal_order_id}`)).text();
    expect(page).toContain('199.00 USD');
    expect((await create(o.id)).body.paypal_order_id).toBe(a.body.paypal_order_id);
    expect(await paymentsOf(t, o.id)).toHaveLength(1);
  });

  it('approve + capture: COMPLETED pays the order; capturing again answers the same token', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 2 });
    const id = (await create(o.id)).body.paypal_order_id as string;
    const back = await approve(id, 'ok');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toContain(`token=${id}`);
    const c = await capture(o.id, id);
    expect(c).toMatchObject({ status: 200, body: { status: 'COMPLETED', order_token: o.token } });
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'approved', approve_by: 'paypal' });
    expect(await reportsOf(t, o.id)).toEqual([expect.objectContaining({ payment: 'Paypal', status: 'approved', transfer_amount: 150000 })]);
    for (let i = 0; i < 3; i++) expect((await capture(o.id, id)).body.order_token).toBe(o.token);
    // The legacy client's public report after a capture answers the capture's report.
    const rep = await api(t, 'createPaymentReportPublic', { cookie: sid, body: { order_id: o.id, contact_name: 'S', email: 'student@example.com', transfer_datetime: '2026-03-02', time: '10:00:00', transfer_amount: 150000, payment: 'Paypal', bank_account: 'PAYER' } });
    expect(rep.status).toBe(201);
    expect(await reportsOf(t, o.id)).toHaveLength(1);
    expect(t.changes.get(o.id)).toHaveLength(1);
  });

  it('INSTRUMENT_DECLINED: 422 with the issue, nothing paid; the buyer restarts and pays', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 2 });
    const id = (await create(o.id)).body.paypal_order_id as string;
    await approve(id, 'declined');
    const c = await capture(o.id, id);
    expect(c.status).toBe(422);
    expect(c.body.error).toMatchObject({ code: 'PAYMENT_FAILED', result: { issue: 'INSTRUMENT_DECLINED' } });
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    await approve(id, 'ok');
    expect((await capture(o.id, id)).body.status).toBe('COMPLETED');
  });

  it('TRANSACTION_REFUSED: 422 with the issue, nothing paid, the PayPal order left uncaptured (refused again)', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 2 });
    const id = (await create(o.id)).body.paypal_order_id as string;
    await approve(id, 'refused');
    for (let i = 0; i < 2; i++) {
      const c = await capture(o.id, id);
      expect(c.status).toBe(422);
      expect(c.body.error).toMatchObject({ code: 'PAYMENT_FAILED', result: { paypal_status: 'NOT_CAPTURED', issue: 'TRANSACTION_REFUSED' } });
    }
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    expect((await paymentsOf(t, o.id)).map((p) => p.status)).not.toContain('successful');
    expect(await reportsOf(t, o.id)).toEqual([]);
  });

  it('a capture that stays PENDING does not pay (200 PENDING); capture before approval, cancel, another user\'s order are refused', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000, methodId: 2 });
    const id = (await create(o.id)).body.paypal_order_id as string;
    const early = await capture(o.id, id);
    expect(early.status).toBe(422);
    expect(early.body.error.result.issue).toBe('ORDER_NOT_APPROVED');
    expect((await approve(id, 'cancel')).headers.get('location')).toContain('/myaccount/student/order');
    await approve(id, 'pending');
    const pending = await capture(o.id, id);
    // Pending is not failed: 200 PENDING, nothing paid, the order kept (refund-paypal-pending.test.ts settles it).
    expect(pending).toMatchObject({ status: 200, body: { status: 'PENDING', order_token: o.token } });
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
    expect((await paymentsOf(t, o.id))[0]!.status).toBe('pending');
    const other = await makeOrder(t, { userId: 2, total: 150000, methodId: 2 });
    expect((await capture(other.id, id)).status).toBe(404);
    expect((await capture(o.id, id, sid2)).status).toBe(403);
    expect((await create(o.id, sid2)).status).toBe(403);
  });
});
