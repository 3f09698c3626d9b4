// The buyer's withholding certificate: uploaded for a paid order the buyer withheld tax from (owner
// only; refused when unpaid, nothing withheld, or already received), listed with the order's
// documents, and received or rejected by the back office, which can download the file.
import { describe, expect, it } from 'vitest';
import { multipart } from './support/requests';
import { appForFile, call, testApp, type TestApp } from './support/app';
import { addCourse1070, pay, placeOrder } from './support/documents';
import { DEV_ADMIN_TOKEN } from '../../server/config';

let t: TestApp;
let sid: string; // student (2): natural person
let sid2: string; // student2 (3): juristic person, tax invoice data complete
let n = 0;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');


const upload = (cookie: string, orderId: number, m = multipart('file', '50ทวิ.pdf', 'application/pdf', PDF)) =>
  call(t.app, 'uploadWithholdingCertificate', { cookie, params: { orderId }, raw: m.raw, headers: { ...m.headers, 'accept-language': 'en' } });
const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` }, ...(payload ? { payload } : {}) });
const withholdingOf = async (cookie: string, orderId: number) => (await call(t.app, 'listOrderDocuments', { cookie, params: { orderId } })).body.withholding;

async function companyOrder(withholding = true): Promise<number> {
  const course = await addCourse1070(t, `wht-course-${++n}`);
  return placeOrder(t, sid2, { user_id: 3, course_id: [course.courseId], pricingplan_id: [course.planId], is_withholding: withholding, ...(withholding ? { withholding_percent: 3 } : {}) });
}

appForFile(() => testApp({ payments: true }), ['student', 'student2'], (app, [c0, c1]) => { t = app; sid = c0; sid2 = c1; });

describe('the buyer uploads the withholding certificate of a paid order', () => {
  it('refuses an unpaid order, then takes a PDF once paid; the order lists it waiting', async () => {
    const id = await companyOrder();
    expect(await withholdingOf(sid2, id)).toEqual({ amount: 3_000, currency_code: 'THB', certificate: null, can_upload: false });
    const unpaid = await upload(sid2, id);
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.error).toEqual({ code: 'WITHHOLDING_ORDER_NOT_PAID', msg: 'This order is not paid yet, so its withholding tax certificate cannot be sent' });
    await pay(t, id);
    expect((await withholdingOf(sid2, id)).can_upload).toBe(true);
    const r = await upload(sid2, id);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data).toMatchObject({ status: 'submitted', file_name: '50ทวิ.pdf', decided_at: null, reason: null });
    expect(await withholdingOf(sid2, id)).toMatchObject({ amount: 3_000, can_upload: true, certificate: { id: r.body.data.id, status: 'submitted' } });
    // Counted as the student's upload (storage share, rate limit).
    const up = await t.db.query<{ user_id: number; mime: string }>('SELECT u.user_id, u.mime FROM uploads u JOIN withholding_certificates c ON c.file_name = u.file_name WHERE c.id = $1', [r.body.data.id]);
    expect(up.rows).toEqual([{ user_id: 3, mime: 'application/pdf' }]);
  });

  it('404 for another student’s order; 409 for an order without withholding; a natural person’s order offers nothing', async () => {
    const id = await companyOrder();
    await pay(t, id);
    expect((await upload(sid, id)).status).toBe(404);
    expect((await call(t.app, 'listOrderDocuments', { cookie: sid, params: { orderId: id } })).status).toBe(404);
    const plain = await companyOrder(false);
    await pay(t, plain);
    expect(await withholdingOf(sid2, plain)).toBeNull();
    const r = await upload(sid2, plain);
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('WITHHOLDING_NOT_WITHHELD');
    // Thai by default.
    const th = await call(t.app, 'uploadWithholdingCertificate', { cookie: sid2, params: { orderId: plain }, ...(() => { const m = multipart('file', 'a.pdf', 'application/pdf', PDF); return { raw: m.raw, headers: m.headers }; })() });
    expect(th.body.error.msg).toBe('คำสั่งซื้อนี้ไม่มีการหักภาษี ณ ที่จ่าย จึงไม่ต้องส่งหนังสือรับรองการหักภาษี ณ ที่จ่าย');
  });

  it('takes a PNG scan; refuses a file whose type, extension or first bytes disagree, and a missing file', async () => {
    const id = await companyOrder();
    await pay(t, id);
    expect((await upload(sid2, id, multipart('file', 'fake.pdf', 'application/pdf', PNG))).body.error.code).toBe('INVALID_FILE_TYPE');
    expect((await upload(sid2, id, multipart('file', 'scan.gif', 'image/gif', Buffer.from('GIF89a')))).body.error.code).toBe('INVALID_FILE_TYPE');
    expect((await upload(sid2, id, multipart('file', 'scan.png', 'application/pdf', PNG))).body.error.code).toBe('INVALID_FILE_TYPE');
    expect((await upload(sid2, id, multipart('other', 'scan.png', 'image/png', PNG))).body.error.code).toBe('VALIDATION_ERROR');
    const ok = await upload(sid2, id, multipart('file', 'scan.png', 'image/png', PNG));
    expect(ok.status).toBe(201);
    // A second upload while the first waits replaces it.
    const again = await upload(sid2, id);
    expect(again.status).toBe(201);
    const rows = await t.db.query<{ status: string }>('SELECT status FROM withholding_certificates WHERE order_id = $1 ORDER BY id', [id]);
    expect(rows.rows.map((r) => r.status)).toEqual(['replaced', 'submitted']);
  });
});

describe('the back office', () => {
  it('lists it, downloads the file, marks it received; the buyer sees it received and cannot upload again', async () => {
    const id = await companyOrder();
    await pay(t, id);
    const c = (await upload(sid2, id)).body.data as { id: number };
    const list = await admin('GET', '/admin/api/withholding-certificates?status=submitted');
    expect(list.json().data).toEqual(expect.arrayContaining([expect.objectContaining({ id: c.id, order_id: id, status: 'submitted', file_name: '50ทวิ.pdf' })]));
    const file = await admin('GET', `/admin/api/withholding-certificates/${c.id}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(PDF)).toBe(true);
    const page = await admin('GET', '/admin');
    expect(page.body).toContain(`/admin/api/withholding-certificates/${c.id}/receive`);
    const received = await admin('POST', `/admin/api/withholding-certificates/${c.id}/receive`, { by: 'staff' });
    expect(received.json().data).toMatchObject({ status: 'received', decided_by: 'staff' });
    expect(await withholdingOf(sid2, id)).toMatchObject({ can_upload: false, certificate: { status: 'received' } });
    expect((await upload(sid2, id)).body.error.code).toBe('WITHHOLDING_CERTIFICATE_RECEIVED');
    // A decision is taken once.
    expect((await admin('POST', `/admin/api/withholding-certificates/${c.id}/reject`, { reason: 'late' })).statusCode).toBe(409);
  });

  it('rejects one with a reason (a reason is required); the buyer sees why and uploads another', async () => {
    const id = await companyOrder();
    await pay(t, id);
    const c = (await upload(sid2, id)).body.data as { id: number };
    expect((await admin('POST', `/admin/api/withholding-certificates/${c.id}/reject`, { reason: ' ' })).statusCode).toBe(400);
    const rejected = await admin('POST', `/admin/api/withholding-certificates/${c.id}/reject`, { reason: 'ลายมือชื่อไม่ครบ' });
    expect(rejected.json().data).toMatchObject({ status: 'rejected', reason: 'ลายมือชื่อไม่ครบ' });
    expect(await withholdingOf(sid2, id)).toMatchObject({ can_upload: true, certificate: { status: 'rejected', reason: 'ลายมือชื่อไม่ครบ' } });
    expect((await upload(sid2, id)).status).toBe(201);
    expect((await admin('POST', '/admin/api/withholding-certificates/999999/receive')).statusCode).toBe(404);
  });

  it('tells the buyer’s open order list (the order’s event) when the shop decides', async () => {
    const id = await companyOrder();
    await pay(t, id);
    const c = (await upload(sid2, id)).body.data as { id: number };
    const seen: number[] = [];
    const off = t.app.ctx.events.on('order.statusChanged', (e) => seen.push(e.orderId));
    await admin('POST', `/admin/api/withholding-certificates/${c.id}/receive`);
    off();
    expect(seen).toEqual([id]);
  });
});
