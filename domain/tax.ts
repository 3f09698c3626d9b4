/**
 * Thai tax: VAT (prices include VAT, decisions.md #2), the tax-invoice threshold, withholding
 * tax 3% / 1% for juristic persons, and the 13-digit taxpayer id check digit (providers.md).
 *
 * Tax base (README "Decisions"): the goods and services of the order, price − discount,
 * shipping excluded; before VAT = base ÷ (1 + vat/100) rounded half up to the satang.
 * Both the 1000 THB / 30 USD threshold and the withholding base use that pre-VAT amount.
 */
import { divRoundHalfUp, percentOf, rateToScaled } from './money';
import type { Currency } from './money';
import { MSG, type Msg } from './messages';
import type { StudentTaxProfile, TaxInfo, TaxSettings } from './types';
import { isOn } from './values';

/** Thai VAT rate used when the site's vat_value is missing. */
export const DEFAULT_VAT_PERCENT = 7;
/** Spec 9: "Withholding 3% (default) or 1%". */
export const WITHHOLDING_PERCENTS = [3, 1] as const;
export type WithholdingPercent = (typeof WITHHOLDING_PERCENTS)[number];
export const DEFAULT_WITHHOLDING_PERCENT: WithholdingPercent = 3;
/** Spec 9: "Tax invoice and withholding threshold 1000 THB or 30 USD before VAT" (minor units). */
export const TAX_THRESHOLD: Readonly<Record<Currency, number>> = { THB: 100_000, USD: 3_000 };
export const TAX_ID_LENGTH = 13;

export function isVatEnabled(settings: TaxSettings): boolean {
  return isOn(settings.is_enable_vat);
}

/** The VAT rate in percent (vat_value, default 7). */
export function vatPercent(settings: TaxSettings): number {
  const v = settings.vat_value;
  return v === null || v === undefined || !Number.isFinite(v) || v < 0 ? DEFAULT_VAT_PERCENT : v;
}

/**
 * decisions.md #2: "Amount before VAT = price ÷ (1 + vat_value/100), rounded to the satang"
 * (half up) when VAT is enabled; the amount itself when it is not.
 */
export function amountBeforeVat(amount: number, settings: TaxSettings): number {
  if (!isVatEnabled(settings)) return amount;
  const scaled = rateToScaled(vatPercent(settings)); // vat × 1e6
  return Number(divRoundHalfUp(BigInt(amount) * 100_000_000n, 100_000_000n + scaled));
}

/** The VAT included in an amount (amount − amount before VAT). */
export function vatIncluded(amount: number, settings: TaxSettings): number {
  return amount - amountBeforeVat(amount, settings);
}

/** The order's tax base: price − discount, shipping excluded (minor units, VAT included). */
export function taxBase(order: { price: number; discount?: number | null }): number {
  return order.price - (order.discount ?? 0);
}

/** pre-VAT amount ≥ 1000 THB / 30 USD. */
export function meetsTaxThreshold(amount: number, currency: Currency, settings: TaxSettings): boolean {
  return amountBeforeVat(amount, settings) >= TAX_THRESHOLD[currency];
}

/**
 * Spec 5: "An order needs a tax invoice check when payable amount before VAT is 1000 THB or more
 * (30 USD in the USD layout)" — with the site's tax invoice enabled.
 */
export function needsTaxInvoiceCheck(amount: number, currency: Currency, settings: TaxSettings): boolean {
  return isOn(settings.is_enable_tax_invoice) && meetsTaxThreshold(amount, currency, settings);
}

/**
 * Spec 5: "Withholding is shown only when VAT and tax settings are enabled and the amount is 1000
 * or more". Tax settings = site tax invoice and withholding tax both enabled.
 */
export function isWithholdingOffered(amount: number, currency: Currency, settings: TaxSettings): boolean {
  return (
    isVatEnabled(settings) &&
    isOn(settings.is_enable_tax_invoice) &&
    isOn(settings.is_enable_withholding_tax) &&
    meetsTaxThreshold(amount, currency, settings)
  );
}

/** Any person type other than normal_person (and not empty) is a juristic person / company. */
export function isJuristicPerson(personType: string | null | undefined): boolean {
  return typeof personType === 'string' && personType !== '' && personType !== 'normal_person';
}

export type WithholdingEligibility = 'ok' | 'change_person_type' | 'cannot_load_student';

/**
 * Spec 5: "If withholding is chosen, the student must have a non-normal person type and
 * is_require_tax_invoice set, otherwise the change-person-type modal opens. If the student cannot
 * be loaded: 'ไม่สามารถดึงข้อมูลได้ กรุณาลองใหม่อีกครั้ง'." (null student = could not be loaded)
 */
export function withholdingEligibility(student: StudentTaxProfile | null | undefined): WithholdingEligibility {
  if (!student) return 'cannot_load_student';
  return isJuristicPerson(student.tax_person_type) && isOn(student.is_require_tax_invoice) ? 'ok' : 'change_person_type';
}

export function isWithholdingPercent(p: unknown): p is WithholdingPercent {
  return p === 3 || p === 1;
}

/**
 * Withholding tax on the pre-VAT amount, rounded half up: 3% (default) or 1%.
 * Throws RangeError for another rate.
 */
export function withholdingAmount(amountBeforeVatMinor: number, percent: number = DEFAULT_WITHHOLDING_PERCENT): number {
  if (!isWithholdingPercent(percent)) throw new RangeError(`withholding percent must be 3 or 1, got ${percent}`);
  return percentOf(amountBeforeVatMinor, percent);
}

/** Spec 5: "the tax-invoice option is locked while withholding is chosen" (and is on). */
export function taxInvoiceOption(withholdingChosen: boolean, requested: boolean): { checked: boolean; locked: boolean } {
  return withholdingChosen ? { checked: true, locked: true } : { checked: requested, locked: false };
}

export interface OrderTaxInput {
  /** Subtotal (VAT included), minor units. */
  price: number;
  discount?: number | null;
  currency: Currency;
  settings: TaxSettings;
  /** The buyer chose withholding. */
  withholding?: boolean;
  withholding_percent?: number | null;
  /** The student's tax profile; null when it could not be loaded. */
  student?: StudentTaxProfile | null;
}

export type OrderTax =
  | {
      ok: true;
      base: number;
      before_vat: number;
      vat: number;
      needs_tax_invoice: boolean;
      withholding_offered: boolean;
      withholding_percent: WithholdingPercent | null;
      withholding_price: number;
    }
  | { ok: false; code: 'withholding_not_offered' | WithholdingEligibility | 'withholding_percent'; message: Msg };

/**
 * All tax figures of an order, as the server (and the browser, to show them) compute them.
 * Withholding applies only when chosen, offered (isWithholdingOffered) and the student is eligible;
 * otherwise an error code says why.
 */
export function orderTax(input: OrderTaxInput): OrderTax {
  const base = taxBase(input);
  const before = amountBeforeVat(base, input.settings);
  const offered = isWithholdingOffered(base, input.currency, input.settings);
  let percent: WithholdingPercent | null = null;
  let withholding = 0;
  if (input.withholding) {
    if (!offered) return { ok: false, code: 'withholding_not_offered', message: MSG.WITHHOLDING_NOT_OFFERED };
    const eligibility = withholdingEligibility(input.student);
    if (eligibility === 'cannot_load_student') return { ok: false, code: eligibility, message: MSG.CANNOT_LOAD_DATA };
    if (eligibility !== 'ok') return { ok: false, code: eligibility, message: MSG.WITHHOLDING_NEEDS_JURISTIC };
    const p = input.withholding_percent ?? DEFAULT_WITHHOLDING_PERCENT;
    if (!isWithholdingPercent(p)) return { ok: false, code: 'withholding_percent', message: MSG.WITHHOLDING_PERCENT_INVALID };
    percent = p;
    withholding = withholdingAmount(before, p);
  }
  return {
    ok: true,
    base,
    before_vat: before,
    vat: base - before,
    needs_tax_invoice: needsTaxInvoiceCheck(base, input.currency, input.settings),
    withholding_offered: offered,
    withholding_percent: percent,
    withholding_price: withholding,
  };
}

// ---------------------------------------------------------------------------------------------
// 13-digit taxpayer / citizen id (providers.md "Thai tax")
// ---------------------------------------------------------------------------------------------

/**
 * Check digit of the first 12 digits: sum = Σ d[i]·(13−i); check = (11 − sum mod 11) mod 10.
 * taxIdCheckDigit('110170020345') = 0.
 */
export function taxIdCheckDigit(first12: string): number {
  if (!/^\d{12}$/u.test(first12)) throw new RangeError('need exactly 12 digits');
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (13 - i);
  return (11 - (sum % 11)) % 10;
}

/** Spaces and hyphens removed ("1-1017-00203-45-0" -> "1101700203450"). */
export function normalizeTaxId(raw: string): string {
  return raw.replace(/[\s-]/gu, '');
}

/** 13 digits with the right check digit (after normalizeTaxId). */
export function isValidTaxId(raw: string): boolean {
  const id = normalizeTaxId(raw);
  return /^\d{13}$/u.test(id) && taxIdCheckDigit(id.slice(0, 12)) === Number(id[12]);
}

export type TaxIdErrorCode = 'empty' | 'not_digits' | 'too_long' | 'too_short' | 'check_digit';
export type TaxIdCheck = { ok: true; value: string } | { ok: false; code: TaxIdErrorCode; message: Msg };

/**
 * Spec 5: "payer identification number of 13 digits (messages for empty, over-length,
 * too-short)" plus the check digit. Juristic wording (taxpayer id) by default; a normal person
 * gets the citizen-id wording ("Person and company wording differ").
 */
export function validateTaxId(raw: string | null | undefined, personType: string | null = 'juristic_person'): TaxIdCheck {
  const person = personType === 'normal_person';
  const m = person
    ? { empty: MSG.CITIZEN_ID_EMPTY, long: MSG.CITIZEN_ID_TOO_LONG, short: MSG.CITIZEN_ID_TOO_SHORT, digits: MSG.CITIZEN_ID_DIGITS_ONLY, check: MSG.CITIZEN_ID_CHECK_DIGIT }
    : { empty: MSG.TAX_ID_EMPTY, long: MSG.TAX_ID_TOO_LONG, short: MSG.TAX_ID_TOO_SHORT, digits: MSG.TAX_ID_DIGITS_ONLY, check: MSG.TAX_ID_CHECK_DIGIT };
  const id = normalizeTaxId(raw ?? '');
  if (id === '') return { ok: false, code: 'empty', message: m.empty };
  if (!/^\d+$/u.test(id)) return { ok: false, code: 'not_digits', message: m.digits };
  if (id.length > TAX_ID_LENGTH) return { ok: false, code: 'too_long', message: m.long };
  if (id.length < TAX_ID_LENGTH) return { ok: false, code: 'too_short', message: m.short };
  // The 13th digit is computed from the first 12 (taxIdCheckDigit): a mistyped digit is caught here, and the message says so.
  if (!isValidTaxId(id)) return { ok: false, code: 'check_digit', message: m.check };
  return { ok: true, value: id };
}

/** Spec 5: "Changing person type clears tax fields." Keeps the invoice request and delivery choice. */
export function changeTaxPersonType(info: TaxInfo, personType: string): TaxInfo {
  return {
    ...info,
    tax_person_type: personType,
    tax_name_one: '',
    tax_name_two: '',
    tax_payer_identification_no: '',
    tax_address: '',
    tax_delivery_address: '',
    tax_company_certificate: null,
  };
}
