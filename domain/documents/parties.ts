/**
 * The seller and the buyer as a full tax invoice names them (Revenue Code s.86/4: name, address,
 * taxpayer id; the branch of a VAT-registered company: head office "00000" or a 5-digit branch
 * number, Director-General notice on tax invoices).
 */
import { isJuristicPerson, normalizeTaxId, isValidTaxId } from '../tax';
import type { TaxInfo } from '../types';
import { HEAD_OFFICE_BRANCH } from './kinds';

/** The shop's own details (site settings `seller`). */
export interface SellerDetails {
  name: string;
  name_en?: string | null;
  address: string;
  address_en?: string | null;
  /** 13-digit taxpayer id. */
  tax_id: string;
  /** 5-digit branch number; "00000" = head office. */
  branch: string;
  tel?: string | null;
  email?: string | null;
}

export interface BuyerParty {
  person_type: 'juristic_person' | 'normal_person';
  name: string;
  tax_id: string | null;
  /** 5-digit branch number ("00000" head office) when given as a number, else null. */
  branch: string | null;
  /** The branch as the buyer wrote it when it is a name ("สาขาสีลม"), else null. */
  branch_name: string | null;
  address: string | null;
  delivery_address: string | null;
  email: string | null;
}

const HEAD_OFFICE_WORDS = /^(สำนักงานใหญ่|สนญ\.?|head ?office|ho)$/iu;

/** "สำนักงานใหญ่", "Head office", "0" … → "00000"; "00012", "12" → "00012"; else null (a branch name). */
export function branchCode(raw: string | null | undefined): string | null {
  const v = (raw ?? '').trim();
  if (v === '') return null;
  if (HEAD_OFFICE_WORDS.test(v)) return HEAD_OFFICE_BRANCH;
  const digits = v.replace(/^(สาขา(ที่)?|branch( no\.?)?)\s*/iu, '');
  if (/^\d{1,5}$/u.test(digits)) return digits.padStart(5, '0');
  return null;
}

/**
 * Which seller fields are missing or wrong (empty list = complete). Production refuses to start
 * with tax invoices enabled and an incomplete seller.
 */
export function sellerProblems(s: Partial<SellerDetails> | null | undefined): string[] {
  const out: string[] = [];
  if (!s || (s.name ?? '').trim() === '') out.push('seller.name');
  if (!s || (s.address ?? '').trim() === '') out.push('seller.address');
  if (!s || !isValidTaxId(s.tax_id ?? '')) out.push('seller.tax_id (13 digits with a valid check digit)');
  if (!s || !/^\d{5}$/u.test(s.branch ?? '')) out.push('seller.branch (5 digits, 00000 = head office)');
  return out;
}

/** The buyer from the tax profile (users.tax_*) and the account's name, e-mail and address. */
export function buyerParty(tax: TaxInfo, account: { firstname: string; lastname: string; email: string | null; address: string | null }, withTaxData: boolean): BuyerParty {
  const juristic = isJuristicPerson(tax.tax_person_type);
  const one = (tax.tax_name_one ?? '').trim();
  const two = (tax.tax_name_two ?? '').trim();
  const accountName = `${account.firstname} ${account.lastname}`.trim();
  if (!withTaxData) {
    return { person_type: 'normal_person', name: accountName, tax_id: null, branch: null, branch_name: null, address: account.address, delivery_address: null, email: account.email };
  }
  const elsewhere = tax.tax_is_delivery_by_tax_address === false || tax.tax_is_delivery_by_tax_address === 0 || tax.tax_is_delivery_by_tax_address === '0';
  const code = juristic ? branchCode(two) : null;
  return {
    person_type: juristic ? 'juristic_person' : 'normal_person',
    name: juristic ? one || accountName : `${one} ${two}`.trim() || accountName,
    tax_id: tax.tax_payer_identification_no ? normalizeTaxId(tax.tax_payer_identification_no) : null,
    branch: juristic ? (code ?? null) : null,
    branch_name: juristic && code === null && two !== '' ? two : null,
    address: (tax.tax_address ?? '').trim() || account.address,
    delivery_address: elsewhere ? (tax.tax_delivery_address ?? '').trim() || null : null,
    email: account.email,
  };
}
