// Receipts, tax invoices and credit notes: issued in the transaction that marks the order paid,
// numbered without gaps, frozen, and rendered as PDF whose text (pdftotext) holds every field the
// Revenue Code asks and the exact amounts, with the e-Tax XML attached inside.
import { describe, expect, it } from 'vitest';
// @ts-expect-error jsdom ships no types here; only its DOMParser is used.
import { JSDOM } from 'jsdom';
import { appForFile, call, testApp, type TestApp } from './support/app';
import { addCourse1070, pay, pdfAttachments, pdfText, placeOrder } from './support/documents';
import { documentsOfOrder, type DocumentRow } from '../../server/documents/repository';
import { creditNoteForRefund, correctDocument, issueForPaidOrder } from '../../server/documents/service';
import { renderDocumentPdf } from '../../server/documents/pdf';
import { orderAction } from '../../server/admin/service';

let t: TestApp;
let sid: string; // student (2): natural person
let sid2: string; // student2 (3): juristic person, tax invoice data complete
let n = 0;

appForFile(testApp, ['student', 'student2'], (app, [c0, c1]) => { t = app; sid = c0; sid2 = c1; });

const docs = (orderId: number) => documentsOfOrder(t.db, orderId);
const byKind = (rows: DocumentRow[], kind: string) => rows.find((d) => d.kind === kind)!;
const flat = (s: string) => s.replace(/\s+/gu, ' ');

/** An order of a fresh 1070 THB / 53.50 USD course (a pending order holds its course). */
async function companyOrder(percent: 1 | 3, currency: 'THB' | 'USD' = 'THB'): Promise<number> {
  const course = await addCourse1070(t, `doc-course-${++n}`);
  return placeOrder(t, sid2, { user_id: 3, course_id: [course.courseId], pricingplan_id: [course.planId], is_withholding: true, withholding_percent: percent, currency_code: currency, payment_method_id: currency === 'USD' ? 2 : 1 });
}

describe('documents are states of the order', () => {
  it('an unpaid, cancelled or rejected order has none; paying issues a receipt and a tax invoice in the same transaction', async () => {
    const id = await companyOrder(3);
    expect(await issueForPaidOrder(t.db, id, t.clock.now())).toEqual([]);
    expect(await docs(id)).toEqual([]);
    await pay(t, id);
    const rows = await docs(id);
    expect(rows.map((d) => d.kind).sort()).toEqual(['receipt', 'tax_invoice']);
    expect(rows.every((d) => d.amount === 107_000 && d.currency === 'THB')).toBe(true);
    // Paying again (a repeated callback) issues nothing more.
    await pay(t, id);
    expect((await docs(id)).length).toBe(2);

    const cancelled = await companyOrder(3);
    await t.app.ctx.db.tx((q) => t.app.ctx.orders.cancelOrder(q, cancelled));
    expect(await issueForPaidOrder(t.db, cancelled, t.clock.now())).toEqual([]);
    const rejected = await companyOrder(3);
    await t.app.ctx.db.tx((q) => t.app.ctx.orders.rejectOrder(q, rejected, 'test'));
    expect(await docs(cancelled)).toEqual([]);
    expect(await docs(rejected)).toEqual([]);
  });

  it('a failed payment transaction issues nothing and gives its numbers back', async () => {
    const before = await t.db.query<{ last: number }>(`SELECT last FROM document_counters WHERE kind = 'receipt'`);
    const id = await companyOrder(3);
    await expect(
      t.app.ctx.db.tx(async (q) => {
        await t.app.ctx.orders.approveOrderPayment(q, { orderId: id, approveBy: 'test', paymentMethodId: 1 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await docs(id)).toEqual([]);
    const after = await t.db.query<{ last: number }>(`SELECT last FROM document_counters WHERE kind = 'receipt'`);
    expect(after.rows[0]!.last).toBe(before.rows[0]!.last);
  });

  it('an issued document is never edited nor deleted', async () => {
    const id = await companyOrder(3);
    await pay(t, id);
    const d = byKind(await docs(id), 'tax_invoice');
    await expect(t.db.query('UPDATE documents SET amount = 1 WHERE id = $1', [d.id])).rejects.toThrow(/never edited/);
    await expect(t.db.query(`UPDATE documents SET payload = '{}'::jsonb WHERE id = $1`, [d.id])).rejects.toThrow(/never edited/);
    await expect(t.db.query('DELETE FROM documents WHERE id = $1', [d.id])).rejects.toThrow(/never deleted/);
  });
});

describe('the PDF: every field of a full tax invoice and the exact amounts', () => {
  it('1070 THB, 3% withholding: 1,000.00 + VAT 70.00, 30.00 withheld, 1,040.00 received', async () => {
    const id = await companyOrder(3);
    await pay(t, id);
    const inv = byKind(await docs(id), 'tax_invoice');
    expect(inv.payload.amounts).toMatchObject({ before_vat: 100_000, vat: 7_000, grand_total: 107_000, withholding: 3_000, received: 104_000 });
    const text = flat(pdfText(await renderDocumentPdf(inv.payload)));
    for (const s of [
      'ใบกำกับภาษี',
      'บริษัท โรงเรียนออนไลน์ตัวอย่าง จำกัด', // seller name
      'ถนนพระราม 9', // seller address
      'เลขประจำตัวผู้เสียภาษีอากร 0105556012341',
      'สำนักงานใหญ่ (00000)',
      'บริษัท ตัวอย่าง จำกัด', // buyer name
      '1 ถนนสีลม', // buyer address
      '1101700203450', // buyer tax id
      inv.number,
      '(2026-03-02)',
      'คอร์สบัญชีภาษีสำหรับธุรกิจ',
      'มูลค่าสินค้า/บริการ (ก่อนภาษีมูลค่าเพิ่ม) 1,000.00',
      'ภาษีมูลค่าเพิ่ม 7% 70.00',
      'จำนวนเงินรวมทั้งสิ้น 1,070.00',
      'หักภาษี ณ ที่จ่าย 3% (ผู้ซื้อหักไว้) 30.00',
      'ยอดรับชำระ 1,040.00',
    ]) expect(text, s).toContain(s);
    expect(inv.number).toMatch(/^TI-2026-\d{6}$/u);
  });

  it('1% withholding: 10.00 withheld, 1,060.00 received', async () => {
    const id = await companyOrder(1);
    await pay(t, id);
    const text = flat(pdfText(await renderDocumentPdf(byKind(await docs(id), 'tax_invoice').payload)));
    expect(text).toContain('หักภาษี ณ ที่จ่าย 1% (ผู้ซื้อหักไว้) 10.00');
    expect(text).toContain('ยอดรับชำระ 1,060.00');
  });

  it('a USD order: 50.00 + VAT 3.50 = 53.50, 1.50 withheld, 52.00 received; English on request', async () => {
    const id = await companyOrder(3, 'USD');
    await pay(t, id);
    const inv = byKind(await docs(id), 'tax_invoice');
    expect(inv.currency).toBe('USD');
    const th = flat(pdfText(await renderDocumentPdf(inv.payload)));
    expect(th).toContain('จำนวนเงินรวมทั้งสิ้น 53.50');
    expect(th).toContain('ดอลลาร์สหรัฐ (USD)');
    const en = flat(pdfText(await renderDocumentPdf(inv.payload, { language: 'en' })));
    for (const s of ['Tax invoice', 'Demo Online School Co., Ltd.', 'Taxpayer ID 0105556012341', 'Head office (00000)', 'Value before VAT 50.00', 'VAT 7% 3.50', 'Grand total 53.50', 'Withholding tax 3% (withheld by the buyer) 1.50', 'Amount received 52.00', 'US dollars (USD)']) expect(en, s).toContain(s);
  });

  it('a book with shipping for a natural person: a receipt, shipping outside the VAT base', async () => {
    const id = await placeOrder(t, sid, { user_id: 2, course_id: [12], pricingplan_id: [22], courses: [{ course_id: 12, pricingplan_id: 22, qty: 2 }], shipping_address_id: 1, shipping_fee_id: 2 });
    await pay(t, id);
    const rows = await docs(id);
    expect(rows.map((d) => d.kind)).toEqual(['receipt']);
    const r = rows[0]!;
    // 2 × 450.00 = 900.00 (VAT incl.: 841.12 + 58.88), EMS 50.00 → 950.00
    expect(r.payload.amounts).toMatchObject({ gross: 90_000, base: 90_000, before_vat: 84_112, vat: 5_888, shipping: 5_000, grand_total: 95_000, received: 95_000 });
    const text = flat(pdfText(await renderDocumentPdf(r.payload)));
    for (const s of ['ใบเสร็จรับเงิน', r.number, 'สมชาย ใจดี', 'ค่าจัดส่ง 50.00', 'ภาษีมูลค่าเพิ่ม 7% 58.88', 'จำนวนเงินรวมทั้งสิ้น 950.00', 'ยอดรับชำระ 950.00', '450.00']) expect(text, s).toContain(s);
  });

  it('a natural person who asks for a tax invoice: citizen id, no branch', async () => {
    await t.db.query(
      `UPDATE users SET is_require_tax_invoice = true, tax_person_type = 'normal_person', tax_name_one = 'สมชาย', tax_name_two = 'ใจดี', tax_payer_identification_no = '1101700203450', tax_address = '99 ถนนสุขุมวิท กรุงเทพมหานคร 10110' WHERE id = 2`,
    );
    const course = await addCourse1070(t, `doc-course-${++n}`);
    const id = await placeOrder(t, sid, { user_id: 2, course_id: [course.courseId], pricingplan_id: [course.planId] });
    await pay(t, id);
    const inv = byKind(await docs(id), 'tax_invoice');
    const text = flat(pdfText(await renderDocumentPdf(inv.payload)));
    expect(text).toContain('เลขประจำตัวผู้เสียภาษีอากร / เลขประจำตัวประชาชน 1101700203450');
    expect(text).toContain('สมชาย ใจดี');
    expect(text).not.toContain('สาขาที่');
    await t.db.query(`UPDATE users SET is_require_tax_invoice = false, tax_name_one = NULL, tax_name_two = NULL, tax_payer_identification_no = NULL, tax_address = NULL WHERE id = 2`);
  });

  it('the e-Tax XML is attached inside the PDF, parses, and carries the same figures', async () => {
    const id = await companyOrder(3);
    await pay(t, id);
    const inv = byKind(await docs(id), 'tax_invoice');
    const files = pdfAttachments(await renderDocumentPdf(inv.payload));
    expect([...files.keys()]).toEqual(['ETDA-invoice.xml']);
    const xml = files.get('ETDA-invoice.xml')!;
    const dom = new new JSDOM('').window.DOMParser().parseFromString(xml, 'application/xml');
    expect(dom.getElementsByTagName('parsererror').length).toBe(0);
    const root = dom.documentElement;
    expect(root.localName).toBe('TaxInvoice_CrossIndustryInvoice');
    expect(root.namespaceURI).toBe('urn:etda:uncefact:data:standard:TaxInvoice_CrossIndustryInvoice:2');
    const one = (name: string) => dom.getElementsByTagName(`ram:${name}`)[0]?.textContent;
    expect(one('TypeCode')).toBe('388');
    expect(dom.getElementsByTagName('ram:ID')[1]?.textContent).toBe(inv.number);
    expect(one('TaxBasisTotalAmount')).toBe('1000.00');
    expect(one('TaxTotalAmount')).toBe('70.00');
    expect(one('GrandTotalAmount')).toBe('1070.00');
    expect(xml).toContain('<ram:ID schemeID="TXID">010555601234100000</ram:ID>');
    expect(xml).toContain('<ram:ID schemeID="TXID">110170020345000000</ram:ID>');
  });
});

describe('credit notes and corrections', () => {
  it('a refund of invoiced money gets a credit note linking the invoice; a duplicate-payment refund none', async () => {
    const id = await companyOrder(3);
    // Approved by hand in the back office: a Manual report records the money.
    await orderAction({ db: t.db, orders: t.app.ctx.orders, clock: t.clock, providers: null }, id, 'approve', 'test');
    const inv = byKind(await docs(id), 'tax_invoice');
    const refund = { id: 0, order_id: id, amount: 107_000, reason: 'order_refunded', status: 'refunded' };
    // A refunds row so the credit note can name it.
    const r = await t.db.query<{ id: number }>(
      `INSERT INTO refunds (order_id, report_id, provider, kind, status, amount, currency, reason, idempotency_key, requested_by)
       VALUES ($1, (SELECT id FROM payment_reports WHERE order_id = $1), 'bank_transfer', 'manual', 'refunded', 107000, 'THB', 'order_refunded', $2, 'test') RETURNING id`,
      [id, `test-refund-${id}`],
    );
    refund.id = r.rows[0]!.id;
    const cn = await t.db.tx((q) => creditNoteForRefund(q, refund, t.clock.now()));
    expect(cn).toMatchObject({ kind: 'credit_note', credits_document_id: inv.id, refund_id: refund.id, amount: 107_000 });
    expect(cn!.number).toMatch(/^CN-2026-\d{6}$/u);
    // Repeated: the same note.
    expect((await t.db.tx((q) => creditNoteForRefund(q, refund, t.clock.now())))!.id).toBe(cn!.id);
    const text = flat(pdfText(await renderDocumentPdf(cn!.payload)));
    for (const s of ['ใบลดหนี้', inv.number, 'มูลค่าตามเอกสารเดิม 1,070.00', 'มูลค่าที่ถูกต้อง 0.00', 'ผลต่าง (ลดหนี้) 1,070.00', 'ภาษีมูลค่าเพิ่ม 7% 70.00', 'คืนเงินค่าสินค้า/บริการ']) expect(text, s).toContain(s);
    const xml = pdfAttachments(await renderDocumentPdf(cn!.payload)).get('ETDA-invoice.xml')!;
    expect(xml).toContain('DebitCreditNote_CrossIndustryInvoice');
    expect(xml).toContain(`<ram:IssuerAssignedID>${inv.number}</ram:IssuerAssignedID>`);

    const dup = await t.db.tx((q) => creditNoteForRefund(q, { id: -1, order_id: id, amount: 107_000, reason: 'duplicate_payment', status: 'refunded' }, t.clock.now()));
    expect(dup).toBeNull();
  });

  it('a correction is a credit note plus a new invoice; the old one stays, marked', async () => {
    const id = await companyOrder(3);
    await pay(t, id);
    const inv = byKind(await docs(id), 'tax_invoice');
    await t.db.query(`UPDATE users SET tax_address = '2 ถนนสาทร กรุงเทพมหานคร 10120' WHERE id = 3`);
    const { credit_note, document } = await t.db.tx((q) => correctDocument(q, inv.id, 'correction', t.clock.now()));
    expect(credit_note.credits_document_id).toBe(inv.id);
    expect(document.kind).toBe('tax_invoice');
    expect(document.payload.replaces).toEqual({ document_id: inv.id, document_number: inv.number });
    expect(document.payload.buyer.address).toContain('ถนนสาทร');
    const old = (await docs(id)).find((d) => d.id === inv.id)!;
    expect(old.cancelled_by_id).toBe(credit_note.id);
    expect(old.payload.buyer.address).toContain('ถนนสีลม');
    await expect(t.db.tx((q) => correctDocument(q, inv.id, 'correction', t.clock.now()))).rejects.toThrow(/already replaced/);
    await t.db.query(`UPDATE users SET tax_address = '1 ถนนสีลม แขวงสีลม เขตบางรัก กรุงเทพมหานคร 10500' WHERE id = 3`);
  });
});

describe('numbering', () => {
  it('numbers of each kind are consecutive from 1, without gaps or doubles', async () => {
    const all = await t.db.query<{ kind: string; seq: number; number: string }>('SELECT kind, seq, number FROM documents ORDER BY kind, seq');
    for (const kind of ['receipt', 'tax_invoice', 'credit_note']) {
      const seqs = all.rows.filter((r) => r.kind === kind).map((r) => r.seq);
      expect(seqs, kind).toEqual(seqs.map((_, i) => i + 1));
    }
    expect(new Set(all.rows.map((r) => r.number)).size).toBe(all.rows.length);
  });
});

describe('the API: only the order’s owner reads its documents', () => {
  it('lists an order’s documents and downloads the PDF (Thai and English); another student gets 404', async () => {
    const id = await companyOrder(3);
    const none = await call(t.app, 'listOrderDocuments', { cookie: sid2, params: { orderId: id } });
    expect(none).toMatchObject({ status: 200, body: { success: true, data: [] } });
    await pay(t, id);
    const list = await call(t.app, 'listOrderDocuments', { cookie: sid2, params: { orderId: id } });
    expect(list.status).toBe(200);
    expect(list.body.data.map((d: { kind: string }) => d.kind)).toEqual(['receipt', 'tax_invoice']);
    const inv = list.body.data[1];
    expect(inv).toMatchObject({ currency_code: 'THB', amount: 107_000, received: 104_000, withholding: 3_000, credits: null, replaced_by_credit_note: null, pdf_url: `/private/documents/${inv.id}/pdf` });
    const pdf = await call(t.app, 'downloadDocumentPdf', { cookie: sid2, params: { documentId: inv.id } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(String(pdf.headers['content-disposition'])).toContain(`${inv.number}.pdf`);
    expect(flat(pdfText(pdf.raw.rawPayload))).toContain('ยอดรับชำระ 1,040.00');
    const en = await call(t.app, 'downloadDocumentPdf', { cookie: sid2, params: { documentId: inv.id }, query: { lang: 'en' } });
    expect(flat(pdfText(en.raw.rawPayload))).toContain('Amount received 1,040.00');

    expect((await call(t.app, 'listOrderDocuments', { cookie: sid, params: { orderId: id } })).status).toBe(404);
    expect((await call(t.app, 'downloadDocumentPdf', { cookie: sid, params: { documentId: inv.id } })).status).toBe(404);
    expect((await call(t.app, 'downloadDocumentPdf', { params: { documentId: inv.id } })).status).toBe(401);
  });
});
