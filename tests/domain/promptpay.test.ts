import { describe, expect, it } from 'vitest';
import {
  buildPromptPayPayload,
  crc16CcittFalse,
  crcHex,
  formatPromptPayMobile,
  hasValidCrc,
  parsePromptPayPayload,
  parseTlv,
  tlv,
} from '../../domain/promptpay';

describe('CRC-16/CCITT-FALSE', () => {
  it('matches the catalogue check value for "123456789"', () => {
    expect(crc16CcittFalse('123456789')).toBe(0x29b1);
  });
  it('is 0xFFFF for the empty string and uppercase 4-hex', () => {
    expect(crc16CcittFalse('')).toBe(0xffff);
    expect(crcHex('A')).toMatch(/^[0-9A-F]{4}$/u);
    expect(crcHex('123456789')).toBe('29B1');
  });
  it('agrees with independent PromptPay implementations (published payload + CRC pairs)', () => {
    expect(crcHex('00020101021129370016A000000677010111011300668999999995802TH53037646304')).toBe('FE29');
    expect(hasValidCrc('00020101021129370016A000000677010111011300668123456785802TH530376463045D82')).toBe(true);
    expect(hasValidCrc('00020101021229370016A000000677010111011300668123456785802TH53037645406100.006304BB8A')).toBe(true);
  });
  it('refuses non-ASCII input', () => {
    expect(() => crc16CcittFalse('บาท')).toThrow(RangeError);
  });
});

describe('TLV', () => {
  it('encodes id, 2-digit length and value, and parses back', () => {
    expect(tlv('00', '01')).toBe('000201');
    expect(parseTlv('000201010212')).toEqual([
      { id: '00', value: '01' },
      { id: '01', value: '12' },
    ]);
  });
  it('rejects malformed and truncated payloads and oversize values', () => {
    expect(() => parseTlv('0002')).toThrow(RangeError);
    expect(() => parseTlv('0x0201')).toThrow(RangeError);
    expect(() => tlv('00', 'x'.repeat(100))).toThrow(RangeError);
    expect(() => tlv('0', '1')).toThrow(RangeError);
  });
});

describe('PromptPay payload', () => {
  it('formats a Thai mobile number as 0066 + national number', () => {
    expect(formatPromptPayMobile('081-234-5678')).toBe('0066812345678');
    expect(formatPromptPayMobile('+66812345678')).toBe('0066812345678');
    expect(() => formatPromptPayMobile('12')).toThrow(RangeError);
  });

  it('builds a dynamic mobile QR with amount 2 decimals and a valid CRC', () => {
    const p = buildPromptPayPayload({ kind: 'mobile', id: '0812345678' }, { amount: 199050 });
    expect(p.startsWith('000201010212')).toBe(true);
    expect(p).toContain('29370016A00000067701011101130066812345678');
    expect(p).toContain('5303764');
    expect(p).toContain('54071990.50');
    expect(p).toContain('5802TH');
    expect(p).toMatch(/6304[0-9A-F]{4}$/u);
    expect(hasValidCrc(p)).toBe(true);
    const parsed = parsePromptPayPayload(p);
    expect(parsed).toMatchObject({ crcValid: true, dynamic: true, amount: 199050, currency: '764', country: 'TH' });
    expect(parsed.target).toEqual({ kind: 'mobile', id: '0066812345678' });
  });

  it('builds a static QR (01 = 11) without tag 54', () => {
    const p = buildPromptPayPayload({ kind: 'taxId', id: '0105556123456' });
    const parsed = parsePromptPayPayload(p);
    expect(parsed.dynamic).toBe(false);
    expect(parsed.amount).toBeNull();
    expect(parsed.target).toEqual({ kind: 'taxId', id: '0105556123456' });
    expect(parsed.fields.some((f) => f.id === '54')).toBe(false);
    expect(parsed.crcValid).toBe(true);
  });

  it('builds an e-wallet target and checks id lengths', () => {
    const p = buildPromptPayPayload({ kind: 'eWallet', id: '140000123456789' }, { amount: 100 });
    expect(parsePromptPayPayload(p).target).toEqual({ kind: 'eWallet', id: '140000123456789' });
    expect(() => buildPromptPayPayload({ kind: 'eWallet', id: '123' })).toThrow(RangeError);
    expect(() => buildPromptPayPayload({ kind: 'taxId', id: '123' })).toThrow(RangeError);
  });

  it('builds an SCB QR30 bill payment with refs and terminal label', () => {
    const p = buildPromptPayPayload(
      { kind: 'billPayment', billerId: '010555612345601', ref1: 'ORD42', ref2: 'A1B2C3' },
      { amount: 2500, terminalLabel: 'SCB01' },
    );
    const parsed = parsePromptPayPayload(p);
    expect(parsed.target).toEqual({ kind: 'billPayment', billerId: '010555612345601', ref1: 'ORD42', ref2: 'A1B2C3' });
    expect(parsed.amount).toBe(2500);
    expect(parsed.terminalLabel).toBe('SCB01');
    expect(parsed.crcValid).toBe(true);
    expect(p).toContain('0016A000000677010112');
  });

  it('rejects bad amounts, refs and biller ids', () => {
    expect(() => buildPromptPayPayload({ kind: 'mobile', id: '0812345678' }, { amount: 0 })).toThrow(RangeError);
    expect(() => buildPromptPayPayload({ kind: 'mobile', id: '0812345678' }, { amount: 1.5 })).toThrow(RangeError);
    expect(() => buildPromptPayPayload({ kind: 'billPayment', billerId: '1', ref1: 'A' })).toThrow(RangeError);
    expect(() => buildPromptPayPayload({ kind: 'billPayment', billerId: '010555612345601', ref1: 'lower' })).toThrow(RangeError);
    expect(() => buildPromptPayPayload({ kind: 'mobile', id: '0812345678' }, { terminalLabel: 'bad label' })).toThrow(RangeError);
  });

  it('detects a tampered payload through the CRC', () => {
    const p = buildPromptPayPayload({ kind: 'mobile', id: '0812345678' }, { amount: 10000 });
    const tampered = p.replace('5406100.00', '5406900.00');
    expect(tampered).not.toBe(p);
    expect(hasValidCrc(tampered)).toBe(false);
    expect(parsePromptPayPayload(tampered).crcValid).toBe(false);
    expect(hasValidCrc('short')).toBe(false);
    expect(hasValidCrc(p.slice(0, -8) + '9904ABCD')).toBe(false);
  });
});
