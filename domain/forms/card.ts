/**
 * Card form (spec 5 "Card form": number max 16; month MM; year YYYY; CVV max 4, masked).
 * Number: 12-16 digits (spaces/hyphens allowed) passing Luhn; month 01-12; year YYYY not before
 * `now`'s year, and month/year not before `now`'s month (UTC); CVV 3-4 digits.
 */
import { z } from 'zod/mini';
import { MSG } from '../messages';
import type { Instant } from '../plans';
import { cardDigits, luhnValid } from '../payment-methods';
import { toEpochMs } from '../values';
import type { FormResult } from './common';
import { addMsgIssue, textField, toFormResult } from './common';

export const CARD_NUMBER_MAX = 16;
export const CARD_NUMBER_MIN = 12;

export interface CardValues {
  number?: string | null;
  month?: string | null;
  year?: string | null;
  cvv?: string | null;
}

export function cardSchema(now: Instant) {
  const at = new Date(toEpochMs(now));
  const thisYear = at.getUTCFullYear();
  const thisMonth = at.getUTCMonth() + 1;
  return z
    .object({
      number: z.pipe(
        textField([
        [(v) => v !== '', MSG.CARD_NUMBER_REQUIRED],
        [
          (v) => {
            const d = cardDigits(v);
            return d !== null && d.length >= CARD_NUMBER_MIN && d.length <= CARD_NUMBER_MAX && luhnValid(d);
          },
          MSG.CARD_NUMBER_INVALID,
        ],
        ]),
        z.transform((v: string) => cardDigits(v) ?? ''),
      ),
      month: textField([[(v) => /^(0[1-9]|1[0-2])$/u.test(v), MSG.CARD_MONTH_INVALID]]),
      year: textField([[(v) => /^\d{4}$/u.test(v) && Number(v) >= thisYear, MSG.CARD_YEAR_INVALID]]),
      cvv: textField([[(v) => /^\d{3,4}$/u.test(v), MSG.CARD_CVV_INVALID]]),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (/^\d{4}$/u.test(v.year) && Number(v.year) === thisYear && /^\d{2}$/u.test(v.month) && Number(v.month) < thisMonth) {
          addMsgIssue(ctx, MSG.CARD_EXPIRED, ['month']);
        }
      }),
    );
}

export type CardData = z.output<ReturnType<typeof cardSchema>>;

export function validateCard(values: CardValues, now: Instant): FormResult<CardData> {
  return toFormResult(cardSchema(now).safeParse(values));
}

/** Keep only digits, at most `max` of them (input masks: number 16, month 2, year 4, CVV 4). */
export function digitsOnly(v: string, max: number): string {
  return v.replace(/\D/gu, '').slice(0, max);
}

/**
 * A card number as people write it (spaces, dashes, pasted or autofilled), formatted as typed:
 * at most CARD_NUMBER_MAX digits, in groups of four (American Express, 34/37: 4-6-5).
 * "4242-4242 4242 4242" -> "4242 4242 4242 4242".
 */
export function formatCardNumber(raw: string): string {
  const d = raw.replace(/\D/gu, '').slice(0, CARD_NUMBER_MAX);
  const groups = /^3[47]/u.test(d) ? [4, 6, 5] : [4, 4, 4, 4];
  const out: string[] = [];
  let i = 0;
  for (const g of groups) {
    if (i >= d.length) break;
    out.push(d.slice(i, i + g));
    i += g;
  }
  return out.join(' ');
}

/** Where the caret goes after formatting: just after the same number of digits as before it. */
export function caretAfterDigits(formatted: string, digitsBefore: number): number {
  if (digitsBefore <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (/\d/u.test(formatted[i]!)) seen++;
    if (seen === digitsBefore) return i + 1;
  }
  return formatted.length;
}

/**
 * An expiry typed or pasted into the month field ("12/28", "12 / 2028", "1228"): month and a
 * four-digit year, or null when it is not one.
 */
export function splitExpiry(raw: string): { month: string; year: string } | null {
  const m = /^\s*(\d{1,2})\s*[/\-. ]\s*(\d{2}|\d{4})\s*$/u.exec(raw) ?? /^\s*(\d{2})(\d{2}|\d{4})\s*$/u.exec(raw);
  if (!m) return null;
  const month = m[1]!.padStart(2, '0');
  const year = m[2]!.length === 2 ? `20${m[2]}` : m[2]!;
  return Number(month) >= 1 && Number(month) <= 12 ? { month, year } : null;
}
