import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  cardBrand,
  cardDigits,
  checkPaymentMethod,
  defaultPaymentMethodId,
  isMethodSelectable,
  isPaymentMethodId,
  luhnCheckDigit,
  luhnValid,
  maskCardNumber,
  methodMinimum,
  methodSupportsCurrency,
  BANK_TRANSFER,
  DEFAULT_PAYMENT_METHOD_ID,
  GBPRIME_CARD,
  GBPRIME_PROMPTPAY,
  OMISE_CARD,
  OMISE_PROMPTPAY,
  PAYMENT_METHOD_IDS,
  PAYMENT_METHOD_NAMES,
  PAYPAL,
  PAYSOLUTIONS,
  SCB_QR,
  TWOC2P_CARD,
  TWOC2P_INSTALLMENT,
} from '../../domain/payment-methods';
import type { CardBrand } from '../../domain/payment-methods';
import { orderAmount } from '../../domain/money';
import { MSG, registerMessagesEn, renderMsg } from '../../domain/messages';
import { MESSAGES_EN } from '../../domain/messages-en';

// English messages are answered once their table is registered (the server does at start).
registerMessagesEn(MESSAGES_EN);

const RUNS = { numRuns: 1000 };
const SPEC = readFileSync(new URL('../../docs/spec/checkout-spec.md', import.meta.url), 'utf8');

describe('spec 9 "Payment method ids: 1 bank transfer, 2 PayPal credit card, 3 2c2p credit card, 4 SCB QR code, 8 Omise credit card, 9 Omise PromptPay, 10 2c2p installment, 11 GBPrimePay card, 12 GBPrimePay PromptPay, 13 PaySolutions. Default id 1."', () => {
  // The spec's own list, read from docs/spec/checkout-spec.md: "<id> <name>, ... Default id <id>."
  const line = /^- Payment method ids: (.+)\. Default id (\d+)\.$/m.exec(SPEC);
  const specMethods = (line?.[1] ?? '').split(', ').map((part) => {
    const [, id, name] = /^(\d+) (.+)$/.exec(part)!;
    return { id: Number(id), name: name!.toLowerCase() };
  });
  const specName = (id: number) => specMethods.find((m) => m.id === id)?.name;

  it('the ids, in the spec\'s order, and the default id are the spec\'s', () => {
    expect(specMethods.length).toBeGreaterThan(0);
    expect(PAYMENT_METHOD_IDS).toEqual(specMethods.map((m) => m.id));
    expect(DEFAULT_PAYMENT_METHOD_ID).toBe(Number(line![2]));
    for (const id of PAYMENT_METHOD_IDS) {
      expect(isPaymentMethodId(id)).toBe(true);
      expect(PAYMENT_METHOD_NAMES[id].en.toLowerCase(), `English name of ${id}`).toBe(specName(id));
      expect(PAYMENT_METHOD_NAMES[id].th, `Thai name of ${id}`).not.toBe('');
    }
  });

  it.each([
    ['BANK_TRANSFER', BANK_TRANSFER, 'bank transfer'],
    ['PAYPAL', PAYPAL, 'paypal credit card'],
    ['TWOC2P_CARD', TWOC2P_CARD, '2c2p credit card'],
    ['SCB_QR', SCB_QR, 'scb qr code'],
    ['OMISE_CARD', OMISE_CARD, 'omise credit card'],
    ['OMISE_PROMPTPAY', OMISE_PROMPTPAY, 'omise promptpay'],
    ['TWOC2P_INSTALLMENT', TWOC2P_INSTALLMENT, '2c2p installment'],
    ['GBPRIME_CARD', GBPRIME_CARD, 'gbprimepay card'],
    ['GBPRIME_PROMPTPAY', GBPRIME_PROMPTPAY, 'gbprimepay promptpay'],
    ['PAYSOLUTIONS', PAYSOLUTIONS, 'paysolutions'],
  ] as const)('%s is the id the spec gives to its method', (_name, constant, method) => {
    expect(specName(constant)).toBe(method);
  });

  it('ids 5, 6, 7 and 14 do not exist', () => {
    expect([5, 6, 7, 14, '1'].some(isPaymentMethodId)).toBe(false);
  });

  it.each([
    [[{ id: 8 }, { id: 1 }, { id: 2 }], 1],
    [[{ id: 8 }, { id: 2 }], 8],
    [[], null],
  ])('"Default payment method: id 1 (first listed is preselected)": %j -> %j', (methods, expected) => {
    expect(defaultPaymentMethodId(methods)).toBe(expected);
  });
});

describe('spec 5 "Payment methods 8 and 9 require a payable total (after withholding) of at least 20 THB"', () => {
  it.each([
    [OMISE_CARD, 1999, false],
    [OMISE_CARD, 2000, true],
    [OMISE_PROMPTPAY, 1999, false],
    [OMISE_PROMPTPAY, 2000, true],
    [OMISE_PROMPTPAY, 0, true], // a free order has no payment step
    [BANK_TRANSFER, 1, true],
    [GBPRIME_PROMPTPAY, 100, true],
  ])('method %i with payable %i satang -> selectable %j', (id, payable, ok) => {
    expect(isMethodSelectable(id, payable, 'THB')).toBe(ok);
  });

  it('the message, Thai and English', () => {
    expect(checkPaymentMethod(OMISE_CARD, 1999, 'THB')).toEqual({
      ok: false,
      code: 'PAYMENT_MINIMUM',
      message: MSG.BELOW_METHOD_MINIMUM,
    });
    expect(renderMsg(MSG.BELOW_METHOD_MINIMUM)).toBe('ไม่สามารถเลือกช่องทางชำระเงินนี้ได้ เนื่องจากยอดรวมต่ำกว่าขั้นต่ำ (20 บาท)');
    expect(renderMsg(MSG.BELOW_METHOD_MINIMUM, 'en')).toBe('this payment channel cannot be selected because the total is below the minimum (20 baht)');
  });

  it('"after withholding": 20.50 THB before withholding, 19.50 after -> refused', () => {
    const payable = orderAmount({ price: 2050, discount: 0, shipping_fee: 0, withholding_price: 100 });
    expect(isMethodSelectable(OMISE_CARD, payable, 'THB')).toBe(false);
  });

  it.each([
    [TWOC2P_CARD, false],
    [SCB_QR, false],
    [OMISE_PROMPTPAY, false],
    [TWOC2P_INSTALLMENT, false],
    [GBPRIME_CARD, false],
    [GBPRIME_PROMPTPAY, false],
    [PAYSOLUTIONS, false],
    [BANK_TRANSFER, true],
    [PAYPAL, true],
    [OMISE_CARD, true],
  ])('USD: method %i supported %j (2C2P currency 764, PaySolutions cc 00, Thai QR, GB Prime THB only)', (id, ok) => {
    expect(methodSupportsCurrency(id, 'USD')).toBe(ok);
    expect(methodSupportsCurrency(id, 'THB')).toBe(true);
    expect(checkPaymentMethod(id, 100000, 'USD').ok).toBe(ok);
  });

  it('no THB minimum applies to a USD total', () => {
    expect(methodMinimum(OMISE_CARD, 'USD')).toBe(0);
    expect(methodMinimum(OMISE_CARD, 'THB')).toBe(2000);
    expect(methodMinimum(BANK_TRANSFER, 'THB')).toBe(0);
    expect(checkPaymentMethod(OMISE_CARD, 1, 'USD')).toEqual({ ok: true });
  });
});

describe('spec 3 "Card logos: visa, mastercard, american express, jcb, unionpay, detected from the number prefix"', () => {
  it.each<[string, CardBrand | null]>([
    ['4242 4242 4242 4242', 'visa'],
    ['4111-1111-1114-0011', 'visa'],
    ['5105105105105100', 'mastercard'],
    ['5555555555554444', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2720990000000007', 'mastercard'],
    ['2220990000000000', null],
    ['2721000000000000', null],
    ['378282246310005', 'american express'],
    ['341111111111111', 'american express'],
    ['3528000000000007', 'jcb'],
    ['3589000000000003', 'jcb'],
    ['3527000000000000', null],
    ['3590000000000000', null],
    ['6200000000000005', 'unionpay'],
    ['6011111111111117', null],
    ['5', null],
    ['', null],
    ['4abc', null],
  ])('cardBrand(%j) = %j', (n, brand) => {
    expect(cardBrand(n)).toBe(brand);
  });
});

describe('Luhn check', () => {
  it.each([
    ['4242424242424242', true],
    ['4242 4242 4242 4241', false],
    ['4111111111140011', true],
    ['378282246310005', true],
    ['0', false],
    ['', false],
    ['42x2', false],
    ['00', true],
  ])('luhnValid(%j) = %j', (n, ok) => {
    expect(luhnValid(n)).toBe(ok);
  });

  it('property: appending the check digit makes a valid number; changing one digit breaks it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 11, maxLength: 18 }).map((d) => d.join('')),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (partial, at, delta) => {
          const full = partial + String(luhnCheckDigit(partial));
          expect(luhnValid(full)).toBe(true);
          const i = at % full.length;
          const changed = full.slice(0, i) + String((Number(full[i]) + delta) % 10) + full.slice(i + 1);
          expect(luhnValid(changed)).toBe(false);
        },
      ),
      RUNS,
    );
  });

  it('helpers', () => {
    expect(() => luhnCheckDigit('12a')).toThrow(RangeError);
    expect(cardDigits('4242 4242-4242')).toBe('424242424242');
    expect(cardDigits('4242x')).toBeNull();
    expect(maskCardNumber('4242 4242 4242 4242')).toBe('•••• 4242');
    expect(maskCardNumber('abc')).toBe('•••• ');
  });
});
