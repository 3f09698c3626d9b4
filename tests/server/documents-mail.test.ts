// The paid e-mail carries the receipt / tax invoice as PDF (read back from the outbox's .eml with
// pdftotext), in the buyer's language; the back office's re-send attaches the same PDF; a refund
// of a paid order made through the back office's HTTP route issues the credit note linking the
// invoice; the e-Tax XML inside the PDF carries an XAdES-BES signature (verified with xadesjs).
import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appForFile, call, idemKey, testApp, type TestApp } from './support/app';
import { addCourse1070, pay, pdfAttachments, pdfText } from './support/documents';
import { documentsOfOrder } from '../../server/documents/repository';
import { sendPaidMail } from '../../server/documents/mail';
import { verifySignedXml } from '../../server/documents/signing';
import type { SentMail } from '../../server/mail';
import { orderNumber } from '../../domain/order-outcome';

let t: TestApp;
let sid2: string; // student2 (user 3): juristic person, tax invoice data complete
let sid: string; // student (user 2): natural person
let n = 0;
const ADMIN = { authorization: 'Bearer admin-dev-token' };
const flat = (s: string) => s.replace(/\s+/gu, ' ');

appForFile(() => testApp({ payments: true }), ['student', 'student2'], async (app, [c0, c1]) => {
  t = app;
  sid = c0;
  sid2 = c1;
  // The paid e-mail goes to verified addresses only (the mail guard's 'notice').
  await t.db.query('UPDATE users SET email_verified_at = $1 WHERE id = 3', [t.clock.now()]);
});

async function order(cookie: string, userId: number, lang: 'th' | 'en' = 'th', extra: Record<string, unknown> = {}): Promise<number> {
  const course = await addCourse1070(t, `mail-course-${++n}`);
  const r = await call(t.app, 'createOrder', {
    cookie,
    headers: { 'idempotency-key': idemKey(), 'accept-language': lang },
    body: { user_id: userId, course_id: [course.courseId], pricingplan_id: [course.planId], payment_method_id: 1, currency_code: 'THB', ...extra },
  });
  if (r.status !== 201) throw new Error(`createOrder ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.orderId as number;
}

/** The outbox message with this tag whose subject names the text, waiting for it (mails go out after the commit). */
async function mailOf(tag: string, subjectHas: string, timeoutMs = 120_000): Promise<SentMail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const m = t.app.ctx.mail.list().find((x) => x.tag === tag && x.subject.includes(subjectHas));
    if (m) return m;
    if (Date.now() > until) throw new Error(`no ${tag} mail about ${subjectHas}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The attachments of an RFC 822 message as nodemailer writes it (multipart/mixed, base64 parts). */
function emlAttachments(eml: string): Map<string, { type: string; bytes: Buffer }> {
  const boundary = /boundary="?([^";\r\n]+)"?/u.exec(eml)?.[1];
  if (!boundary) return new Map();
  const out = new Map<string, { type: string; bytes: Buffer }>();
  for (const part of eml.split(`--${boundary}`)) {
    const split = part.indexOf('\n\n');
    if (split < 0) continue;
    const head = part.slice(0, split).replace(/\n[ \t]+/gu, ' ');
    const name = /filename="?([^";\n]+)"?/u.exec(head)?.[1];
    if (!name) continue;
    const type = /Content-Type:\s*([^;\n]+)/iu.exec(head)?.[1]?.trim() ?? '';
    expect(head).toMatch(/Content-Transfer-Encoding: base64/iu);
    out.set(name, { type, bytes: Buffer.from(part.slice(split + 2).replace(/\s+/gu, ''), 'base64') });
  }
  return out;
}

const emlOf = (m: SentMail) => readFileSync(join(t.dirs.outbox, m.file), 'utf8');

// Each test renders, signs and mails PDFs: generous on a shared machine.
vi.setConfig({ testTimeout: 240_000 });

describe('the paid e-mail', () => {
  it('carries the receipt and the tax invoice as PDF, in Thai for a buyer who ordered in Thai', async () => {
    const id = await order(sid2, 3, 'th', { is_withholding: true, withholding_percent: 3 });
    await pay(t, id);
    const docs = await documentsOfOrder(t.db, id);
    const inv = docs.find((d) => d.kind === 'tax_invoice')!;
    const rc = docs.find((d) => d.kind === 'receipt')!;
    const m = await mailOf('paid', orderNumber(id));
    expect(m.to).toBe('student2@example.com');
    expect(m.subject).toContain('ได้รับชำระเงินแล้ว');
    expect(m.text).toContain(`ใบกำกับภาษี ${inv.number}`);
    expect(m.attachments).toEqual([
      { filename: `${rc.number}.pdf`, contentType: 'application/pdf', size: expect.any(Number) as number },
      { filename: `${inv.number}.pdf`, contentType: 'application/pdf', size: expect.any(Number) as number },
    ]);
    const files = emlAttachments(emlOf(m));
    expect([...files.keys()]).toEqual([`${rc.number}.pdf`, `${inv.number}.pdf`]);
    const pdf = files.get(`${inv.number}.pdf`)!;
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = flat(pdfText(pdf.bytes));
    for (const s of ['ใบกำกับภาษี', inv.number, '1,070.00', 'ยอดรับชำระ 1,040.00']) expect(text, s).toContain(s);
    expect(flat(pdfText(files.get(`${rc.number}.pdf`)!.bytes))).toContain(rc.number);
    // The e-Tax XML inside the mailed PDF is signed (the demo shop's certificate) and verifies.
    const xml = pdfAttachments(pdf.bytes).get('ETDA-invoice.xml')!;
    expect(xml).toContain('<ds:Signature');
    expect(xml).toContain('xades:SigningCertificate');
    expect(await verifySignedXml(xml)).toBe(true);
    // Counted as sent in the back office's list (right after the mail is written).
    await expect.poll(async () => (await documentsOfOrder(t.db, id)).map((d) => d.sent_count), { timeout: 60_000 }).toEqual([1, 1]);
  });

  it('is in English, with the English PDF, for a buyer who ordered in English', async () => {
    const id = await order(sid2, 3, 'en', { is_withholding: true, withholding_percent: 1 });
    await pay(t, id);
    const inv = (await documentsOfOrder(t.db, id)).find((d) => d.kind === 'tax_invoice')!;
    const m = await mailOf('paid', orderNumber(id));
    expect(m.subject).toBe(`Payment received, order ${orderNumber(id)}`);
    const pdf = emlAttachments(emlOf(m)).get(`${inv.number}-en.pdf`)!;
    const text = flat(pdfText(pdf.bytes));
    for (const s of ['Tax invoice', inv.number, 'Amount received 1,060.00']) expect(text, s).toContain(s);
  });

  it('is not sent to an address its owner has not verified; the documents stay downloadable', async () => {
    await t.db.query('UPDATE users SET email_verified_at = NULL WHERE id = 2');
    const id = await order(sid, 2);
    await pay(t, id);
    expect(await sendPaidMail(t.app.ctx, id)).toBe('unverified');
    expect(t.app.ctx.mail.list().filter((x) => x.tag === 'paid' && x.subject.includes(orderNumber(id)))).toEqual([]);
    expect((await documentsOfOrder(t.db, id)).map((d) => [d.kind, d.sent_count])).toEqual([['receipt', 0]]);
  });

  it('the back office re-sends a document with the same PDF attached', async () => {
    const id = await order(sid2, 3, 'th', { is_withholding: true, withholding_percent: 3 });
    await pay(t, id);
    await mailOf('paid', orderNumber(id));
    const inv = (await documentsOfOrder(t.db, id)).find((d) => d.kind === 'tax_invoice')!;
    const r = await t.app.inject({ method: 'POST', url: `/admin/api/documents/${inv.id}/resend`, headers: ADMIN });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ success: true, data: { result: 'sent', document: { id: inv.id, sent_count: 2 } } });
    const m = await mailOf('document', inv.number);
    const pdf = emlAttachments(emlOf(m)).get(`${inv.number}.pdf`)!;
    const text = flat(pdfText(pdf.bytes));
    for (const s of [inv.number, '1,070.00', 'ยอดรับชำระ 1,040.00']) expect(text, s).toContain(s);
  });
});

describe('a refund of a paid order from the back office', () => {
  it('issues the credit note in the refund’s transaction, linking the invoice it reduces (admin HTTP route)', async () => {
    const id = await order(sid2, 3, 'th', { is_withholding: true, withholding_percent: 3 });
    // Unpaid: nothing to refund.
    const early = await t.app.inject({ method: 'POST', url: `/admin/api/orders/${id}/refund`, headers: ADMIN, payload: { note: 'x' } });
    expect(early.statusCode).toBe(409);
    const ok = await t.app.inject({ method: 'POST', url: `/admin/api/orders/${id}/approve`, headers: ADMIN, payload: {} });
    expect(ok.statusCode).toBe(200);
    const inv = (await documentsOfOrder(t.db, id)).find((d) => d.kind === 'tax_invoice')!;

    const r = await t.app.inject({ method: 'POST', url: `/admin/api/orders/${id}/refund`, headers: ADMIN, payload: { note: 'buyer cancelled the course' } });
    expect(r.statusCode).toBe(200);
    const refund = (r.json() as { data: { refund: { id: number; status: string; reason: string; amount: number; kind: string }; repeated: boolean } }).data;
    // The money received goes back (1,070.00 less the 30.00 the buyer withheld); the credit note is
    // for the invoice's whole value.
    expect(refund).toMatchObject({ repeated: false, refund: { status: 'refunded', reason: 'order_refunded', amount: 104_000, kind: 'manual' } });
    const cn = (await documentsOfOrder(t.db, id)).find((d) => d.kind === 'credit_note')!;
    expect(cn).toMatchObject({ refund_id: refund.refund.id, credits_document_id: inv.id, amount: 107_000 });
    expect(cn.number).toMatch(/^CN-2026-\d{6}$/u);
    // Issued in the same transaction as the refund row: same commit time.
    const rows = await t.db.query<{ refund_at: Date; cn_at: Date }>('SELECT r.created_at AS refund_at, d.issued_at AS cn_at FROM refunds r JOIN documents d ON d.refund_id = r.id WHERE r.id = $1', [refund.refund.id]);
    expect(new Date(rows.rows[0]!.cn_at).getTime()).toBe(new Date(rows.rows[0]!.refund_at).getTime());

    // The credit note's PDF names the invoice it reduces.
    const pdf = await call(t.app, 'downloadDocumentPdf', { cookie: sid2, params: { documentId: cn.id } });
    expect(pdf.status).toBe(200);
    const text = flat(pdfText(pdf.raw.rawPayload));
    for (const s of ['ใบลดหนี้', cn.number, inv.number, 'มูลค่าตามเอกสารเดิม 1,070.00', 'ผลต่าง (ลดหนี้) 1,070.00']) expect(text, s).toContain(s);
    const xml = pdfAttachments(pdf.raw.rawPayload).get('ETDA-invoice.xml')!;
    expect(xml).toContain(`<ram:IssuerAssignedID>${inv.number}</ram:IssuerAssignedID>`);
    expect(await verifySignedXml(xml)).toBe(true);

    // Asked again: the same refund, no second credit note.
    const again = await t.app.inject({ method: 'POST', url: `/admin/api/orders/${id}/refund`, headers: ADMIN, payload: {} });
    expect(again.statusCode).toBe(200);
    expect((again.json() as { data: { repeated: boolean; refund: { id: number } } }).data).toMatchObject({ repeated: true, refund: { id: refund.refund.id } });
    expect((await documentsOfOrder(t.db, id)).filter((d) => d.kind === 'credit_note')).toHaveLength(1);
  });
});
