import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  amountBeforeVat,
  changeTaxPersonType,
  isJuristicPerson,
  isValidTaxId,
  isWithholdingOffered,
  meetsTaxThreshold,
  needsTaxInvoiceCheck,
  normalizeTaxId,
  orderTax,
  taxBase,
  taxIdCheckDigit,
  taxInvoiceOption,
  validateTaxId,
  vatIncluded,
  vatPercent,
  withholdingAmount,
  withholdingEligibility,
  DEFAULT_WITHHOLDING_PERCENT,
} from '../../domain/tax';
import type { TaxSettings } from '../../domain/types';
import { MSG, renderShown } from '../../domain/messages';

const RUNS = { numRuns: 1000 };
const on: TaxSettings = { vat_value: 7, is_enable_vat: true, is_enable_tax_invoice: true, is_enable_withholding_tax: true };
const noVat: TaxSettings = { ...on, is_enable_vat: false };

describe('decisions.md #2 "Amount before VAT = price ÷ (1 + vat_value/100), rounded to the satang" (prices include VAT)', () => {
  it.each<[number, TaxSettings, number]>([
    [107000, on, 100000],
    [100000, on, 93458], // 93457.94 -> 93458
    [99999, on, 93457], // 93457.009 -> 93457
    [0, on, 0],
    [100000, noVat, 100000],
    [110000, { ...on, vat_value: 10 }, 100000],
    [107250, { ...on, vat_value: 7.25 }, 100000],
    [107000, { ...on, vat_value: null }, 100000], // missing vat_value -> 7
  ])('amountBeforeVat(%i) = %i', (amount, settings, expected) => {
    expect(amountBeforeVat(amount, settings)).toBe(expected);
  });

  it('VAT included and the rate', () => {
    expect(vatIncluded(107000, on)).toBe(7000);
    expect(vatIncluded(107000, noVat)).toBe(0);
    expect(vatPercent({ vat_value: -1 })).toBe(7);
    expect(vatPercent({ vat_value: 10 })).toBe(10);
    expect(taxBase({ price: 120000, discount: 13000 })).toBe(107000);
    expect(taxBase({ price: 120000 })).toBe(120000);
  });

  it('property: before-VAT + VAT = amount and before-VAT ≤ amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), fc.integer({ min: 0, max: 30 }), (amount, vat) => {
        const s = { ...on, vat_value: vat };
        const before = amountBeforeVat(amount, s);
        expect(before + vatIncluded(amount, s)).toBe(amount);
        expect(before).toBeLessThanOrEqual(amount);
        // rounded to the nearest satang: |before × (100+vat) − amount × 100| ≤ (100+vat)/2
        expect(Math.abs(before * (100 + vat) - amount * 100)).toBeLessThanOrEqual((100 + vat) / 2);
      }),
      RUNS,
    );
  });
});

describe('spec 5 "An order needs a tax invoice check when payable amount before VAT is 1000 THB or more (30 USD in the USD layout)"', () => {
  it.each<[number, 'THB' | 'USD', TaxSettings, boolean]>([
    [107000, 'THB', on, true], // 1,000.00 before VAT
    [106999, 'THB', on, false], // 999.99
    [100000, 'THB', noVat, true],
    [99999, 'THB', noVat, false],
    [3210, 'USD', on, true], // 30.00 before VAT
    [3209, 'USD', on, false],
    [500000, 'THB', { ...on, is_enable_tax_invoice: false }, false],
  ])('needsTaxInvoiceCheck(%i %s) = %j', (amount, currency, settings, expected) => {
    expect(needsTaxInvoiceCheck(amount, currency, settings)).toBe(expected);
  });

  it('meetsTaxThreshold ignores the tax-invoice switch', () => {
    expect(meetsTaxThreshold(500000, 'THB', { ...on, is_enable_tax_invoice: false })).toBe(true);
  });
});

describe('spec 5 "Withholding is shown only when VAT and tax settings are enabled and the amount is 1000 or more; legal entities only"', () => {
  it.each<[string, number, TaxSettings, boolean]>([
    ['all on, 1,000.00 before VAT', 107000, on, true],
    ['below the threshold', 106999, on, false],
    ['VAT off', 500000, noVat, false],
    ['tax invoice off', 500000, { ...on, is_enable_tax_invoice: false }, false],
    ['withholding off', 500000, { ...on, is_enable_withholding_tax: 0 }, false],
  ])('%s -> offered %j', (_rule, amount, settings, expected) => {
    expect(isWithholdingOffered(amount, 'THB', settings)).toBe(expected);
  });

  it.each([
    [null, 'cannot_load_student'],
    [{ tax_person_type: 'juristic_person', is_require_tax_invoice: true }, 'ok'],
    [{ tax_person_type: 'company_limited', is_require_tax_invoice: 1 }, 'ok'],
    [{ tax_person_type: 'normal_person', is_require_tax_invoice: true }, 'change_person_type'],
    [{ tax_person_type: 'juristic_person', is_require_tax_invoice: false }, 'change_person_type'],
    [{ tax_person_type: null, is_require_tax_invoice: true }, 'change_person_type'],
  ] as const)('"the student must have a non-normal person type and is_require_tax_invoice set": %j -> %s', (student, expected) => {
    expect(withholdingEligibility(student)).toBe(expected);
  });

  it.each([
    [100000, 3, 3000],
    [100000, 1, 1000],
    [93458, 3, 2804], // 2803.74 -> 2804
    [50, 1, 1], // 0.5 -> 1 (half up)
  ])('withholding on %i at %i%% = %i (3%% default, 1%%)', (base, percent, expected) => {
    expect(withholdingAmount(base, percent)).toBe(expected);
  });

  it('3% is the default; other rates are refused', () => {
    expect(DEFAULT_WITHHOLDING_PERCENT).toBe(3);
    expect(withholdingAmount(100000)).toBe(3000);
    expect(() => withholdingAmount(100000, 5)).toThrow(RangeError);
  });

  it('"the tax-invoice option is locked while withholding is chosen"', () => {
    expect(taxInvoiceOption(true, false)).toEqual({ checked: true, locked: true });
    expect(taxInvoiceOption(false, false)).toEqual({ checked: false, locked: false });
    expect(taxInvoiceOption(false, true)).toEqual({ checked: true, locked: false });
  });

  it('isJuristicPerson', () => {
    expect(isJuristicPerson('juristic_person')).toBe(true);
    expect(isJuristicPerson('normal_person')).toBe(false);
    expect(isJuristicPerson('')).toBe(false);
    expect(isJuristicPerson(null)).toBe(false);
  });
});

describe('orderTax: base = price − discount, pre-VAT base, withholding', () => {
  const juristic = { tax_person_type: 'juristic_person', is_require_tax_invoice: true };
  it('no withholding', () => {
    expect(orderTax({ price: 120000, discount: 13000, currency: 'THB', settings: on })).toEqual({
      ok: true,
      base: 107000,
      before_vat: 100000,
      vat: 7000,
      needs_tax_invoice: true,
      withholding_offered: true,
      withholding_percent: null,
      withholding_price: 0,
    });
  });

  it('withholding 3% (default) and 1% on the pre-VAT amount', () => {
    expect(orderTax({ price: 107000, currency: 'THB', settings: on, withholding: true, student: juristic })).toMatchObject({ ok: true, withholding_percent: 3, withholding_price: 3000 });
    expect(orderTax({ price: 107000, currency: 'THB', settings: on, withholding: true, withholding_percent: 1, student: juristic })).toMatchObject({ ok: true, withholding_percent: 1, withholding_price: 1000 });
  });

  it.each([
    [{ price: 50000 }, juristic, 'withholding_not_offered'],
    [{ price: 107000 }, null, 'cannot_load_student'],
    [{ price: 107000 }, { tax_person_type: 'normal_person', is_require_tax_invoice: true }, 'change_person_type'],
    [{ price: 107000, withholding_percent: 2 }, juristic, 'withholding_percent'],
  ] as const)('withholding refused: %j / %j -> %s', (order, student, code) => {
    const r = orderTax({ ...order, currency: 'THB', settings: on, withholding: true, student });
    expect(r).toMatchObject({ ok: false, code });
  });

  it('cannot load the student -> "ไม่สามารถดึงข้อมูลได้ กรุณาลองใหม่อีกครั้ง"', () => {
    expect(orderTax({ price: 107000, currency: 'THB', settings: on, withholding: true, student: null })).toMatchObject({ message: MSG.CANNOT_LOAD_DATA });
  });
});

describe('providers.md: 13-digit id, weights 13..2, check = (11 − sum mod 11) mod 10', () => {
  it('the worked example: 110170020345 -> sum 144 -> 144 mod 11 = 1 -> check digit 0', () => {
    expect(taxIdCheckDigit('110170020345')).toBe(0);
    expect(isValidTaxId('1101700203450')).toBe(true);
    expect(isValidTaxId('1-1017-00203-45-0')).toBe(true);
    expect(isValidTaxId('1101700203451')).toBe(false);
    expect(() => taxIdCheckDigit('123')).toThrow(RangeError);
    expect(normalizeTaxId(' 0105 5560 12345 ')).toBe('0105556012345');
  });

  it.each<[string | null, string | null, string, string]>([
    ['', 'juristic_person', 'empty', 'กรุณากรอกเลขประจำตัวผู้เสียภาษี'],
    [null, 'juristic_person', 'empty', 'กรุณากรอกเลขประจำตัวผู้เสียภาษี'],
    ['11017002034501', 'juristic_person', 'too_long', 'เลขประจำตัวผู้เสียภาษีต้องไม่เกิน 13 หลัก'],
    ['110170020345', 'juristic_person', 'too_short', 'เลขประจำตัวผู้เสียภาษีต้องมี 13 หลัก'],
    ['1101700203451', 'juristic_person', 'check_digit', 'เลขประจำตัวผู้เสียภาษีไม่ถูกต้อง: หลักสุดท้าย (เลขตรวจสอบ) ไม่ตรงกับ 12 หลักแรก กรุณาตรวจสอบอีกครั้ง'],
    ['11017002034a0', 'juristic_person', 'not_digits', 'เลขประจำตัวผู้เสียภาษีต้องเป็นตัวเลข 13 หลักเท่านั้น'],
    ['', 'normal_person', 'empty', 'กรุณากรอกเลขประจำตัวประชาชน'],
    ['123', 'normal_person', 'too_short', 'เลขประจำตัวประชาชนต้องมี 13 หลัก'],
  ])('validateTaxId(%j, %s) -> %s "%s"', (raw, type, code, message) => {
    const r = validateTaxId(raw, type);
    expect(r).toMatchObject({ ok: false, code });
    expect(r.ok ? null : renderShown(r.message)).toBe(message);
  });

  it('a valid id is returned normalised', () => {
    expect(validateTaxId('1-1017-00203-45-0')).toEqual({ ok: true, value: '1101700203450' });
  });

  const first12 = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 12 }).map((d) => d.join(''));
  const weightedResidue = (id: string) => [...id.slice(0, 12)].reduce((s, d, i) => s + Number(d) * (13 - i), 0) % 11;

  it('property: valid ids generated by the check-digit rule are accepted', () => {
    fc.assert(
      fc.property(first12, (s) => {
        const id = s + String(taxIdCheckDigit(s));
        expect(isValidTaxId(id)).toBe(true);
        expect(validateTaxId(id)).toEqual({ ok: true, value: id });
      }),
      RUNS,
    );
  });

  it('property: any single-digit change is rejected, except where the scheme itself cannot see it', () => {
    // The scheme's two blind spots (a property of the official algorithm, not of our code):
    //  - the 3rd digit has weight 11 ≡ 0 (mod 11): changing it never changes the check digit;
    //  - residues 0 and 10 both give check digit 1, so a change moving the sum between them passes.
    fc.assert(
      fc.property(first12, fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 9 }), (s, pos, delta) => {
        const id = s + String(taxIdCheckDigit(s));
        const changed = id.slice(0, pos) + String((Number(id[pos]) + delta) % 10) + id.slice(pos + 1);
        const blind = pos === 2 || (pos < 12 && new Set([weightedResidue(id), weightedResidue(changed)]).size === 2 && [0, 10].includes(weightedResidue(id)) && [0, 10].includes(weightedResidue(changed)));
        expect(isValidTaxId(changed)).toBe(blind);
        if (pos === 12) expect(isValidTaxId(changed)).toBe(false); // the check digit itself: always caught
      }),
      RUNS,
    );
  });

  it('the blind spots, concretely: 3rd digit changed; residue 0 <-> 10', () => {
    expect(isValidTaxId('1101700203450')).toBe(true);
    expect(isValidTaxId('1191700203450')).toBe(true); // 3rd digit 0 -> 9, same check digit
    expect(isValidTaxId('1100000000041')).toBe(true); // residue 0 -> check digit 1
    expect(isValidTaxId('6100000000041')).toBe(true); // 1st digit 1 -> 6: residue 10 -> check digit 1 too
  });
});

describe('spec 5 "Changing person type clears tax fields"', () => {
  it('clears names, id, addresses and certificate; keeps the request and delivery choice', () => {
    expect(
      changeTaxPersonType(
        {
          tax_person_type: 'juristic_person',
          tax_name_one: 'บริษัท ก',
          tax_name_two: '00000',
          tax_payer_identification_no: '0105556012345',
          tax_address: 'กรุงเทพ',
          tax_is_delivery_by_tax_address: false,
          tax_delivery_address: 'เชียงใหม่',
          tax_company_certificate: 'cert.pdf',
        },
        'normal_person',
      ),
    ).toEqual({
      tax_person_type: 'normal_person',
      tax_name_one: '',
      tax_name_two: '',
      tax_payer_identification_no: '',
      tax_address: '',
      tax_is_delivery_by_tax_address: false,
      tax_delivery_address: '',
      tax_company_certificate: null,
    });
  });
});
