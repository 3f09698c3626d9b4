// Card fields as people write them (domain/forms/card.ts) and the tax id's check digit messages (domain/tax.ts).
import { describe, expect, it } from 'vitest';
import { caretAfterDigits, formatCardNumber, splitExpiry, validateCard } from '../../domain/forms/card';
import { validateTaxId } from '../../domain/tax';
import { MSG } from '../../domain/messages';

describe('card number as written', () => {
  it('keeps a pasted, spaced or dashed number whole and groups it', () => {
    expect(formatCardNumber('4242 4242 4242 4242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-4242-4242-4242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('42424242424242429999')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('4242 4')).toBe('4242 4');
    expect(validateCard({ number: formatCardNumber('4242 4242 4242 4242'), month: '12', year: '2099', cvv: '123' }, Date.UTC(2026, 2, 2))).toMatchObject({ ok: true, data: { number: '4242424242424242' } });
  });
  it('puts the caret after the same digit', () => {
    expect(caretAfterDigits('4242 4242', 5)).toBe(6);
    expect(caretAfterDigits('4242 4242', 4)).toBe(4);
    expect(caretAfterDigits('4242', 0)).toBe(0);
  });
  it('splits a whole expiry typed into the month', () => {
    expect(splitExpiry('12/28')).toEqual({ month: '12', year: '2028' });
    expect(splitExpiry('1 / 2030')).toEqual({ month: '01', year: '2030' });
    expect(splitExpiry('1228')).toEqual({ month: '12', year: '2028' });
    expect(splitExpiry('13/28')).toBeNull();
    expect(splitExpiry('12')).toBeNull();
  });
});

describe('tax id messages', () => {
  it('letters: digits only; a wrong 13th digit: the check digit explained', () => {
    expect(validateTaxId('12345abc')).toMatchObject({ ok: false, code: 'not_digits', message: MSG.TAX_ID_DIGITS_ONLY });
    expect(validateTaxId('1101700203451')).toMatchObject({ ok: false, code: 'check_digit', message: MSG.TAX_ID_CHECK_DIGIT });
    expect(validateTaxId('1101700203451', 'normal_person')).toMatchObject({ ok: false, message: MSG.CITIZEN_ID_CHECK_DIGIT });
    expect(validateTaxId('1-1017-00203-45-0')).toMatchObject({ ok: true, value: '1101700203450' });
  });
});
