// The e-Tax XML attached inside each document's PDF (tax invoice, receipt, credit note; signed with
// the demo shop's certificate) validates against ETDA's published XML schema, version 2.1
// (tests/fixtures/etda-e-tax-2p1, see its README), with libxml2's validator (xmllint-wasm).
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tmpdir } from 'node:os';
import { validateXML } from 'xmllint-wasm';
import { appForFile, testApp, type TestApp } from './support/app';
import { addCourse1070, pay, pdfAttachments, placeOrder } from './support/documents';
import { documentsOfOrder } from '../../server/documents/repository';
import { correctDocument } from '../../server/documents/service';
import { renderDocumentPdf } from '../../server/documents/pdf';
import { ETAX_KIND } from '../../server/documents/etax';
import { verifySignedXml } from '../../server/documents/signing';
import type { DocumentKind } from '../../domain/documents';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'etda-e-tax-2p1');
const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : f.endsWith('.xsd') ? [join(d, f)] : []));
const files = walk(SCHEMAS).map((f) => ({ fileName: relative(SCHEMAS, f), contents: readFileSync(f) }));

async function schemaErrors(kind: DocumentKind, xml: string): Promise<string[]> {
  const root = `ETDA/data/standard/${ETAX_KIND[kind].root}_2p1.xsd`;
  const r = await validateXML({ xml: [{ fileName: `${kind}.xml`, contents: xml }], schema: files.filter((f) => f.fileName === root), preload: files.filter((f) => f.fileName !== root), maxMemoryPages: 16384 });
  if (!r.valid) writeFileSync(join(tmpdir(), `etax-${kind}.xml`), xml);
  return r.valid ? [] : r.errors.map((e) => e.rawMessage);
}

let t: TestApp;
let sid2: string;

appForFile(testApp, ['student2'], (app, [c]) => { t = app; sid2 = c; });

describe('the e-Tax XML against ETDA’s schema 2.1', () => {
  it('the schema set itself accepts ETDA’s own example tax invoice (the validator works)', async () => {
    const example = readFileSync(join(SCHEMAS, 'Example_TaxInvoice_2p1_v1.xml'), 'utf8');
    expect(await schemaErrors('tax_invoice', example)).toEqual([]);
    expect(await schemaErrors('tax_invoice', example.replace('<ram:TypeCode>388</ram:TypeCode>', '<ram:TypeCode>999</ram:TypeCode>'))).not.toEqual([]);
  }, 120_000);

  it('a tax invoice, a receipt and a credit note validate, signed, with ETDA’s type codes 388, T01 and 81', async () => {
    const course = await addCourse1070(t, 'schema-course');
    const id = await placeOrder(t, sid2, { user_id: 3, course_id: [course.courseId], pricingplan_id: [course.planId], is_withholding: true, withholding_percent: 3 });
    await pay(t, id);
    const docs = await documentsOfOrder(t.db, id);
    const inv = docs.find((d) => d.kind === 'tax_invoice')!;
    const { credit_note: cn } = await t.db.tx((q) => correctDocument(q, inv.id, 'correction', t.clock.now()));
    const signer = t.app.ctx.documentSigner;
    expect(signer).toBeTruthy();
    for (const [d, code] of [[inv, '388'], [docs.find((x) => x.kind === 'receipt')!, 'T01'], [cn, '81']] as const) {
      const xml = pdfAttachments(await renderDocumentPdf(d.payload, { signer })).get('ETDA-invoice.xml')!;
      expect(xml, d.kind).toContain(`>${code}</ram:TypeCode>`);
      expect(await verifySignedXml(xml), d.kind).toBe(true);
      expect(await schemaErrors(d.kind, xml), d.kind).toEqual([]);
    }
  }, 240_000);
});
