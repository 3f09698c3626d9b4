import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { couponNotAvailableMessage, customLabelRequiredMessage, message, MESSAGES, MESSAGES_EN } from '../../domain/messages';

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

  it('texts with parts', () => {
    expect(customLabelRequiredMessage('โรงเรียน')).toBe('กรุณากรอก โรงเรียน');
    expect(customLabelRequiredMessage('School', 'en')).toBe('Please fill in School');
    expect(couponNotAvailableMessage(['A1', 'B2'])).toBe('คูปองถูกใช้ครบจำนวนแล้ว: A1, B2');
    expect(couponNotAvailableMessage(['A1'], 'en')).toBe('The coupon is fully used: A1');
  });
});
