import { describe, expect, it } from 'vitest';
import { bankTransferSchema, isIsoDate, isTimeOfDay, transferAmountMinor, validateBankTransfer } from '../../../domain/forms/bank-transfer';
import type { BankTransferValues } from '../../../domain/forms/bank-transfer';
import { digitsOnly, validateCard } from '../../../domain/forms/card';
import type { CardValues } from '../../../domain/forms/card';
import { firstError, isFilledValue } from '../../../domain/forms/common';
import { renderShown } from '../../../domain/messages';

describe('spec 5 "Bank transfer notify (checked in order)"', () => {
  const good: BankTransferValues = {
    slip: 'slip.jpg',
    contact_name: 'สมชาย',
    transfer_amount: '1,990.50',
    bank_code: 'KBANK',
    bank_account: '123-4-56789-0',
    transfer_datetime: '2025-01-31',
    time: '14:30:00',
  };
  const due = { amountDue: 199050, slipRequired: true };

  it('a complete notice passes; the amount is read to minor units', () => {
    const r = validateBankTransfer(good, due);
    expect(r).toMatchObject({ ok: true, title: null });
    if (r.ok) expect(r.data.transfer_amount).toBe(199050);
  });

  it.each<{ rule: string; over: Partial<BankTransferValues>; config?: typeof due; first: string }>([
    { rule: '1. "Amount non-zero and site requires a slip"', over: { slip: null }, first: 'กรุณาอัพโหลดหลักฐานการโอนเงิน' },
    { rule: '1. an empty slip list counts as no slip', over: { slip: [] }, first: 'กรุณาอัพโหลดหลักฐานการโอนเงิน' },
    { rule: '2. "Amount zero and contact name empty"', over: { contact_name: ' ' }, config: { amountDue: 0, slipRequired: true }, first: 'กรุณากรอกชื่อผู้ติดต่อ' },
    { rule: '3. "Transfer amount required"', over: { transfer_amount: '' }, first: 'กรุณากรอกจำนวนเงินที่โอน' },
    { rule: '3. "numeric only"', over: { transfer_amount: '12abc' }, first: 'กรุณากรอกจำนวนเงินที่โอน' },
    { rule: '3. negative amounts are not amounts', over: { transfer_amount: '-5' }, first: 'กรุณากรอกจำนวนเงินที่โอน' },
    { rule: '4. "Origin bank"', over: { bank_code: '' }, first: 'กรุณาเลือกธนาคารต้นทางที่โอน' },
    { rule: '5. "Destination account"', over: { bank_account: null }, first: 'กรุณาเลือกเลขบัญชีที่โอน' },
    { rule: '6. "Date"', over: { transfer_datetime: '' }, first: 'กรุณากรอกวันที่ที่โอนเงิน' },
    { rule: '6. an impossible date', over: { transfer_datetime: '2025-02-30' }, first: 'กรุณากรอกวันที่ที่โอนเงิน' },
    { rule: '6. "time"', over: { time: '25:00' }, first: 'กรุณากรอกเวลาที่โอนเงิน' },
    { rule: 'slip limit 1 file', over: { slip: ['a.jpg', 'b.jpg'] }, first: 'อัพโหลดได้ 1 ไฟล์' },
  ])('$rule -> $first', ({ over, config, first }) => {
    const r = validateBankTransfer({ ...good, ...over }, config ?? due);
    expect(r.ok).toBe(false);
    expect(renderShown(firstError(r))).toBe(first);
    expect(renderShown(r.title)).toBe('คุณกรอกข้อมูลไม่ถูกต้อง');
  });

  it('no slip needed when the site does not require it, or the amount is zero', () => {
    expect(validateBankTransfer({ ...good, slip: null }, { amountDue: 199050, slipRequired: false }).ok).toBe(true);
    expect(validateBankTransfer({ ...good, slip: null }, { amountDue: 0, slipRequired: true }).ok).toBe(true);
  });

  it('no contact name needed when the amount is not zero', () => {
    expect(validateBankTransfer({ ...good, contact_name: '' }, due).ok).toBe(true);
  });

  it('"the FIRST failure is reported first": an empty form lists every failure in the spec order', () => {
    const r = validateBankTransfer({}, { amountDue: 0, slipRequired: true });
    expect(r.ok ? [] : r.errors.map((e) => renderShown(e.message))).toEqual([
      'กรุณากรอกชื่อผู้ติดต่อ',
      'กรุณากรอกจำนวนเงินที่โอน',
      'กรุณาเลือกธนาคารต้นทางที่โอน',
      'กรุณาเลือกเลขบัญชีที่โอน',
      'กรุณากรอกวันที่ที่โอนเงิน',
      'กรุณากรอกเวลาที่โอนเงิน',
    ]);
    const r2 = validateBankTransfer({}, due);
    expect(r2.ok ? [] : r2.errors.map((e) => e.path)).toEqual(['slip', 'transfer_amount', 'bank_code', 'bank_account', 'transfer_datetime', 'time']);
  });

  it('helpers', () => {
    expect(transferAmountMinor(199050)).toBe(199050);
    expect(transferAmountMinor(1.5)).toBeNull();
    expect(transferAmountMinor(-1)).toBeNull();
    expect(transferAmountMinor('0')).toBe(0);
    expect(transferAmountMinor(null)).toBeNull();
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('31/01/2025')).toBe(false);
    expect(isTimeOfDay('09:05')).toBe(true);
    expect(isTimeOfDay('9:05')).toBe(false);
    expect(bankTransferSchema(due).safeParse({ ...good, transfer_amount: 500 }).data?.transfer_amount).toBe(500);
  });
});

describe('spec 5 "Card form: number max 16; month max 2 (MM); year max 4 (YYYY); CVV max 4"', () => {
  const NOW = Date.UTC(2025, 5, 15); // June 2025
  const good: CardValues = { number: '4242 4242 4242 4242', month: '07', year: '2027', cvv: '123' };

  it('a valid card passes; the number is kept as digits', () => {
    const r = validateCard(good, NOW);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.data.number).toBe('4242424242424242');
  });

  it.each<{ rule: string; over: Partial<CardValues>; errors: [string, string][] }>([
    { rule: 'number required', over: { number: '' }, errors: [['number', 'กรุณากรอกหมายเลขบัตร']] },
    { rule: 'number: more than 16 digits', over: { number: '42424242424242424' }, errors: [['number', 'หมายเลขบัตรไม่ถูกต้อง']] },
    { rule: 'number: fails Luhn', over: { number: '4242424242424241' }, errors: [['number', 'หมายเลขบัตรไม่ถูกต้อง']] },
    { rule: 'number: letters', over: { number: '4242abcd42424242' }, errors: [['number', 'หมายเลขบัตรไม่ถูกต้อง']] },
    { rule: 'number: too short', over: { number: '42' }, errors: [['number', 'หมายเลขบัตรไม่ถูกต้อง']] },
    { rule: 'amex 15 digits passes', over: { number: '378282246310005', cvv: '1234' }, errors: [] },
    { rule: 'month MM 01-12: 13', over: { month: '13' }, errors: [['month', 'กรุณากรอกเดือนหมดอายุเป็น MM (01-12)']] },
    { rule: 'month MM: one digit', over: { month: '7' }, errors: [['month', 'กรุณากรอกเดือนหมดอายุเป็น MM (01-12)']] },
    { rule: 'month MM: 00', over: { month: '00' }, errors: [['month', 'กรุณากรอกเดือนหมดอายุเป็น MM (01-12)']] },
    { rule: 'year YYYY: two digits', over: { year: '27' }, errors: [['year', 'กรุณากรอกปีหมดอายุเป็น YYYY']] },
    { rule: 'year not in the past', over: { year: '2024' }, errors: [['year', 'กรุณากรอกปีหมดอายุเป็น YYYY']] },
    { rule: 'this year, earlier month: expired', over: { year: '2025', month: '05' }, errors: [['month', 'บัตรหมดอายุแล้ว']] },
    { rule: 'this year, this month: still valid', over: { year: '2025', month: '06' }, errors: [] },
    { rule: 'CVV 3-4 digits: 2', over: { cvv: '12' }, errors: [['cvv', 'กรุณากรอก CVV 3-4 หลัก']] },
    { rule: 'CVV 3-4 digits: 5', over: { cvv: '12345' }, errors: [['cvv', 'กรุณากรอก CVV 3-4 หลัก']] },
    { rule: 'CVV 4 digits', over: { cvv: '1234' }, errors: [] },
  ])('$rule', ({ over, errors }) => {
    const r = validateCard({ ...good, ...over }, NOW);
    expect(r.ok ? [] : r.errors.map((e) => [e.path, renderShown(e.message)])).toEqual(errors);
  });

  it('an empty form reports every field', () => {
    const r = validateCard({}, new Date(NOW));
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(['number', 'month', 'year', 'cvv']);
  });

  it('input masks keep digits up to the field length', () => {
    expect(digitsOnly('4242 4242 4242 4242 99', 16)).toBe('4242424242424242');
    expect(digitsOnly('0a7', 2)).toBe('07');
  });

  it('isFilledValue', () => {
    expect(isFilledValue({})).toBe(true);
    expect(isFilledValue(Number.NaN)).toBe(false);
    expect(isFilledValue(0)).toBe(true);
    expect(isFilledValue(false)).toBe(false);
  });
});
