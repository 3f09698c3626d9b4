/**
 * Test cards the emulators know (the providers' own published test numbers where they exist).
 * Only the outcome, brand and last 4 digits are kept after tokenisation, never the number.
 */
import { cardBrand as domainCardBrand, luhnValid as domainLuhnValid, type CardBrand } from '../../../domain/payment-methods';

export type CardOutcome = { kind: 'success' } | { kind: 'threeDS' } | { kind: 'fail'; code: string; message: string };

/** A card number the emulators accept: 12-19 digits with a valid Luhn check digit (domain rule). */
export function luhnValid(number: string): boolean {
  return /^\d{12,19}$/u.test(number) && domainLuhnValid(number);
}

/** The brand as the providers spell it in their answers (Omise: 'Visa', 'MasterCard', …), from domain's prefix rule. */
const PROVIDER_BRAND: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'MasterCard',
  'american express': 'American Express',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

export function cardBrand(number: string): string {
  const brand = domainCardBrand(number);
  return brand ? PROVIDER_BRAND[brand] : 'Unknown';
}

/** Omise test mode: https://docs.omise.co/api-testing */
const OMISE_FAILURES: Record<string, [string, string]> = {
  '4111111111140011': ['insufficient_fund', 'insufficient funds in the account or the card has reached the credit limit'],
  '5555551111110011': ['insufficient_fund', 'insufficient funds in the account or the card has reached the credit limit'],
  '4111111111130012': ['stolen_or_lost_card', 'card is stolen or lost'],
  '5555551111100012': ['stolen_or_lost_card', 'card is stolen or lost'],
  '4111111111120013': ['failed_processing', 'payment could not be processed'],
  '4111111111110014': ['payment_rejected', 'payment was rejected by the issuer'],
};

/** In this sandbox these go through the 3-D Secure page (OMISE_SANDBOX_3DS=enrolled, the default). */
export const OMISE_3DS_ENROLLED = new Set(['4111111111111111', '5555555555554444', '3566111111111113']);

export function omiseOutcome(number: string, mode: 'enrolled' | 'always' | 'never'): CardOutcome {
  const f = OMISE_FAILURES[number];
  if (f) return { kind: 'fail', code: f[0], message: f[1] };
  if (mode === 'always' || (mode === 'enrolled' && OMISE_3DS_ENROLLED.has(number))) return { kind: 'threeDS' };
  return { kind: 'success' };
}

/**
 * The test cards the GB Prime Pay and 2C2P emulators decline, each with the same reason in both and
 * the provider's own code (GB Prime Pay: 4535017710535741 succeeds; 2C2P: 4111111111111111 succeeds).
 */
const DECLINED_TEST_CARDS: Record<string, { message: string; gbprime: string; twoc2p: string }> = {
  '4111111111140011': { message: 'Insufficient funds', gbprime: '51', twoc2p: '4051' },
  '4111111111130012': { message: 'Stolen card', gbprime: '43', twoc2p: '4043' },
  '4111111111120013': { message: 'Do not honour', gbprime: '05', twoc2p: '4005' },
};

function declinedOrPaid(number: string, provider: 'gbprime' | 'twoc2p'): CardOutcome {
  const card = DECLINED_TEST_CARDS[number];
  return card ? { kind: 'fail', code: card[provider], message: card.message } : { kind: 'success' };
}

export function gbprimeOutcome(number: string): CardOutcome {
  return declinedOrPaid(number, 'gbprime');
}

export function twoc2pOutcome(number: string): CardOutcome {
  return declinedOrPaid(number, 'twoc2p');
}

export function validExpiry(month: number, year: number, now: Date): boolean {
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year)) return false;
  const y = year < 100 ? 2000 + year : year;
  return y > now.getUTCFullYear() || (y === now.getUTCFullYear() && month >= now.getUTCMonth() + 1);
}
