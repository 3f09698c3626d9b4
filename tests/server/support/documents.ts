// Helpers for the documents tests: a 1070 THB / 53.50 USD course, paying an order through the
// order service, and reading a PDF back with Debian's poppler-utils (pdftotext, pdfdetach).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestApp } from './app';
import { call, idemKey } from './app';

/** A course priced 1070.00 THB / 53.50 USD (VAT included), copied from seeded course 5. */
export async function addCourse1070(t: TestApp, slug = 'doc-course-1070'): Promise<{ courseId: number; planId: number }> {
  const c = await t.db.query<{ id: number }>(
    `INSERT INTO courses (course_type, name, name_eng, link_path, category_id, instructor_id, status)
     SELECT course_type, 'คอร์สบัญชีภาษีสำหรับธุรกิจ', 'Tax accounting for business', $1, category_id, instructor_id, 1 FROM courses WHERE id = 5 RETURNING id`,
    [slug],
  );
  const courseId = c.rows[0]!.id;
  const p = await t.db.query<{ id: number }>(
    `INSERT INTO pricing_plans (course_id, name, plan_type, term, term_unit, price, price_usd, is_default) VALUES ($1, 'เรียนได้ 1 ปี', 'Period', 1, 'Year(s)', 107000, 5350, true) RETURNING id`,
    [courseId],
  );
  return { courseId, planId: p.rows[0]!.id };
}

export async function placeOrder(t: TestApp, cookie: string, body: Record<string, unknown>): Promise<number> {
  const r = await call(t.app, 'createOrder', { cookie, headers: { 'idempotency-key': idemKey() }, body: { payment_method_id: 1, currency_code: 'THB', ...body } });
  if (r.status !== 201) throw new Error(`createOrder ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.orderId as number;
}

/** Marks the order paid the way every payment path does (order service, one transaction). */
export async function pay(t: TestApp, orderId: number): Promise<void> {
  const ctx = t.app.ctx;
  await ctx.db.tx((q) => ctx.orders.approveOrderPayment(q, { orderId, approveBy: 'test', paymentMethodId: 1 }));
}

/** pdftotext of a PDF; -layout keeps each printed line (a label and its amount) together. */
export function pdfText(pdf: Uint8Array, layout = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-'));
  try {
    const f = join(dir, 'd.pdf');
    writeFileSync(f, pdf);
    return execFileSync('pdftotext', [...(layout ? ['-layout'] : []), '-enc', 'UTF-8', f, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The files attached inside a PDF (pdfdetach): name → content. */
export function pdfAttachments(pdf: Uint8Array): Map<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-'));
  try {
    const f = join(dir, 'd.pdf');
    writeFileSync(f, pdf);
    const list = execFileSync('pdfdetach', ['-list', f], { encoding: 'utf8' });
    const out = new Map<string, string>();
    const names = list.split('\n').slice(1).map((l) => l.replace(/^\d+:\s*/u, '').trim()).filter(Boolean);
    names.forEach((name, i) => {
      const target = join(dir, `a${i}`);
      execFileSync('pdfdetach', ['-save', String(i + 1), '-o', target, f]);
      out.set(name, readFileSync(target, 'utf8'));
    });
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
