import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { isMessageKey, message, MESSAGES, MESSAGES_EN, MSG, msgOf, renderMsg, renderShown, type MessageKey } from '../../domain/messages';

describe('messages: the spec\'s texts as named constants, Thai first, English second', () => {
  it.each([
    ['NO_PLAN_FOR_YOU', 'ไม่มีรูปแบบราคาสำหรับคุณ'],
    ['TAX_INVOICE_INVALID', 'ข้อมูลใบกำกับภาษีไม่ถูกต้อง'],
    ['CANNOT_LOAD_DATA', 'ไม่สามารถดึงข้อมูลได้ กรุณาลองใหม่อีกครั้ง'],
    ['SLIP_REQUIRED', 'กรุณาอัพโหลดหลักฐานการโอนเงิน'],
    ['CONTACT_NAME_REQUIRED', 'กรุณากรอกชื่อผู้ติดต่อ'],
    ['TRANSFER_AMOUNT_REQUIRED', 'กรุณากรอกจำนวนเงินที่โอน'],
    ['ORIGIN_BANK_REQUIRED', 'กรุณาเลือกธนาคารต้นทางที่โอน'],
    ['DESTINATION_ACCOUNT_REQUIRED', 'กรุณาเลือกเลขบัญชีที่โอน'],
    ['TRANSFER_DATE_REQUIRED', 'กรุณากรอกวันที่ที่โอนเงิน'],
    ['TRANSFER_TIME_REQUIRED', 'กรุณากรอกเวลาที่โอนเงิน'],
    ['INVALID_DATA_TITLE', 'คุณกรอกข้อมูลไม่ถูกต้อง'],
    ['SHIPPING_ADDRESS_REQUIRED', 'กรุณากรอกข้อมูลที่อยู่จัดส่ง'],
    ['EMPTY_CART', 'ยังไม่มีสินค้าในรถเข็น'],
    ['PAYMENT_FAILED_TITLE', 'ผิดพลาด'],
    ['PAYMENT_FAILED', 'ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง'],
    ['PAYMENT_NOTICE_TITLE', 'แจ้งชำระเงิน'],
    ['PAYMENT_NOTICE_LATER', 'ไว้แจ้งทีหลัง'],
    ['NAME_TOO_LONG', 'Please enter name, not over 255 characters'],
    ['PROFILE_PICTURE_REQUIRED', 'Please upload Profile Picture'],
    ['FILE_TYPE_NOT_ALLOWED', 'File type is not allow to upload.'],
    ['OUT_OF_STORAGE', 'Out off Storage'],
  ] as const)('%s is the spec\'s exact text', (key, text) => {
    expect(MESSAGES[key]).toBe(text);
    expect(message(key)).toBe(text);
  });

  it('every key has an English text; the spec\'s English quotes are the same in both', () => {
    expect(Object.keys(MESSAGES_EN).sort()).toEqual(Object.keys(MESSAGES).sort());
    expect(message('OUT_OF_STORAGE', 'en')).toBe('Out off Storage');
    expect(message('CART_PRICING_USD_FAILED', 'en')).toBe('the course has no USD price');
    expect(message('PROMOTION_NOT_SELECTED', 'en')).toBe('your order has a joint promotion, please choose a promotion');
  });

  it('parameters are filled at the edge, in each language, never concatenated by the caller', () => {
    expect(renderMsg(msgOf('CUSTOM_FIELD_REQUIRED', { label: 'โรงเรียน' }))).toBe('กรุณากรอก โรงเรียน');
    expect(renderMsg(msgOf('CUSTOM_FIELD_REQUIRED', { label: 'School' }), 'en')).toBe('Please fill in School');
    expect(renderMsg(msgOf('COUPON_NOT_AVAILABLE_CODES', { codes: 'A1, B2' }))).toBe('คูปองถูกใช้ครบจำนวนแล้ว: A1, B2');
    expect(renderMsg(msgOf('COUPON_NOT_AVAILABLE_CODES', { codes: 'A1' }), 'en')).toBe('The coupon is fully used: A1');
    expect(renderMsg(msgOf('COUPON_NOT_FOUND_ID', { id: 12 }), 'en')).toBe('This coupon does not exist (12)');
    // a placeholder without its param stays visible rather than silently empty
    expect(renderMsg({ key: 'COUPON_NOT_AVAILABLE_CODES' })).toBe('คูปองถูกใช้ครบจำนวนแล้ว: {codes}');
    expect(renderMsg(MSG.EMPTY_CART, 'en')).toBe('Your cart is empty');
    // a text the server already rendered is shown as it is
    expect(renderShown('Unauthorized', 'th')).toBe('Unauthorized');
    expect(renderShown(null)).toBe('');
  });

  it('every key has a Thai and an English text with the same parameters', () => {
    const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(MESSAGES) as MessageKey[]) {
      expect(MESSAGES[key].trim(), key).not.toBe('');
      expect(MESSAGES_EN[key].trim(), key).not.toBe('');
      expect(params(MESSAGES_EN[key]), key).toEqual(params(MESSAGES[key]));
    }
    expect(Object.keys(MSG).sort()).toEqual(Object.keys(MESSAGES).sort());
    expect(MSG.SLIP_REQUIRED).toEqual({ key: 'SLIP_REQUIRED' });
    expect(isMessageKey('COUPON_NOT_AVAILABLE')).toBe(true);
    expect(isMessageKey('TIME_LEFT')).toBe(false);
  });

  it('no function maps a text back to its key: the module exports none, the catalogues are read by key only', () => {
    const source = readFileSync(new URL('../../domain/messages.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/messageKeyOf|localizeMessage|byText|textIndex/);
    const ui = readFileSync(new URL('../../src/i18n/messages.ts', import.meta.url), 'utf8');
    expect(ui).not.toMatch(/localizeMessage|export function tx\b/);
  });
});
