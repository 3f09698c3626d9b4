/**
 * Money: integer minor units (satang for THB, cents for USD) everywhere.
 *
 * Rounding rule (one rule for every percentage and ratio in domain/):
 *   ROUND HALF UP TO THE MINOR UNIT. An exact result of x.5 satang becomes x+1 satang.
 *   All amounts handled here are non-negative, so "half up" and "half away from zero" agree;
 *   for a negative input the rule is applied to the magnitude (symmetric).
 *   Computed with BigInt rational arithmetic, never with binary floating point, so
 *   percentOf(1005, 50) is exactly 503 (502.5 -> 503).
 *
 * Spec section 9: "Order amount and transfer amount = price − discount + shipping_fee −
 * withholding_price, 2 decimals. Prices shown with 2 decimals."
 */

export type Currency = 'THB' | 'USD';
export const CURRENCIES: readonly Currency[] = ['THB', 'USD'];

/** Supported display locales: Thai first, English second. */
export type MoneyLocale = 'th-TH' | 'en-US';

/** The Intl tag money is formatted with for a page's language (Thai digits stay Arabic: 'th-TH'). */
export function moneyLocaleOf(language: 'th' | 'en'): MoneyLocale {
  return language === 'en' ? 'en-US' : 'th-TH';
}

/** Minor units per major unit (both THB and USD have 2 decimals). */
export const MINOR_PER_MAJOR = 100;

export function isCurrency(value: unknown): value is Currency {
  return value === 'THB' || value === 'USD';
}

/** True when n is a safe integer (a valid amount in minor units; may be negative). */
export function isMinor(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n);
}

/** Throws a RangeError unless n is a safe integer. Returns n. */
export function assertMinor(n: number, what = 'amount'): number {
  if (!isMinor(n)) throw new RangeError(`${what} must be an integer number of minor units, got ${String(n)}`);
  return n;
}

/**
 * a / b rounded half up (symmetric for negatives), for integers a and b (b ≠ 0).
 * Accepts BigInt so callers can keep products exact.
 */
export function divRoundHalfUp(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError('division by zero');
  if (b < 0n) {
    a = -a;
    b = -b;
  }
  const negative = a < 0n;
  const m = negative ? -a : a;
  const q = (2n * m + b) / (2n * b); // floor((m + b/2) / b) = round half up of m/b
  return negative ? -q : q;
}

/** Largest number of decimals accepted in a percent or rate (e.g. 7.25). */
const RATE_SCALE_DIGITS = 6;
const RATE_SCALE = 10n ** BigInt(RATE_SCALE_DIGITS);

/** A decimal number (percent, VAT rate) as an exact fraction numerator / RATE_SCALE. */
export function rateToScaled(rate: number): bigint {
  if (!Number.isFinite(rate)) throw new RangeError(`rate must be finite, got ${String(rate)}`);
  // toFixed gives the decimal the user typed (7.25 -> "7.250000"), avoiding 7.25*1e6 float noise.
  const fixed = Math.abs(rate).toFixed(RATE_SCALE_DIGITS);
  const [whole = '0', frac = ''] = fixed.split('.');
  const scaled = BigInt(whole) * RATE_SCALE + BigInt(frac.padEnd(RATE_SCALE_DIGITS, '0'));
  return rate < 0 ? -scaled : scaled;
}

/**
 * percent% of amount, rounded half up to the minor unit.
 * percentOf(199000, 10) = 19900; percentOf(1005, 50) = 503.
 */
export function percentOf(amount: number, percent: number): number {
  assertMinor(amount);
  const result = divRoundHalfUp(BigInt(amount) * rateToScaled(percent), 100n * RATE_SCALE);
  return Number(result);
}

/** amount × numerator ÷ denominator for integers, rounded half up. */
export function mulDivRoundHalfUp(amount: number, numerator: number, denominator: number): number {
  assertMinor(amount);
  assertMinor(numerator, 'numerator');
  assertMinor(denominator, 'denominator');
  return Number(divRoundHalfUp(BigInt(amount) * BigInt(numerator), BigInt(denominator)));
}

/** Clamp to [min, max]. */
export function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

export interface OrderAmountParts {
  price: number;
  discount?: number | null;
  shipping_fee?: number | null;
  withholding_price?: number | null;
}

/**
 * A free order (spec 4: "a total of 0 goes to /thankyou or the order page; a free order also files
 * a payment report"): recorded by its free report (AutoFree / NeedApprovedFree), never paid by a
 * provider, and named by no payment method. `total` in minor units (an order's is never below 0).
 */
export function isFreeOrder(total: number): boolean {
  return total <= 0;
}

/**
 * Spec 9: "Order amount and transfer amount = price − discount + shipping_fee − withholding_price".
 * All parts in minor units; missing parts count as 0.
 */
export function orderAmount(parts: OrderAmountParts): number {
  const price = assertMinor(parts.price, 'price');
  const discount = assertMinor(parts.discount ?? 0, 'discount');
  const shipping = assertMinor(parts.shipping_fee ?? 0, 'shipping_fee');
  const withholding = assertMinor(parts.withholding_price ?? 0, 'withholding_price');
  return price - discount + shipping - withholding;
}

/** Major units as a number, for display-only code (never compute with it). 199050 -> 1990.5 */
export function toMajor(minor: number): number {
  return assertMinor(minor) / MINOR_PER_MAJOR;
}

/**
 * Major units (a number typed by a person or given by a provider) to minor units,
 * rounded half up to the minor unit. 19.99 -> 1999; 25 -> 2500.
 */
export function fromMajor(major: number): number {
  if (!Number.isFinite(major)) throw new RangeError(`amount must be finite, got ${String(major)}`);
  // Round via the decimal string so 1.005 (really 1.00499999...) is read as the person meant.
  const fixed = Math.abs(major).toFixed(6);
  const [whole = '0', frac = ''] = fixed.split('.');
  const micro = BigInt(whole) * 1_000_000n + BigInt(frac);
  const minor = Number(divRoundHalfUp(micro, 10_000n));
  return major < 0 ? -minor : minor;
}

/**
 * Plain 2-decimal string without grouping or symbol: 199050 -> "1990.50", -5 -> "-0.05".
 * "shown with 2 decimals" (spec 9); also the decimal form providers (SCB, PromptPay) want.
 */
export function toDecimalString(minor: number): string {
  assertMinor(minor);
  const negative = minor < 0;
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / MINOR_PER_MAJOR);
  const frac = abs % MINOR_PER_MAJOR;
  return `${negative ? '-' : ''}${whole}.${String(frac).padStart(2, '0')}`;
}

const formatterCache = new Map<string, Intl.NumberFormat>();
function formatter(locale: MoneyLocale, currency: Currency | null): Intl.NumberFormat {
  const key = `${locale}|${currency ?? ''}`;
  let f = formatterCache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, {
      ...(currency ? { style: 'currency' as const, currency, currencyDisplay: 'symbol' as const } : {}),
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      useGrouping: true,
    });
    formatterCache.set(key, f);
  }
  return f;
}

/** Exact Intl formatting of minor units: the number is split as a decimal string, no float error. */
function formatExact(minor: number, f: Intl.NumberFormat): string {
  assertMinor(minor);
  // Intl accepts decimal strings exactly ("1990.50"), so very large amounts stay exact.
  return f.format(toDecimalString(minor) as Intl.StringNumericLiteral);
}

/**
 * Money with currency symbol through Intl, always 2 decimals.
 * formatMoney(199050, 'THB', 'th-TH') = "฿1,990.50"; formatMoney(199050, 'USD', 'en-US') = "$1,990.50".
 */
export function formatMoney(minor: number, currency: Currency, locale: MoneyLocale = 'th-TH'): string {
  return formatExact(minor, formatter(locale, currency));
}

/** Amount with grouping and 2 decimals, no symbol: 199050 -> "1,990.50". */
export function formatAmount(minor: number, locale: MoneyLocale = 'th-TH'): string {
  return formatExact(minor, formatter(locale, null));
}

const THAI_DIGITS = '๐๑๒๓๔๕๖๗๘๙';
const CURRENCY_TOKENS = /US\$|THB|USD|บาท|฿|\$/gu;
const AMOUNT_PATTERN = /^(-)?(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d{0,2}))?$/u;

/**
 * Parse an amount typed or displayed ("1,990.50", "฿1,990.50", "$25", "1990.5", "-US$3.00",
 * Thai digits) to minor units. Returns null when the text is not an amount with at most
 * 2 decimals (never guesses: "1,99.0" and "1.234" are null).
 */
export function parseAmount(text: string): number | null {
  let s = text
    .replace(/[๐-๙]/gu, (d) => String(THAI_DIGITS.indexOf(d)))
    .replace(CURRENCY_TOKENS, '')
    .replace(/[\s\u00a0\u202f]/gu, '')
    .replace(/[\u2212]/gu, '-');
  // A leading minus may come before or after the stripped symbol ("-฿5" / "฿-5").
  if (s.startsWith('+')) s = s.slice(1);
  const m = AMOUNT_PATTERN.exec(s);
  if (!m) return null;
  const [, minus, wholeRaw = '', fracRaw] = m;
  if (wholeRaw === '' && (fracRaw === undefined || fracRaw === '')) return null;
  const whole = wholeRaw.replace(/,/gu, '') || '0';
  const frac = (fracRaw ?? '').padEnd(2, '0');
  const value = Number(whole) * MINOR_PER_MAJOR + Number(frac);
  if (!Number.isSafeInteger(value)) return null;
  return minus && value !== 0 ? -value : value;
}

/**
 * Omise amounts are in the smallest unit (satang for THB, spec 9 "Omise amounts in satang (x100)").
 * Our amounts already are, so this checks and returns the integer.
 */
export function toOmiseAmount(minor: number): number {
  assertMinor(minor);
  if (minor < 0) throw new RangeError('Omise amount must not be negative');
  return minor;
}

/**
 * The card gateway's (2C2P) amount: 12 digits, zero-padded, in hundredths.
 * 2500 (25.00) -> "000000002500". Throws when negative or longer than 12 digits.
 */
export function toCardGatewayAmount(minor: number): string {
  assertMinor(minor);
  if (minor < 0) throw new RangeError('card gateway amount must not be negative');
  const s = String(minor);
  if (s.length > 12) throw new RangeError('card gateway amount exceeds 12 digits');
  return s.padStart(12, '0');
}

/** Sum of integer minor amounts (checked). */
export function sumMinor(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += assertMinor(v);
  return assertMinor(total, 'sum');
}

/**
 * The currency prices are shown in: the one wanted (the site's, or the buyer's choice) when it is
 * offered, else THB (every plan has a THB price). Used by the cart and by the course page's hero
 * and sticky bar before the cart is there.
 */
export function shownCurrency(wanted: Currency, usdOffered: boolean): Currency {
  return wanted === 'USD' && !usdOffered ? 'THB' : wanted;
}

/**
 * A course or product card's price (the lists, the related courses): its default plan's price in
 * the currency its page opens in (shownCurrency: the site's currency, THB when the course has no
 * USD price).
 */
export function cardPrice(c: { default_price?: number | null; default_price_usd?: number | null }, siteCurrency: Currency): { amount: number | null; currency: Currency } {
  const currency = shownCurrency(siteCurrency, c.default_price_usd !== null && c.default_price_usd !== undefined);
  return { amount: (currency === 'USD' ? c.default_price_usd : c.default_price) ?? null, currency };
}

/** The plan's price in minor units of the currency; null when it has none (USD: price_usd null). */
export function planPrice(plan: { price?: number | null; price_usd?: number | null }, currency: Currency): number | null {
  const p = currency === 'USD' ? plan.price_usd : plan.price;
  return p === null || p === undefined ? null : p;
}
