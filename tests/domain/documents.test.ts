import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { orderTax, type TaxSettings } from '../../domain';
import {
  bangkokYear,
  branchCode,
  buyerParty,
  sellerProblems,
  creditAmounts,
  documentAmounts,
  documentNumber,
  documentsForPaidOrder,
  refundNeedsCreditNote,
  type DocumentOrderInput,
} from '../../domain/documents';

const VAT7: TaxSettings = { vat_value: 7, is_enable_vat: true, is_enable_tax_invoice: true, is_enable_withholding_tax: true };
const NO_VAT: TaxSettings = { vat_value: 7, is_enable_vat: false, is_enable_tax_invoice: true, is_enable_withholding_tax: false };
const COMPANY = { tax_person_type: 'juristic_person', is_require_tax_invoice: true };

/** An order as server/orders/quote.ts stores it: the tax figures from domain orderTax. */
function paidOrder(lines: { name: string; gross: number; discount?: number; qty?: number }[], opts: { currency?: 'THB' | 'USD'; shipping?: number; withholding?: 1 | 3 | null; settings?: TaxSettings } = {}): DocumentOrderInput {
  const currency = opts.currency ?? 'THB';
  const settings = opts.settings ?? VAT7;
  const price = lines.reduce((s, l) => s + l.gross, 0);
  const discount = lines.reduce((s, l) => s + (l.discount ?? 0), 0);
  const tax = orderTax({ price, discount, currency, settings, withholding: !!opts.withholding, withholding_percent: opts.withholding ?? null, student: COMPANY });
  if (!tax.ok) throw new Error(tax.code);
  const shipping = opts.shipping ?? 0;
  return {
    currency,
    lines: lines.map((l) => ({ name: l.name, qty: l.qty ?? 1, original_pricing_price: l.gross, discount: l.discount ?? 0, price: l.gross - (l.discount ?? 0) })),
    price,
    discount,
    shipping_fee: shipping,
    vat_price: tax.vat,
    withholding_price: tax.withholding_price,
    withholding_percent: tax.withholding_percent,
    total: price - discount + shipping - tax.withholding_price,
  };
}

describe('documentAmounts: the held scenarios', () => {
  it('1070 THB VAT included → 1000 + 70 VAT; 3% withheld on 1000 = 30; 1040 received', () => {
    const a = documentAmounts(paidOrder([{ name: 'Course', gross: 107_000 }], { withholding: 3 }), VAT7);
    expect(a).toMatchObject({ base: 107_000, before_vat: 100_000, vat: 7_000, vat_percent: 7, grand_total: 107_000, withholding_percent: 3, withholding: 3_000, received: 104_000, mismatches: [] });
    expect(a.lines[0]).toMatchObject({ amount: 107_000, before_vat: 100_000, vat: 7_000 });
  });

  it('1% withholding: 1070 → 10 withheld, 1060 received', () => {
    const a = documentAmounts(paidOrder([{ name: 'Course', gross: 107_000 }], { withholding: 1 }), VAT7);
    expect(a).toMatchObject({ before_vat: 100_000, vat: 7_000, withholding: 1_000, received: 106_000, mismatches: [] });
  });

  it('USD order: 53.50 → 50.00 + 3.50 VAT, 3% = 1.50, 52.00 received (cents)', () => {
    const a = documentAmounts(paidOrder([{ name: 'Course', gross: 5_350 }], { currency: 'USD', withholding: 3 }), VAT7);
    expect(a).toMatchObject({ currency: 'USD', before_vat: 5_000, vat: 350, withholding: 150, received: 5_200, mismatches: [] });
  });

  it('a book with shipping: shipping outside the VAT base, added to the grand total', () => {
    const a = documentAmounts(paidOrder([{ name: 'Book', gross: 53_500, qty: 2 }], { shipping: 5_000 }), VAT7);
    expect(a).toMatchObject({ base: 53_500, before_vat: 50_000, vat: 3_500, shipping: 5_000, grand_total: 58_500, withholding: 0, received: 58_500, mismatches: [] });
    expect(a.lines[0]).toMatchObject({ qty: 2, unit_price: 26_750, gross: 53_500 });
  });

  it('a shop without VAT shows no VAT: before VAT = the amount', () => {
    const a = documentAmounts(paidOrder([{ name: 'Course', gross: 107_000 }], { settings: NO_VAT }), NO_VAT);
    expect(a).toMatchObject({ vat_charged: false, vat_percent: 0, vat: 0, before_vat: 107_000, received: 107_000, mismatches: [] });
  });

  it('a VAT rate changed after the order is reported; the paid figures stand', () => {
    const o = paidOrder([{ name: 'Course', gross: 107_000 }], { withholding: 3 });
    const a = documentAmounts(o, { ...VAT7, vat_value: 10 });
    expect(a.vat).toBe(7_000);
    expect(a.received).toBe(104_000);
    expect(a.mismatches.length).toBeGreaterThan(0);
  });

  it('refuses non-integer money', () => {
    expect(() => documentAmounts({ ...paidOrder([{ name: 'C', gross: 100 }]), price: 100.5 }, VAT7)).toThrow(RangeError);
  });
});

const lineArb = fc.record({ name: fc.constant('x'), gross: fc.integer({ min: 1, max: 5_000_000 }), qty: fc.integer({ min: 1, max: 5 }), discountPct: fc.integer({ min: 0, max: 100 }) });

describe('documentAmounts: money properties', () => {
  it('integers only; lines sum exactly to the totals; received = grand total − withholding = the order total', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 100_000 }), fc.constantFrom<1 | 3 | null>(1, 3, null), fc.constantFrom<'THB' | 'USD'>('THB', 'USD'), fc.boolean(), (ls, shipping, wh, currency, vatOn) => {
        const settings = vatOn ? VAT7 : NO_VAT;
        const lines = ls.map((l) => ({ name: l.name, qty: l.qty, gross: l.gross, discount: Math.floor((l.gross * l.discountPct) / 100) }));
        let order: DocumentOrderInput;
        try {
          order = paidOrder(lines, { currency, shipping, withholding: wh, settings });
        } catch {
          return; // withholding not offered for this amount / settings: not a paid order with withholding
        }
        const a = documentAmounts(order, settings);
        const all = [a.gross, a.discount, a.base, a.before_vat, a.vat, a.shipping, a.grand_total, a.withholding, a.received, ...a.lines.flatMap((l) => [l.amount, l.before_vat, l.vat, l.unit_price])];
        for (const n of all) expect(Number.isSafeInteger(n)).toBe(true);
        expect(a.mismatches).toEqual([]);
        expect(a.lines.reduce((s, l) => s + l.before_vat, 0)).toBe(a.before_vat);
        expect(a.lines.reduce((s, l) => s + l.vat, 0)).toBe(a.vat);
        expect(a.lines.reduce((s, l) => s + l.amount, 0)).toBe(a.base);
        expect(a.before_vat + a.vat).toBe(a.base);
        expect(a.grand_total - a.withholding).toBe(a.received);
        expect(a.received).toBe(order.total);
        for (const l of a.lines) expect(l.vat).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 400 },
    );
  });

  it('credit notes: a full credit gives back exactly the VAT; any credit keeps the parts exact', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 50_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (gross, shipping, share) => {
        const a = documentAmounts(paidOrder([{ name: 'x', gross }], { shipping }), VAT7);
        const full = creditAmounts(a, a.grand_total, VAT7);
        expect(full).toMatchObject({ credited_vat: a.vat, credited_before_vat: a.before_vat, corrected_grand_total: 0, corrected_vat: 0, corrected_before_vat: 0 });
        const part = creditAmounts(a, Math.floor(a.grand_total * share), VAT7);
        expect(part.credited_base + part.credited_shipping).toBe(part.credited);
        expect(part.credited_before_vat + part.credited_vat).toBe(part.credited_base);
        expect(part.corrected_grand_total).toBe(a.grand_total - part.credited);
        expect(Number.isSafeInteger(part.credited_vat)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('a credit above the document is refused', () => {
    const a = documentAmounts(paidOrder([{ name: 'x', gross: 107_000 }]), VAT7);
    expect(() => creditAmounts(a, 107_001, VAT7)).toThrow(RangeError);
  });
});

describe('kinds and numbers', () => {
  it('numbers: prefix, year, 6 digits', () => {
    expect(documentNumber('tax_invoice', 2026, 42)).toBe('TI-2026-000042');
    expect(documentNumber('receipt', 2026, 1)).toBe('RC-2026-000001');
    expect(documentNumber('credit_note', 2027, 1_234_567)).toBe('CN-2027-1234567');
    expect(() => documentNumber('receipt', 2026, 0)).toThrow(RangeError);
  });
  it('the year is Bangkok’s: 31 Dec 17:00 UTC is already next year', () => {
    expect(bangkokYear(new Date('2026-12-31T16:59:59Z'))).toBe(2026);
    expect(bangkokYear(new Date('2026-12-31T17:00:00Z'))).toBe(2027);
  });
  it('a paid order gets a receipt, and a tax invoice when asked and enabled; a free order none', () => {
    expect(documentsForPaidOrder({ grand_total: 100, is_require_tax_invoice: false, tax_invoice_enabled: true })).toEqual(['receipt']);
    expect(documentsForPaidOrder({ grand_total: 100, is_require_tax_invoice: true, tax_invoice_enabled: true })).toEqual(['receipt', 'tax_invoice']);
    expect(documentsForPaidOrder({ grand_total: 100, is_require_tax_invoice: true, tax_invoice_enabled: false })).toEqual(['receipt']);
    expect(documentsForPaidOrder({ grand_total: 0, is_require_tax_invoice: true, tax_invoice_enabled: true })).toEqual([]);
  });
  it('a refund of invoiced money gets a credit note; a duplicate payment (never invoiced) does not', () => {
    expect(refundNeedsCreditNote('order_refunded', true)).toBe(true);
    expect(refundNeedsCreditNote('duplicate_payment', true)).toBe(false);
    expect(refundNeedsCreditNote('order_cancelled', false)).toBe(false);
  });
});

describe('parties', () => {
  it('branch codes: head office words and numbers become 5 digits; a branch name stays a name', () => {
    expect(branchCode('สำนักงานใหญ่')).toBe('00000');
    expect(branchCode('Head office')).toBe('00000');
    expect(branchCode('00000')).toBe('00000');
    expect(branchCode('สาขาที่ 12')).toBe('00012');
    expect(branchCode('สาขาสีลม')).toBeNull();
    expect(branchCode('')).toBeNull();
  });
  it('the seller must be complete: name, address, a valid 13-digit tax id, a 5-digit branch', () => {
    expect(sellerProblems({ name: 'ร้าน', address: 'ที่อยู่', tax_id: '0105556012341', branch: '00000' })).toEqual([]);
    expect(sellerProblems({ name: 'ร้าน', address: 'ที่อยู่', tax_id: '0105556012340', branch: '0' })).toHaveLength(2);
    expect(sellerProblems(null)).toHaveLength(4);
  });
  it('a juristic buyer: company name, tax id, branch; a natural person: both names, no branch', () => {
    const account = { firstname: 'ก', lastname: 'ข', email: 'a@b.c', address: 'บ้าน' };
    expect(buyerParty({ tax_person_type: 'juristic_person', tax_name_one: 'บริษัท ก จำกัด', tax_name_two: 'สำนักงานใหญ่', tax_payer_identification_no: '1-1017-00203-45-0', tax_address: 'ถนนสีลม' }, account, true)).toMatchObject({ person_type: 'juristic_person', name: 'บริษัท ก จำกัด', tax_id: '1101700203450', branch: '00000', branch_name: null, address: 'ถนนสีลม' });
    expect(buyerParty({ tax_person_type: 'normal_person', tax_name_one: 'สมชาย', tax_name_two: 'ใจดี', tax_payer_identification_no: '1101700203450' }, account, true)).toMatchObject({ person_type: 'normal_person', name: 'สมชาย ใจดี', branch: null, address: 'บ้าน' });
    expect(buyerParty({}, account, false)).toMatchObject({ name: 'ก ข', tax_id: null });
  });
});
