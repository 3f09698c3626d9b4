// Payment reports: bank transfer notice (spec 5 order, Thai local times stored in UTC) -> back
// office approve / reject; free orders filed as AutoFree or NeedApprovedFree by the server; the
// approval call trusts only verified payments; the payment-notice e-mail; every order status by hand.
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../domain/messages';
import { api, appForFile, makeOrder, orderRow, payApp, reportsOf, type PayApp } from './helpers';

let t: PayApp;
let sid: string;
let sid2: string;
const ADMIN = { authorization: 'Bearer admin-dev-token' };

appForFile(payApp, ['student', 'student2'], async (app, [c0, c1]) => {
  t = app;
  sid = c0;
  sid2 = c1;
  await t.db.query(`INSERT INTO uploads (user_id, file_name, original_name, mime, size) VALUES (2, 'slip-1.png', 'slip.png', 'image/png', 100)`);
});

const admin = (path: string, body?: unknown) =>
  fetch(`${t.origin}/admin/api${path}`, body === undefined ? { headers: ADMIN } : { method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify(body) });

const notice = (orderId: number, extra: Record<string, unknown> = {}, cookie = sid) =>
  api(t, 'createPaymentReportPrivate', {
    cookie,
    body: {
      order_id: orderId, contact_name: 'สมชาย ใจดี', email: 'student@example.com', payment_method_id: 1, bank_code: 'KBANK', bank_account: '123-4-56789-0',
      transfer_datetime: '2026-03-02', time: '09:15:00', transfer_amount: 150000, slip: 'slip-1.png', status: 'pending', ...extra,
    },
  });

describe('bank transfer', () => {
  it('checks the notice in the spec order and answers every issue', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000 });
    const r = await notice(o.id, { slip: null, bank_code: null, bank_account: 'not-ours' });
    expect(r.status).toBe(400);
    expect(r.body.error.result).toEqual([
      { field: 'slip', msg: MESSAGES.SLIP_REQUIRED },
      { field: 'bank_code', msg: MESSAGES.ORIGIN_BANK_REQUIRED },
      { field: 'bank_account', msg: MESSAGES.DESTINATION_ACCOUNT_REQUIRED },
    ]);
    expect((await orderRow(t, o.id)).status).toBe('notYetReceived');
  });

  it('notice -> pendingApproved, time stored as UTC (Thai 09:15 = 02:15Z); the student cannot approve it; the back office approves', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000 });
    const r = await notice(o.id);
    expect(r.status).toBe(201);
    expect(r.body.order_token).toBe(o.token);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'pendingApproved' });
    const [rep] = await reportsOf(t, o.id);
    expect(rep).toMatchObject({ payment: 'BankTransfer', status: 'pending', transfer_amount: 150000 });
    expect(rep!.transfer_at!.toISOString()).toBe('2026-03-02T02:15:00.000Z');
    const self = await api(t, 'approveOrderPayment', { cookie: sid, body: { order_payment_id: r.body.orderPaymentId, order_id: o.id, payment_method_id: 1 } });
    expect(self.status).toBe(422);
    expect((await orderRow(t, o.id)).status).toBe('pendingApproved');
    expect((await fetch(`${t.origin}/admin/api/pending`)).status).toBe(401);
    const pending = (await (await admin('/pending')).json()).data as { report_id: number }[];
    expect(pending.map((p) => p.report_id)).toContain(r.body.orderPaymentId);
    expect((await admin(`/reports/${r.body.orderPaymentId}/approve`, { by: 'tester' })).status).toBe(200);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'approved', approve_by: 'admin:tester' });
    expect((await reportsOf(t, o.id))[0]!.status).toBe('approved');
    expect((await admin(`/reports/${r.body.orderPaymentId}/approve`, {})).status).toBe(409);
    // Paid orders take no more notices.
    expect((await notice(o.id)).status).toBe(409);
    expect(t.changes.get(o.id)!.map((c) => c.status)).toEqual(['pendingApproved', 'approved']);
  });

  it('the back office rejects a notice (the order waits for payment again); someone else\'s order is refused', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000 });
    expect((await notice(o.id, {}, sid2)).status).toBe(403);
    const r = await notice(o.id);
    expect((await admin(`/reports/${r.body.orderPaymentId}/reject`, { reason: 'no money arrived' })).status).toBe(200);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'notYetReceived', payment_status: 'notYetReceived' });
    expect((await reportsOf(t, o.id))[0]).toMatchObject({ status: 'rejected' });
    expect((await admin(`/orders/${o.id}/reject`, { reason: 'fraud' })).status).toBe(200);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'rejected', payment_status: 'rejected' });
  });

  it('every order status by hand: pending, approve, reject, cancel', async () => {
    const a = await makeOrder(t, { userId: 2, total: 10000 });
    expect((await admin(`/orders/${a.id}/pending`, {})).status).toBe(200);
    expect((await orderRow(t, a.id)).status).toBe('pendingApproved');
    expect((await admin(`/orders/${a.id}/approve`, { reason: 'cash at the front desk' })).status).toBe(200);
    expect((await orderRow(t, a.id)).status).toBe('approved');
    expect((await admin(`/orders/${a.id}/cancel`, {})).status).toBe(409);
    const b = await makeOrder(t, { userId: 2, total: 10000 });
    expect((await admin(`/orders/${b.id}/reject`, { reason: 'fraud' })).status).toBe(200);
    expect((await orderRow(t, b.id)).status).toBe('rejected');
    const c = await makeOrder(t, { userId: 2, total: 10000 });
    expect((await admin(`/orders/${c.id}/cancel`, {})).status).toBe(200);
    expect((await orderRow(t, c.id)).status).toBe('cancelled');
    const detail = await (await admin(`/orders/${a.id}`)).json();
    expect(detail.data.reports[0]).toMatchObject({ payment: 'Manual', status: 'approved' });
    const page = await fetch(`${t.origin}/admin`, { headers: { authorization: 'Bearer admin-dev-token' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Back office');
  });
});

describe('free orders', () => {
  const free = (orderId: number, payment: 'AutoFree' | 'NeedApprovedFree', cookie: string | null = sid, email = 'student@example.com', token?: string) =>
    api(t, 'createPaymentReportPublic', { cookie, body: { order_id: orderId, contact_name: 'สมชาย', email, transfer_datetime: '2026-03-02', time: '23:30', transfer_amount: 0, payment, description: 'x', ...(token ? { order_token: token } : {}) } });

  it('AutoFree: approved at once, "Auto approved", report time +7 (23:30 Thai = 16:30Z); idempotent', async () => {
    const o = await makeOrder(t, { userId: 2, total: 0, planName: 'ฟรี (free)' });
    const r = await free(o.id, 'AutoFree');
    expect(r.status).toBe(201);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'approved', payment_status: 'approved' });
    const [rep] = await reportsOf(t, o.id);
    expect(rep).toMatchObject({ payment: 'AutoFree', status: 'approved', description: 'Auto approved', transfer_amount: 0 });
    expect(rep!.transfer_at!.toISOString()).toBe('2026-03-02T16:30:00.000Z');
    expect((await free(o.id, 'AutoFree')).body.orderPaymentId).toBe(r.body.orderPaymentId);
    expect(await reportsOf(t, o.id)).toHaveLength(1);
  });

  it('NeedApprovedFree is decided by the plan, even when the client says AutoFree; the back office approves', async () => {
    const o = await makeOrder(t, { userId: 2, total: 0, planName: 'ฟรี รออนุมัติ (free, needs approval)' });
    const r = await free(o.id, 'AutoFree');
    expect(r.status).toBe(201);
    expect(await orderRow(t, o.id)).toMatchObject({ status: 'pendingApproved' });
    expect((await reportsOf(t, o.id))[0]).toMatchObject({ payment: 'NeedApprovedFree', status: 'pending', description: 'Need approved by admin' });
    expect((await admin(`/reports/${r.body.orderPaymentId}/approve`, {})).status).toBe(200);
    expect((await orderRow(t, o.id)).status).toBe('approved');
  });

  it('a paid order cannot be filed as free; without the owner\'s session a caller must give the order token', async () => {
    const paid = await makeOrder(t, { userId: 2, total: 10000 });
    expect((await free(paid.id, 'AutoFree')).status).toBe(409);
    const o = await makeOrder(t, { userId: 2, total: 0, planName: 'ฟรี (free)', email: 'student@example.com' });
    expect((await free(o.id, 'AutoFree', null, 'someone@else.com')).status).toBe(403);
    expect((await free(o.id, 'AutoFree', null, 'Student@Example.com')).status).toBe(403); // the e-mail is no key
    expect((await free(o.id, 'AutoFree', null, 'student@example.com', 'not-the-token')).status).toBe(403);
    expect((await free(o.id, 'AutoFree', sid2, 'student2@example.com', o.token)).status).toBe(403);
    expect((await free(o.id, 'AutoFree', null, 'student@example.com', o.token)).status).toBe(201);
  });
});

describe('payment-notice e-mail', () => {
  const mail = (orderId: number, cookie: string | null = sid, email = 'student@example.com') =>
    api(t, 'sendPaymentOrderEmail', { cookie, body: { fullname: 'สมชาย ใจดี', orderId, email, description: 'โอนแล้ว', bank_account: '123-4-56789-0', bank_code: 'KBANK', amount: 150000, telephone: '0812345678', date: '2026-03-02', time: '09:15' } });

  it('sends to the order\'s e-mail, only for the caller\'s own order, at most 5 per 10 minutes', async () => {
    const o = await makeOrder(t, { userId: 2, total: 150000 });
    expect((await mail(o.id)).status).toBe(404); // no notice filed yet: nothing to send
    expect((await notice(o.id)).status).toBe(201);
    const r = await mail(o.id);
    expect(r.status).toBe(202);
    const sent = t.app.ctx.mail.list().filter((m) => m.tag === 'paymentorder');
    expect(sent.at(-1)).toMatchObject({ to: 'student@example.com' });
    expect(sent.at(-1)!.text).toContain('1,500.00');
    expect(sent.at(-1)!.text).toContain('09:15');
    // The number the order list and the thank-you page show (#id), never the order token.
    expect(sent.at(-1)!.subject).toMatch(new RegExp(`#${o.id}$`));
    expect(sent.at(-1)!.text).not.toContain(o.token);
    expect((await mail(o.id, sid2)).status).toBe(403);
    expect((await mail(o.id, null, 'student@example.com')).status).toBe(401);
    for (let i = 0; i < 4; i++) expect((await mail(o.id)).status).toBe(202);
    expect((await mail(o.id)).status).toBe(429);
  });
});
