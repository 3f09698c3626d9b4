/**
 * Payment methods (spec 9 ids 1-13), the default choice, minimum totals, currencies, and card
 * brand / Luhn checks for the card forms.
 */
import type { Currency } from './money';
import { MSG, type Msg } from './messages';

export const BANK_TRANSFER = 1;
export const PAYPAL = 2;
export const TWOC2P_CARD = 3;
export const SCB_QR = 4;
export const OMISE_CARD = 8;
export const OMISE_PROMPTPAY = 9;
export const TWOC2P_INSTALLMENT = 10;
export const GBPRIME_CARD = 11;
export const GBPRIME_PROMPTPAY = 12;
export const PAYSOLUTIONS = 13;

export const PAYMENT_METHOD_IDS = [
  BANK_TRANSFER,
  PAYPAL,
  TWOC2P_CARD,
  SCB_QR,
  OMISE_CARD,
  OMISE_PROMPTPAY,
  TWOC2P_INSTALLMENT,
  GBPRIME_CARD,
  GBPRIME_PROMPTPAY,
  PAYSOLUTIONS,
] as const;
export type PaymentMethodId = (typeof PAYMENT_METHOD_IDS)[number];

/** Spec 4/9: "Default payment method: id 1". */
export const DEFAULT_PAYMENT_METHOD_ID: PaymentMethodId = BANK_TRANSFER;

/** Spec 9 names, Thai and English. */
export const PAYMENT_METHOD_NAMES: Readonly<Record<PaymentMethodId, { th: string; en: string }>> = {
  [BANK_TRANSFER]: { th: 'โอนเงินผ่านธนาคาร', en: 'Bank transfer' },
  [PAYPAL]: { th: 'บัตรเครดิตผ่าน PayPal', en: 'PayPal credit card' },
  [TWOC2P_CARD]: { th: 'บัตรเครดิต (2C2P)', en: '2C2P credit card' },
  [SCB_QR]: { th: 'QR Code (SCB)', en: 'SCB QR code' },
  [OMISE_CARD]: { th: 'บัตรเครดิต (Omise)', en: 'Omise credit card' },
  [OMISE_PROMPTPAY]: { th: 'พร้อมเพย์ (Omise)', en: 'Omise PromptPay' },
  [TWOC2P_INSTALLMENT]: { th: 'ผ่อนชำระ (2C2P)', en: '2C2P installment' },
  [GBPRIME_CARD]: { th: 'บัตรเครดิต (GB Prime Pay)', en: 'GBPrimePay card' },
  [GBPRIME_PROMPTPAY]: { th: 'พร้อมเพย์ (GB Prime Pay)', en: 'GBPrimePay PromptPay' },
  [PAYSOLUTIONS]: { th: 'PaySolutions', en: 'PaySolutions' },
};

export function isPaymentMethodId(x: unknown): x is PaymentMethodId {
  return typeof x === 'number' && (PAYMENT_METHOD_IDS as readonly number[]).includes(x);
}

/**
 * Spec 4: "Default payment method: id 1 (first listed is preselected)". Id 1 when listed,
 * else the first listed; null for an empty list.
 */
export function defaultPaymentMethodId(methods: readonly { id: number }[]): number | null {
  if (methods.some((m) => m.id === DEFAULT_PAYMENT_METHOD_ID)) return DEFAULT_PAYMENT_METHOD_ID;
  return methods[0]?.id ?? null;
}

/** Spec 9: "Card methods 8 and 9 minimum 20 THB" (minor units, THB). */
export const METHOD_MINIMUM_THB: Readonly<Partial<Record<PaymentMethodId, number>>> = {
  [OMISE_CARD]: 2000,
  [OMISE_PROMPTPAY]: 2000,
};

/**
 * Methods that only take THB (README "Decisions"): the 2C2P gateway posts currency 764 (spec 9),
 * PaySolutions cc '00' (spec 9), PromptPay and SCB QR are Thai QR schemes, GB Prime Pay is THB
 * only (providers.md). Bank transfer, PayPal and the Omise card take THB and USD.
 */
export const THB_ONLY_METHODS: readonly PaymentMethodId[] = [
  TWOC2P_CARD,
  SCB_QR,
  OMISE_PROMPTPAY,
  TWOC2P_INSTALLMENT,
  GBPRIME_CARD,
  GBPRIME_PROMPTPAY,
  PAYSOLUTIONS,
];

export function methodSupportsCurrency(methodId: number, currency: Currency): boolean {
  return currency === 'THB' || !(THB_ONLY_METHODS as readonly number[]).includes(methodId);
}

/** The minimum payable total for a method in a currency (minor units); 0 when none. */
export function methodMinimum(methodId: number, currency: Currency): number {
  return currency === 'THB' ? (METHOD_MINIMUM_THB[methodId as PaymentMethodId] ?? 0) : 0;
}

export type MethodCheck =
  | { ok: true }
  | { ok: false; code: 'PAYMENT_MINIMUM' | 'METHOD_CURRENCY_NOT_SUPPORTED'; message: Msg };

/**
 * Spec 5: "Payment methods 8 and 9 require a payable total (after withholding) of at least 20 THB:
 * 'this payment channel cannot be selected because the total is below the minimum (20 baht)'".
 * `payable` is the order amount after withholding (money.orderAmount). A total of 0 is a free
 * order that needs no payment step, so it passes. Also refuses a THB-only method in USD.
 */
export function checkPaymentMethod(methodId: number, payable: number, currency: Currency): MethodCheck {
  if (!methodSupportsCurrency(methodId, currency)) {
    return { ok: false, code: 'METHOD_CURRENCY_NOT_SUPPORTED', message: MSG.METHOD_CURRENCY_NOT_SUPPORTED };
  }
  if (payable > 0 && payable < methodMinimum(methodId, currency)) {
    return { ok: false, code: 'PAYMENT_MINIMUM', message: MSG.BELOW_METHOD_MINIMUM };
  }
  return { ok: true };
}

/** May the method be selected for this payable total? */
export function isMethodSelectable(methodId: number, payable: number, currency: Currency): boolean {
  return checkPaymentMethod(methodId, payable, currency).ok;
}

// ---------------------------------------------------------------------------------------------
// Cards
// ---------------------------------------------------------------------------------------------

/** Spec 3: card logos visa, mastercard, american express, jcb, unionpay. */
export type CardBrand = 'visa' | 'mastercard' | 'american express' | 'jcb' | 'unionpay';

/** Digits of a typed card number (spaces and hyphens removed); null if anything else is in it. */
export function cardDigits(number: string): string | null {
  const d = number.replace(/[\s-]/gu, '');
  return /^\d*$/u.test(d) ? d : null;
}

/**
 * Brand from the number prefix: visa 4; mastercard 51-55 and 2221-2720; american express 34, 37;
 * jcb 3528-3589; unionpay 62. null when unknown.
 */
export function cardBrand(number: string): CardBrand | null {
  const d = cardDigits(number);
  if (!d) return null;
  const p2 = Number(d.slice(0, 2));
  const p4 = Number(d.slice(0, 4));
  if (d.startsWith('4')) return 'visa';
  if (d.length >= 2 && (p2 === 34 || p2 === 37)) return 'american express';
  if (d.length >= 2 && p2 >= 51 && p2 <= 55) return 'mastercard';
  if (d.length >= 4 && p4 >= 2221 && p4 <= 2720) return 'mastercard';
  if (d.length >= 4 && p4 >= 3528 && p4 <= 3589) return 'jcb';
  if (d.length >= 2 && p2 === 62) return 'unionpay';
  return null;
}

/** Luhn (mod 10) check of a card number; false for empty or non-digit input. */
export function luhnValid(number: string): boolean {
  const d = cardDigits(number);
  if (!d || d.length < 2) return false;
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let n = Number(d[d.length - 1 - i]);
    if (i % 2 === 1) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

/** The Luhn check digit to append to a partial number (for test data and the sandbox). */
export function luhnCheckDigit(partial: string): number {
  for (let c = 0; c <= 9; c++) if (luhnValid(`${partial}${c}`)) return c;
  throw new RangeError('not a digit string');
}

/** Masked for display: only the last 4 digits ("•••• 4242"). */
export function maskCardNumber(number: string): string {
  const d = cardDigits(number) ?? '';
  return `•••• ${d.slice(-4)}`;
}
