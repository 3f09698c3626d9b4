/**
 * A document's PDF, made on the server with pdf-lib (+ @pdf-lib/fontkit) and the Sarabun font from
 * @fontsource/sarabun (shipped in node_modules; nothing is fetched). Text is real text, not
 * images: Thai runs use Sarabun's Thai subset, everything else its Latin subset (the package ships
 * the scripts as separate files). The font's `ccmp` feature is left off so that SARA AM (ำ) stays
 * one glyph and the text layer reads back exactly (pdftotext).
 *
 * The e-Tax data (server/documents/etax.ts) is attached as an embedded file the way PDF/A-3 does
 * it: an EmbeddedFile stream named in the catalog's EmbeddedFiles tree and listed in the catalog's
 * /AF array with AFRelationship /Data. Full PDF/A-3 conformance (an sRGB OutputIntent and XMP
 * identification) is not claimed.
 *
 * The callers (the download route, the documents' mail) import this module on their first
 * document: pdf-lib, fontkit and their tables are then evaluated by a process that makes one,
 * not by every server start.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PDFDocument, PDFHexString, PDFName, PDFString, rgb, type PDFArray, type PDFFont, type PDFPage } from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import { formatAmount, moneyLocaleOf } from '../../domain/money';
import { HEAD_OFFICE_BRANCH } from '../../domain/documents';
import type { DocumentPayload } from './payload';
import { etaxData, etaxXml, ETAX_FILE_NAME } from './etax';
import type { DocumentSigner } from './signing';
import { LABELS, REASONS, TITLES, type DocLanguage } from './labels';
import { woffToSfnt } from './woff';

const require = createRequire(import.meta.url);
let fontBytes: { thai: Uint8Array; latin: Uint8Array; thaiBold: Uint8Array; latinBold: Uint8Array } | null = null;
function fonts() {
  if (!fontBytes) {
    const dir = join(dirname(require.resolve('@fontsource/sarabun/package.json')), 'files');
    // unpacked from WOFF once here, not by fontkit on every glyph it reads (./woff.ts says why)
    const f = (n: string) => woffToSfnt(new Uint8Array(readFileSync(join(dir, `sarabun-${n}-normal.woff`))));
    fontBytes = { thai: f('thai-400'), latin: f('latin-400'), thaiBold: f('thai-700'), latinBold: f('latin-700') };
  }
  return fontBytes;
}

interface FontPair {
  thai: PDFFont;
  latin: PDFFont;
}

const THAI = /[\u0E00-\u0E7F]/u;
let thaiCoverage: { hasGlyphForCodePoint(cp: number): boolean } | null = null;
/** True when Sarabun's Thai file draws this character (space and some punctuation; not digits). */
function inThaiFont(ch: string): boolean {
  thaiCoverage ??= fontkit.create(Buffer.from(fonts().thai)) as unknown as { hasGlyphForCodePoint(cp: number): boolean };
  return thaiCoverage.hasGlyphForCodePoint(ch.codePointAt(0)!);
}

/**
 * Splits text into runs of Thai and non-Thai characters. A character the Thai file also draws
 * (a space) stays in a Thai run, so a run never ends on a Thai mark followed by a Latin glyph
 * at the same position (text extraction would misplace the mark).
 */
function runs(text: string): { thai: boolean; text: string }[] {
  const out: { thai: boolean; text: string }[] = [];
  for (const ch of text) {
    const last = out[out.length - 1];
    const thai = THAI.test(ch) || (last !== undefined && last.thai && !/[\p{L}\p{N}]/u.test(ch) && inThaiFont(ch));
    if (last && last.thai === thai) last.text += ch;
    else out.push({ thai, text: ch });
  }
  return out;
}

/** After a Thai run: a hair of space, so a final mark's origin is left of the next run's first glyph. */
const THAI_RUN_GAP = 0.05;

function width(text: string, f: FontPair, size: number): number {
  return runs(text).reduce((w, r, i, all) => w + (r.thai ? f.thai : f.latin).widthOfTextAtSize(r.text, size) + (r.thai && i < all.length - 1 ? THAI_RUN_GAP : 0), 0);
}

function draw(page: PDFPage, text: string, x: number, y: number, f: FontPair, size: number): void {
  let cx = x;
  for (const r of runs(text)) {
    const font = r.thai ? f.thai : f.latin;
    page.drawText(r.text, { x: cx, y, size, font, color: rgb(0.1, 0.1, 0.1) });
    cx += font.widthOfTextAtSize(r.text, size) + (r.thai ? THAI_RUN_GAP : 0);
  }
}

/** Word-wraps text to a width (Thai words found with Intl.Segmenter). */
function wrap(text: string, f: FontPair, size: number, max: number): string[] {
  const seg = new Intl.Segmenter('th', { granularity: 'word' });
  const lines: string[] = [];
  for (const para of text.split(/\n/u)) {
    let line = '';
    for (const { segment } of seg.segment(para)) {
      const next = line + segment;
      if (line !== '' && width(next, f, size) > max) {
        lines.push(line.trimEnd());
        line = segment.trimStart();
      } else line = next;
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

/** Attaches a file the PDF/A-3 way: EmbeddedFiles name tree + catalog /AF, AFRelationship /Data. */
function attachXml(doc: PDFDocument, name: string, xml: string, description: string, at: Date): void {
  const ctx = doc.context;
  const bytes = new TextEncoder().encode(xml);
  const stream = ctx.flateStream(bytes, { Type: 'EmbeddedFile', Subtype: 'application/xml', Params: { Size: bytes.length, ModDate: PDFString.fromDate(at) } });
  const streamRef = ctx.register(stream);
  const spec = ctx.obj({ Type: 'Filespec', F: PDFString.of(name), UF: PDFHexString.fromText(name), EF: { F: streamRef, UF: streamRef }, Desc: PDFHexString.fromText(description), AFRelationship: 'Data' });
  const specRef = ctx.register(spec);
  const names = ctx.obj({ EmbeddedFiles: { Names: [PDFString.of(name), specRef] } });
  doc.catalog.set(PDFName.of('Names'), names);
  doc.catalog.set(PDFName.of('AF'), ctx.obj([specRef]) as PDFArray);
}

export interface RenderOptions {
  language?: DocLanguage;
  /** Signs the attached e-Tax XML (XAdES-BES, server/documents/signing.ts); none: unsigned. */
  signer?: DocumentSigner | null;
}

/** The PDF of a document, from its frozen payload. */
export async function renderDocumentPdf(p: DocumentPayload, opts: RenderOptions = {}): Promise<Uint8Array> {
  const lang: DocLanguage = opts.language ?? 'th';
  const L = LABELS[lang];
  const fb = fonts();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const features = { ccmp: false };
  const reg: FontPair = { thai: await doc.embedFont(fb.thai, { subset: true, features }), latin: await doc.embedFont(fb.latin, { subset: true, features }) };
  const bold: FontPair = { thai: await doc.embedFont(fb.thaiBold, { subset: true, features }), latin: await doc.embedFont(fb.latinBold, { subset: true, features }) };
  const title = TITLES[lang][p.kind];
  const issued = new Date(p.issued_at);
  doc.setTitle(`${title} ${p.number}`);
  doc.setAuthor(p.seller.name);
  doc.setSubject(title);
  doc.setCreator('course-checkout documents');
  doc.setProducer('pdf-lib');
  doc.setLanguage(lang === 'th' ? 'th-TH' : 'en-US');
  doc.setCreationDate(issued);
  doc.setModificationDate(issued);

  const W = 595.28;
  const H = 841.89;
  const M = 40;
  let page = doc.addPage([W, H]);
  let y = H - M;
  const loc = moneyLocaleOf(lang);
  const money = (n: number) => formatAmount(n, loc);
  const ensure = (need: number) => {
    if (y - need < M + 40) {
      page = doc.addPage([W, H]);
      y = H - M;
    }
  };
  const text = (s: string, x: number, size = 10, f: FontPair = reg) => draw(page, s, x, y, f, size);
  const right = (s: string, xRight: number, size = 10, f: FontPair = reg) => draw(page, s, xRight - width(s, f, size), y, f, size);
  const para = (s: string, x: number, max: number, size = 10, f: FontPair = reg) => {
    for (const line of wrap(s, f, size, max)) {
      ensure(size + 4);
      draw(page, line, x, y, f, size);
      y -= size + 4;
    }
  };
  const branchText = (branch: string | null, name: string | null) => (branch === HEAD_OFFICE_BRANCH ? `${L.headOffice} (${HEAD_OFFICE_BRANCH})` : branch ? `${L.branch} ${branch}` : name ? `${L.branch} ${name}` : null);

  // Seller (left) and title (right).
  const sellerName = lang === 'en' && p.seller.name_en ? p.seller.name_en : p.seller.name;
  const sellerAddress = lang === 'en' && p.seller.address_en ? p.seller.address_en : p.seller.address;
  right(title, W - M, 20, bold);
  y -= 16;
  right(L.original, W - M, 9);
  y += 16;
  text(sellerName, M, 13, bold);
  y -= 17;
  para(sellerAddress, M, 300, 9);
  text(`${L.taxId} ${p.seller.tax_id}  ${branchText(p.seller.branch, null) ?? ''}`, M, 9);
  y -= 13;
  if (p.seller.tel || p.seller.email) {
    text([p.seller.tel, p.seller.email].filter(Boolean).join('  '), M, 9);
    y -= 13;
  }
  y -= 6;

  // Number, date, order.
  const dateText = new Intl.DateTimeFormat(lang === 'th' ? 'th-TH' : 'en-GB', { timeZone: 'Asia/Bangkok', day: 'numeric', month: 'long', year: 'numeric' }).format(issued);
  const info: [string, string][] = [
    [L.number, p.number],
    [L.date, `${dateText} (${p.date})`],
    [L.order, `#${p.order.id}`],
  ];
  if (p.order.payment_method) info.push([L.paymentMethod, p.order.payment_method]);
  if (p.replaces) info.push([L.replaces, p.replaces.document_number]);
  const infoTop = y;
  for (const [k, v] of info) {
    text(`${k}:`, W - M - 210, 10, bold);
    text(v, W - M - 130, 10);
    y -= 14;
  }
  const infoBottom = y;

  // Buyer.
  y = infoTop;
  const b = p.buyer;
  text(`${L.buyer}:`, M, 10, bold);
  y -= 14;
  para(b.name, M, 320, 10, bold);
  if (b.address) para(`${L.address}: ${b.address}`, M, 320, 9);
  if (b.tax_id) {
    text(`${b.person_type === 'juristic_person' ? L.taxId : L.citizenId} ${b.tax_id}`, M, 9);
    y -= 13;
  }
  const bb = b.person_type === 'juristic_person' ? branchText(b.branch, b.branch_name) : null;
  if (bb) {
    text(bb, M, 9);
    y -= 13;
  }
  if (b.delivery_address) para(`${L.deliveryAddress}: ${b.delivery_address}`, M, 320, 9);
  y = Math.min(y, infoBottom) - 10;

  // Items.
  const cols = { no: M, item: M + 28, qty: 340, unit: 410, disc: 460, amount: W - M };
  const rule = () => page.drawLine({ start: { x: M, y: y + 10 }, end: { x: W - M, y: y + 10 }, thickness: 0.6, color: rgb(0.5, 0.5, 0.5) });
  ensure(40);
  rule();
  y -= 4;
  text(L.no, cols.no, 9, bold);
  text(L.item, cols.item, 9, bold);
  right(L.qty, cols.qty, 9, bold);
  right(L.unitPrice, cols.unit, 9, bold);
  right(L.discount, cols.disc, 9, bold);
  right(`${L.amount} (${p.amounts.currency})`, cols.amount, 9, bold);
  y -= 14;
  rule();
  y -= 2;
  const a = p.amounts;
  if (p.credit) {
    const c = p.credit;
    ensure(20);
    text('1', cols.no, 9);
    const lines = wrap(`${L.creditOf} ${TITLES[lang][c.document_kind]} ${c.document_number} (${c.document_date})`, reg, 9, cols.qty - cols.item - 40);
    right('1', cols.qty, 9);
    right(money(c.amounts.credited), cols.unit, 9);
    right(money(0), cols.disc, 9);
    right(money(c.amounts.credited), cols.amount, 9);
    for (const l of lines) {
      text(l, cols.item, 9);
      y -= 13;
    }
  } else {
    for (const l of a.lines) {
      ensure(20);
      text(String(l.no), cols.no, 9);
      right(String(l.qty), cols.qty, 9);
      right(money(l.unit_price), cols.unit, 9);
      right(money(l.discount), cols.disc, 9);
      right(money(l.amount), cols.amount, 9);
      for (const line of wrap(l.name, reg, 9, cols.qty - cols.item - 40)) {
        text(line, cols.item, 9);
        y -= 13;
      }
    }
  }
  y -= 2;
  rule();
  y -= 10;

  // Totals.
  const row = (label: string, value: string, f: FontPair = reg, size = 10) => {
    ensure(16);
    right(label, W - M - 110, size, f);
    right(value, W - M, size, f);
    y -= size + 5;
  };
  if (p.credit) {
    const c = p.credit.amounts;
    row(L.originalValue, money(c.original_grand_total));
    row(L.correctValue, money(c.corrected_grand_total));
    row(L.difference, money(c.credited), bold);
    if (a.vat_charged) {
      row(L.creditBeforeVat, money(c.credited_before_vat));
      row(L.vat(a.vat_percent), money(c.credited_vat));
    }
    if (c.credited_shipping > 0) row(L.shipping, money(c.credited_shipping));
    y -= 4;
    text(`${L.creditReason}: ${REASONS[lang][p.credit.reason] ?? p.credit.reason}`, M, 10);
    y -= 14;
  } else {
    row(L.gross, money(a.gross));
    if (a.discount > 0) row(L.discount, money(a.discount));
    if (a.vat_charged) {
      row(L.beforeVat, money(a.before_vat));
      row(L.vat(a.vat_percent), money(a.vat));
      row(L.base, money(a.base));
    }
    if (a.shipping > 0) row(L.shipping, money(a.shipping));
    row(L.grandTotal, money(a.grand_total), bold, 11);
    if (a.withholding > 0 && a.withholding_percent !== null) {
      row(L.withholding(a.withholding_percent), money(a.withholding));
      row(L.received, money(a.received), bold, 11);
    } else if (p.kind === 'receipt') row(L.received, money(a.received), bold, 11);
    if (!a.vat_charged) {
      y -= 4;
      text(L.noVat, M, 9);
      y -= 13;
    }
  }
  y -= 2;
  text(L.currency(a.currency), M, 9);
  y -= 13;

  // Footer on every page.
  for (const pg of doc.getPages()) draw(pg, L.computer, M, M - 10, reg, 8);

  const xml = etaxXml(etaxData(p));
  attachXml(doc, ETAX_FILE_NAME, opts.signer ? await opts.signer.sign(xml, issued) : xml, `e-Tax Invoice & e-Receipt ${p.number}`, issued);
  return doc.save({ useObjectStreams: false });
}

/** The e-Tax XML of a document (also the file attached inside its PDF). */
export function documentXml(p: DocumentPayload): string {
  return etaxXml(etaxData(p));
}

