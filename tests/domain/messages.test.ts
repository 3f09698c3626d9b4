import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { hasMessagesEn, isMessageKey, message, MESSAGES, MSG, msgOf, registerMessagesEn, renderMsg, renderShown, type MessageKey } from '../../domain/messages';
import { MESSAGES_EN } from '../../domain/messages-en';

// English is answered once its table is registered (the server at start, the browser with its English chunk).
registerMessagesEn(MESSAGES_EN);

const SPEC = readFileSync(new URL('../../docs/spec/checkout-spec.md', import.meta.url), 'utf8');
const quoted = (text: string) => new RegExp(`['(:] ?${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[')]`);

describe('messages: the spec\'s texts as named constants, Thai first, English second', () => {
  // The keys whose text the spec quotes: each is found in docs/spec/checkout-spec.md whole, as a
  // quotation ('…', (…) or "message: …)"), not as a part of a longer text.
  it.each([
    'NO_PLAN_FOR_YOU',
    'TAX_INVOICE_INVALID',
    'CANNOT_LOAD_DATA',
    'SLIP_REQUIRED',
    'CONTACT_NAME_REQUIRED',
    'TRANSFER_AMOUNT_REQUIRED',
    'ORIGIN_BANK_REQUIRED',
    'DESTINATION_ACCOUNT_REQUIRED',
    'TRANSFER_DATE_REQUIRED',
    'TRANSFER_TIME_REQUIRED',
    'INVALID_DATA_TITLE',
    'SHIPPING_ADDRESS_REQUIRED',
    'EMPTY_CART',
    'PAYMENT_FAILED_TITLE',
    'PAYMENT_FAILED',
    'PAYMENT_NOTICE_TITLE',
    'PAYMENT_NOTICE_LATER',
    'NAME_TOO_LONG',
    'PROFILE_PICTURE_REQUIRED',
    'FILE_TYPE_NOT_ALLOWED',
    'OUT_OF_STORAGE',
  ] as const)('%s is a text the spec quotes', (key) => {
    expect(MESSAGES[key].length).toBeGreaterThan(0);
    expect(SPEC).toMatch(quoted(MESSAGES[key]));
    expect(message(key)).toBe(MESSAGES[key]);
  });

  it('every key has an English text; the spec\'s English quotes are the same in both', () => {
    expect(Object.keys(MESSAGES_EN).sort()).toEqual(Object.keys(MESSAGES).sort());
    expect(message('OUT_OF_STORAGE', 'en')).toBe('Out off Storage');
    expect(message('CART_PRICING_USD_FAILED', 'en')).toBe('the course has no USD price');
    expect(message('PROMOTION_NOT_SELECTED', 'en')).toBe('your order has a joint promotion, please choose a promotion');
  });

  it('English is answered in Thai until its table is registered (the browser before its English chunk), in English after', () => {
    registerMessagesEn(null);
    try {
      expect(hasMessagesEn()).toBe(false);
      expect(message('EMPTY_CART', 'en')).toBe(MESSAGES.EMPTY_CART);
      expect(renderMsg(msgOf('COUPON_NOT_FOUND_ID', { id: 3 }), 'en')).toBe('ไม่พบคูปองนี้ (3)');
    } finally {
      registerMessagesEn(MESSAGES_EN);
    }
    expect(hasMessagesEn()).toBe(true);
    expect(message('EMPTY_CART', 'en')).toBe('Your cart is empty');
    expect(message('EMPTY_CART', 'th')).toBe(MESSAGES.EMPTY_CART);
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
