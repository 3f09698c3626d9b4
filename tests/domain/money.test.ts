import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  assertMinor,
  clamp,
  divRoundHalfUp,
  formatAmount,
  formatMoney,
  fromMajor,
  isCurrency,
  isMinor,
  mulDivRoundHalfUp,
  orderAmount,
  parseAmount,
  percentOf,
  rateToScaled,
  sumMinor,
  toCardGatewayAmount,
  toDecimalString,
  toMajor,
  toOmiseAmount,
} from '../../domain/money';
import type { Currency, MoneyLocale } from '../../domain/money';
import { idList, isOn, toEpochMs } from '../../domain/values';

const RUNS = { numRuns: 1000 };
const amountArb = fc.integer({ min: 0, max: 10_000_000_000 });

describe('spec 9 "Order amount and transfer amount = price − discount + shipping_fee − withholding_price"', () => {
  it.each([
    { parts: { price: 199000, discount: 19900, shipping_fee: 5000, withholding_price: 5373 }, expected: 178727 },
    { parts: { price: 199000 }, expected: 199000 },
    { parts: { price: 0, discount: 0, shipping_fee: 0, withholding_price: 0 }, expected: 0 },
    { parts: { price: 100000, discount: null, shipping_fee: null, withholding_price: null }, expected: 100000 },
  ])('$parts -> $expected', ({ parts, expected }) => {
    expect(orderAmount(parts)).toBe(expected);
  });

  it('property: the formula holds for any integer parts', () => {
    fc.assert(
      fc.property(amountArb, amountArb, amountArb, amountArb, (price, discount, shipping_fee, withholding_price) => {
        expect(orderAmount({ price, discount, shipping_fee, withholding_price })).toBe(
          price - discount + shipping_fee - withholding_price,
        );
      }),
      RUNS,
    );
  });

  it('rejects non-integer amounts (money is integer minor units)', () => {
    expect(() => orderAmount({ price: 19.9 })).toThrow(RangeError);
    expect(() => orderAmount({ price: 100, discount: 0.5 })).toThrow(RangeError);
  });
});

describe('spec 9 "Prices shown with 2 decimals"', () => {
  it.each([
    [199050, '1990.50'],
    [199000, '1990.00'],
    [5, '0.05'],
    [0, '0.00'],
    [-5, '-0.05'],
    [-199050, '-1990.50'],
  ])('toDecimalString(%i) = %s', (minor, text) => {
    expect(toDecimalString(minor)).toBe(text);
  });

  it.each<[number, Currency, MoneyLocale, string]>([
    [199050, 'THB', 'th-TH', '฿1,990.50'],
    [199000, 'THB', 'th-TH', '฿1,990.00'],
    [199050, 'USD', 'en-US', '$1,990.50'],
    [2500, 'USD', 'th-TH', 'US$25.00'],
    [199050, 'THB', 'en-US', 'THB 1,990.50'],
    [0, 'THB', 'th-TH', '฿0.00'],
  ])('formatMoney(%i, %s, %s) = %s (Intl)', (minor, currency, locale, text) => {
    expect(formatMoney(minor, currency, locale).replace(/\u00a0/gu, ' ')).toBe(text);
  });

  it('formats with the Thai locale by default and keeps huge amounts exact', () => {
    expect(formatMoney(100, 'THB')).toBe('฿1.00');
    expect(formatAmount(123456789012345)).toBe('1,234,567,890,123.45');
    expect(formatAmount(199050, 'en-US')).toBe('1,990.50');
  });
});

describe('parse a typed amount ("1,990.50") to minor units', () => {
  it.each<[string, number | null]>([
    ['1,990.50', 199050],
    ['1990.5', 199050],
    ['1990', 199000],
    ['฿1,990.50', 199050],
    ['$25', 2500],
    ['US$25.00', 2500],
    ['THB 1,990.50', 199050],
    ['1,990.50 บาท', 199050],
    ['๑,๙๙๐.๕๐', 199050],
    ['  12.3 ', 1230],
    ['.5', 50],
    ['0.05', 5],
    ['-฿0.05', -5],
    ['+5', 500],
    ['-0', 0],
    ['1.', 100],
    ['', null],
    ['.', null],
    ['abc', null],
    ['1.234', null],
    ['1,99.0', null],
    ['12a', null],
    ['1e5', null],
    ['99999999999999999999', null],
  ])('parseAmount(%j) = %j', (text, expected) => {
    expect(parseAmount(text)).toBe(expected);
  });

  it('property: formatting round-trips with parsing (every currency and locale)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }),
        fc.constantFrom<Currency>('THB', 'USD'),
        fc.constantFrom<MoneyLocale>('th-TH', 'en-US'),
        (minor, currency, locale) => {
          expect(parseAmount(formatMoney(minor, currency, locale))).toBe(minor);
          expect(parseAmount(formatAmount(minor, locale))).toBe(minor);
          expect(parseAmount(toDecimalString(minor))).toBe(minor);
        },
      ),
      RUNS,
    );
  });
});

describe('rounding rule: round half up to the minor unit (documented in money.ts)', () => {
  it.each([
    [199000, 10, 19900],
    [1005, 50, 503], // 502.5 -> 503
    [1003, 50, 502], // 501.5 -> 502
    [1, 50, 1], // 0.5 -> 1
    [1, 49, 0],
    [333, 33.333333, 111], // 110.99999889 -> 111
    [10000, 7.25, 725],
    [99, 100, 99],
    [0, 15, 0],
    [-1005, 50, -503], // symmetric for negatives
  ])('percentOf(%i, %d) = %i', (amount, percent, expected) => {
    expect(percentOf(amount, percent)).toBe(expected);
  });

  it('divRoundHalfUp handles signs and rejects division by zero', () => {
    expect(divRoundHalfUp(5n, 2n)).toBe(3n);
    expect(divRoundHalfUp(-5n, 2n)).toBe(-3n);
    expect(divRoundHalfUp(5n, -2n)).toBe(-3n);
    expect(divRoundHalfUp(4n, 3n)).toBe(1n);
    expect(() => divRoundHalfUp(1n, 0n)).toThrow(RangeError);
  });

  it('mulDivRoundHalfUp and rateToScaled are exact', () => {
    expect(mulDivRoundHalfUp(107000, 100, 107)).toBe(100000);
    expect(mulDivRoundHalfUp(1, 1, 2)).toBe(1);
    expect(rateToScaled(7.25)).toBe(7_250_000n);
    expect(rateToScaled(-1.5)).toBe(-1_500_000n);
    expect(() => rateToScaled(Number.NaN)).toThrow(RangeError);
  });

  it('property: percentOf stays within [0, amount] for 0..100 % and matches the half-up definition', () => {
    fc.assert(
      fc.property(amountArb, fc.integer({ min: 0, max: 100 }), (amount, percent) => {
        const r = percentOf(amount, percent);
        expect(r).toBeGreaterThanOrEqual(0);
        expect(r).toBeLessThanOrEqual(amount);
        // exact: r = floor((amount*percent*2 + 100) / 200)
        expect(BigInt(r)).toBe((BigInt(amount) * BigInt(percent) * 2n + 100n) / 200n);
      }),
      RUNS,
    );
  });
});

describe('Omise amounts in satang; card gateway 12-digit zero-padded amount (spec 9)', () => {
  it.each([
    [2500, '000000002500'],
    [199050, '000000199050'],
    [0, '000000000000'],
    [999999999999, '999999999999'],
  ])('toCardGatewayAmount(%i) = %s (25.00 -> 000000002500)', (minor, text) => {
    expect(toCardGatewayAmount(minor)).toBe(text);
  });

  it('rejects gateway amounts that are negative or longer than 12 digits', () => {
    expect(() => toCardGatewayAmount(-1)).toThrow(RangeError);
    expect(() => toCardGatewayAmount(1_000_000_000_000)).toThrow(RangeError);
  });

  it('Omise: 1,000 THB = 100000 satang', () => {
    expect(toOmiseAmount(fromMajor(1000))).toBe(100000);
    expect(() => toOmiseAmount(-1)).toThrow(RangeError);
    expect(() => toOmiseAmount(1.5)).toThrow(RangeError);
  });
});

describe('conversions and helpers', () => {
  it.each([
    [19.99, 1999],
    [25, 2500],
    [1.005, 101],
    [0.004, 0],
    [-19.99, -1999],
  ])('fromMajor(%d) = %i', (major, minor) => {
    expect(fromMajor(major)).toBe(minor);
  });

  it('fromMajor rejects non-finite input; toMajor divides by 100', () => {
    expect(() => fromMajor(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(toMajor(199050)).toBe(1990.5);
  });

  it('small helpers', () => {
    expect(isCurrency('THB')).toBe(true);
    expect(isCurrency('USD')).toBe(true);
    expect(isCurrency('EUR')).toBe(false);
    expect(isMinor(1)).toBe(true);
    expect(isMinor(1.5)).toBe(false);
    expect(isMinor('1')).toBe(false);
    expect(assertMinor(7)).toBe(7);
    expect(clamp(5, 0, 3)).toBe(3);
    expect(clamp(-5, 0, 3)).toBe(0);
    expect(sumMinor([1, 2, 3])).toBe(6);
    expect(() => sumMinor([1, 0.5])).toThrow(RangeError);
  });
});

describe('loose backend values', () => {
  it.each([
    [true, true],
    [1, true],
    ['1', true],
    ['true', true],
    [false, false],
    [0, false],
    ['0', false],
    [null, false],
    [undefined, false],
    ['', false],
  ])('isOn(%j) = %j', (flag, expected) => {
    expect(isOn(flag)).toBe(expected);
  });

  it.each([
    ['1,2, 3', [1, 2, 3]],
    [[1, '2', 2], [1, 2]],
    ['', []],
    [null, []],
    [undefined, []],
    ['a,0,-1,1.5,4', [4]],
  ])('idList(%j) = %j', (list, expected) => {
    expect(idList(list as never)).toEqual(expected);
  });

  it('toEpochMs reads Date, number and text (zone-less text as UTC)', () => {
    expect(toEpochMs('2024-01-31 10:00:00')).toBe(Date.UTC(2024, 0, 31, 10));
    expect(toEpochMs('2024-01-31T10:00:00+07:00')).toBe(Date.UTC(2024, 0, 31, 3));
    expect(toEpochMs('2024-01-31')).toBe(Date.UTC(2024, 0, 31));
    expect(toEpochMs(new Date(5))).toBe(5);
    expect(toEpochMs(5)).toBe(5);
    expect(() => toEpochMs('not a date')).toThrow(RangeError);
    expect(() => toEpochMs(Number.NaN)).toThrow(RangeError);
  });
});
