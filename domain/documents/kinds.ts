/**
 * The shop's documents: which ones an order gets, their numbers and their titles.
 *
 *  - receipt (ใบเสร็จรับเงิน): every paid order that received money.
 *  - tax_invoice (ใบกำกับภาษีเต็มรูป): a paid order whose buyer asked for a tax invoice, when the
 *    site issues tax invoices.
 *  - credit_note (ใบลดหนี้): a refund of money an issued document covered; it names the document it
 *    reduces. Documents are never edited: a correction is a credit note plus a new invoice.
 *
 * One number sequence per kind and calendar year (Asia/Bangkok), without gaps: RC-2026-000001.
 */
import type { Flag } from '../types';
import { isOn } from '../values';

export const DOCUMENT_KINDS = ['receipt', 'tax_invoice', 'credit_note'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const DOCUMENT_PREFIX: Readonly<Record<DocumentKind, string>> = { receipt: 'RC', tax_invoice: 'TI', credit_note: 'CN' };

/** The Revenue Code's head-office branch code (5 digits). */
export const HEAD_OFFICE_BRANCH = '00000';

export function isDocumentKind(v: unknown): v is DocumentKind {
  return v === 'receipt' || v === 'tax_invoice' || v === 'credit_note';
}

/** "TI-2026-000042": prefix, year, 6-digit sequence (wider when the year passes 999999). */
export function documentNumber(kind: DocumentKind, year: number, seq: number): string {
  if (!Number.isSafeInteger(seq) || seq < 1) throw new RangeError(`sequence must be a positive integer, got ${seq}`);
  if (!Number.isSafeInteger(year) || year < 2000 || year > 9999) throw new RangeError(`year out of range: ${year}`);
  return `${DOCUMENT_PREFIX[kind]}-${year}-${String(seq).padStart(6, '0')}`;
}

/** The calendar year of an instant in Thailand (UTC+7, no daylight saving). */
export function bangkokYear(at: Date): number {
  return new Date(at.getTime() + 7 * 3_600_000).getUTCFullYear();
}

/** The date of an instant in Thailand, YYYY-MM-DD. */
export function bangkokDate(at: Date): string {
  return new Date(at.getTime() + 7 * 3_600_000).toISOString().slice(0, 10);
}

export interface PaidOrderFacts {
  /** The money the order asked for (grand total: goods + shipping, VAT included). */
  grand_total: number;
  /** The buyer asked for a tax invoice on this order. */
  is_require_tax_invoice: Flag;
  /** The site issues tax invoices (is_enable_tax_invoice). */
  tax_invoice_enabled: Flag;
}

/** The documents a paid order gets, in issue order. A free order (nothing to receive) gets none. */
export function documentsForPaidOrder(o: PaidOrderFacts): DocumentKind[] {
  if (o.grand_total <= 0) return [];
  const kinds: DocumentKind[] = ['receipt'];
  if (isOn(o.is_require_tax_invoice) && isOn(o.tax_invoice_enabled)) kinds.push('tax_invoice');
  return kinds;
}

/** Why a refund gets a credit note: it gives back money an issued document covered. */
export const NO_CREDIT_NOTE_REASONS: readonly string[] = ['duplicate_payment'];

export function refundNeedsCreditNote(reason: string, hasIssuedDocument: boolean): boolean {
  return hasIssuedDocument && !NO_CREDIT_NOTE_REASONS.includes(reason);
}
