/**
 * Coupons, promotions and the one cart pricing function both browser and server call.
 *
 * Order of discounts in a cart (README "Decisions"):
 *   1. the selected promotion, on the original prices, spread over its courses (decisions.md #5);
 *   2. coupons on what is left: percent coupons first (larger percent first), then amount coupons
 *      from the largest amount down (decisions.md #4), each on what is left of each course;
 *   so no course's discount exceeds its price and the order's discount never exceeds the subtotal.
 */
import { percentOf } from './money';
import type { Currency } from './money';
import { MSG, type Msg } from './messages';
import { planPrice } from './plans';
import type { CartLine, Coupon, PricingPlan, PricingSettings, Promotion } from './types';
import { idList, isOn } from './values';

// ---------------------------------------------------------------------------------------------
// Coupons
// ---------------------------------------------------------------------------------------------

export type CouponErrorCode =
  | 'NOT_FOUND'
  | 'COUPON_DUPLICATE'
  | 'COUPON_ONLY_ONE'
  | 'COUPON_NO_PAYMENT_METHOD'
  | 'COUPON_NOT_SUPPORTED_PAYMENT'
  | 'COUPON_NOT_SUPPORTED_COURSE'
  | 'COUPON_NOT_ENOUGH_COURSES'
  | 'COUPON_NOT_SUPPORTED_CURRENCY';

export type CouponCheck = { ok: true } | { ok: false; code: CouponErrorCode; message: Msg };

/** A course in the cart with its line price (minor units of the cart currency). */
export interface PricePart {
  course_id: number;
  price: number;
}

export interface CouponContext {
  /** The cart's courses (only course_id is read). */
  lines: readonly { course_id: number }[];
  /** Coupons already on the order. */
  applied?: readonly Coupon[];
  /** The chosen payment method; null = none chosen (COUPON_NO_PAYMENT_METHOD). */
  paymentMethodId: number | null;
  currency: Currency;
  settings?: PricingSettings;
}

export function isPercentDiscount(d: { discount_type: string }): boolean {
  return d.discount_type === 'percent';
}

/** The course ids a coupon covers. */
export function couponCourseIds(coupon: Pick<Coupon, 'courses'>): number[] {
  return idList(coupon.courses);
}

/** The payment method ids a coupon allows. */
export function couponPaymentMethodIds(coupon: Pick<Coupon, 'payment_method'>): number[] {
  return idList(coupon.payment_method);
}

/**
 * The coupon's (or promotion's) value in the currency: a percent (clamped to 0..100) for percent
 * discounts, minor units (never below 0) for amount discounts (THB discount_amont, USD
 * discount_amount_usd); null when an amount discount has no amount in that currency.
 */
export function discountValue(
  d: Pick<Coupon, 'discount_type' | 'discount_amont' | 'discount_amount_usd'>,
  currency: Currency,
): number | null {
  if (isPercentDiscount(d)) return Math.min(100, Math.max(0, d.discount_amont));
  const v = currency === 'USD' ? d.discount_amount_usd : d.discount_amont;
  if (v === null || v === undefined) return null;
  return Math.max(0, Math.trunc(v));
}

/** P2 coupons need number_of_course matching courses (at least 1); P1 coupons need one. */
export function requiredCourseCount(c: Pick<Coupon, 'coupon_type' | 'number_of_course'>): number {
  return c.coupon_type === 'P2' ? Math.max(1, Math.trunc(c.number_of_course ?? 1)) : 1;
}

function sameCoupon(a: Pick<Coupon, 'id' | 'code'>, b: Pick<Coupon, 'id' | 'code'>): boolean {
  return a.id === b.id || a.code.trim().toLowerCase() === b.code.trim().toLowerCase();
}

function fail(code: CouponErrorCode): CouponCheck {
  return { ok: false, code, message: MSG[code] };
}

/**
 * Spec 5 "Coupons: payment method must be among allowed ones; at least one cart course covered;
 * P2 needs at least number_of_course courses; duplicate rejected; one coupon only when the site
 * setting says so." Checked in this order: NOT_FOUND (null coupon), COUPON_DUPLICATE,
 * COUPON_ONLY_ONE, COUPON_NO_PAYMENT_METHOD (no method chosen), COUPON_NOT_SUPPORTED_PAYMENT
 * (the chosen method is not in the coupon's payment_method list, an empty list included),
 * COUPON_NOT_SUPPORTED_COURSE, COUPON_NOT_ENOUGH_COURSES, COUPON_NOT_SUPPORTED_CURRENCY
 * (an amount coupon without an amount in USD).
 */
export function validateCoupon(coupon: Coupon | null | undefined, ctx: CouponContext): CouponCheck {
  if (!coupon) return fail('NOT_FOUND');
  const applied = ctx.applied ?? [];
  if (applied.some((a) => sameCoupon(a, coupon))) return fail('COUPON_DUPLICATE');
  if (isOn(ctx.settings?.is_one_coupon_only) && applied.length > 0) return fail('COUPON_ONLY_ONE');
  if (ctx.paymentMethodId === null) return fail('COUPON_NO_PAYMENT_METHOD');
  if (!couponPaymentMethodIds(coupon).includes(ctx.paymentMethodId)) return fail('COUPON_NOT_SUPPORTED_PAYMENT');
  const covered = couponCourseIds(coupon);
  const matching = new Set(ctx.lines.map((l) => l.course_id).filter((id) => covered.includes(id)));
  if (matching.size === 0) return fail('COUPON_NOT_SUPPORTED_COURSE');
  if (matching.size < requiredCourseCount(coupon)) return fail('COUPON_NOT_ENOUGH_COURSES');
  if (discountValue(coupon, ctx.currency) === null) return fail('COUPON_NOT_SUPPORTED_CURRENCY');
  return { ok: true };
}

/**
 * Spec 4: "A coupon whose payment_method list excludes the chosen method is dropped."
 * Splits the coupons into those kept and those dropped for this method.
 */
export function couponsForPaymentMethod<C extends Pick<Coupon, 'payment_method'>>(
  coupons: readonly C[],
  paymentMethodId: number,
): { kept: C[]; dropped: C[] } {
  const kept: C[] = [];
  const dropped: C[] = [];
  for (const c of coupons) (couponPaymentMethodIds(c).includes(paymentMethodId) ? kept : dropped).push(c);
  return { kept, dropped };
}

/**
 * Spec 4: "Coupons and promotions are mutually exclusive where the site setting says so: choosing
 * one asks confirmation to drop the other." True when adding `adding` must first drop the other kind.
 */
export function needsExclusiveSwitch(
  settings: PricingSettings | undefined,
  state: { promotionSelected: boolean; couponCount: number },
  adding: 'coupon' | 'promotion',
): boolean {
  if (!isOn(settings?.is_coupon_promotion_exclusive)) return false;
  return adding === 'coupon' ? state.promotionSelected : state.couponCount > 0;
}

/**
 * Canonical application order (decisions.md #4): percent coupons first (larger percent first),
 * then amount coupons from the largest amount down; ties by id, then code. Any input order of
 * the same coupons gives the same order, hence the same total (one id = one coupon).
 */
export function sortCoupons<C extends Coupon>(coupons: readonly C[], currency: Currency): C[] {
  const key = (c: C) => discountValue(c, currency) ?? 0;
  return [...coupons].sort((a, b) => {
    const pa = isPercentDiscount(a) ? 0 : 1;
    const pb = isPercentDiscount(b) ? 0 : 1;
    if (pa !== pb) return pa - pb;
    const byValue = key(b) - key(a);
    if (byValue !== 0) return byValue;
    if (a.id !== b.id) return a.id - b.id;
    return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
  });
}

/** Discount of a percent or amount value on what is left of one course (never above it). */
function takeFrom(remaining: number, percent: boolean, value: number): number {
  return percent ? percentOf(remaining, value) : Math.min(value, remaining);
}

/** Order of parts by price, highest first; ties by lower course id, then position. */
function byPriceDesc(parts: readonly PricePart[]): (a: number, b: number) => number {
  return (a, b) => {
    const pa = parts[a] as PricePart;
    const pb = parts[b] as PricePart;
    return pb.price - pa.price || pa.course_id - pb.course_id || a - b;
  };
}

export interface CouponApplication {
  /** Coupon discount per part (aligned with the parts given). */
  lineDiscounts: number[];
  /** Applied coupons in application order: their discount, the parts they touched and how much each. */
  coupons: { id: number; code: string; discount: number; parts: number[]; amounts: number[] }[];
  total: number;
}

/**
 * Apply valid coupons in the canonical order on what is left of each part
 * (`alreadyDiscounted[i]` is taken off part i first, e.g. its promotion share).
 * - P1: the one matching course where it gives the largest discount (ties: higher price,
 *   lower course id) (decisions.md #3).
 * - P2: each of the number_of_course highest-priced matching courses: percent of each, or the
 *   amount off each, never more than what is left of it (decisions.md #3).
 * Coupons are not validated here: call validateCoupon (priceCart does both).
 */
export function applyCoupons(
  parts: readonly PricePart[],
  coupons: readonly Coupon[],
  currency: Currency,
  alreadyDiscounted: readonly number[] = [],
): CouponApplication {
  const remaining = parts.map((p, i) => p.price - (alreadyDiscounted[i] ?? 0));
  const lineDiscounts = parts.map(() => 0);
  const applied: CouponApplication['coupons'] = [];
  const order = byPriceDesc(parts);
  for (const coupon of sortCoupons(coupons, currency)) {
    const value = discountValue(coupon, currency) ?? 0;
    const percent = isPercentDiscount(coupon);
    const covered = couponCourseIds(coupon);
    const matching = parts.map((_, i) => i).filter((i) => covered.includes((parts[i] as PricePart).course_id));
    let targets: number[];
    if (coupon.coupon_type === 'P2') {
      targets = [...matching].sort(order).slice(0, requiredCourseCount(coupon));
    } else {
      let best: number | null = null;
      let bestAmount = -1;
      for (const i of [...matching].sort(order)) {
        const d = takeFrom(remaining[i] as number, percent, value);
        if (d > bestAmount) {
          best = i;
          bestAmount = d;
        }
      }
      targets = best === null ? [] : [best];
    }
    let discount = 0;
    const amounts: number[] = [];
    for (const i of targets) {
      const d = takeFrom(remaining[i] as number, percent, value);
      remaining[i] = (remaining[i] as number) - d;
      lineDiscounts[i] = (lineDiscounts[i] as number) + d;
      amounts.push(d);
      discount += d;
    }
    applied.push({ id: coupon.id, code: coupon.code, discount, parts: targets, amounts });
  }
  return { lineDiscounts, coupons: applied, total: lineDiscounts.reduce((s, d) => s + d, 0) };
}

// ---------------------------------------------------------------------------------------------
// Promotions
// ---------------------------------------------------------------------------------------------

/** The course ids of a promotion: `courses`, else `coursesInPromotion` (ids or course objects). */
export function promotionCourseIds(p: Pick<Promotion, 'courses' | 'coursesInPromotion'>): number[] {
  const fromCourses = idList(p.courses);
  if (fromCourses.length > 0 || !p.coursesInPromotion) return fromCourses;
  const cip = p.coursesInPromotion;
  if (typeof cip === 'string') return idList(cip);
  return idList(
    cip.map((c) => (typeof c === 'object' && c !== null ? (c.course_id ?? c.courseID ?? c.id ?? '') : c)) as (number | string)[],
  );
}

/**
 * Decision #5 spread: parts proportional to price, floored to the minor unit, the remaining
 * units one at a time to the largest fractional parts (ties: higher price, then lower course id,
 * then position). The parts sum exactly to `discount`; each is between 0 and its price.
 * Throws RangeError unless 0 ≤ discount ≤ Σ prices (all integers, prices ≥ 0).
 */
export function spreadDiscount(discount: number, parts: readonly PricePart[]): number[] {
  const total = parts.reduce((s, p) => s + p.price, 0);
  if (!Number.isSafeInteger(discount) || discount < 0 || discount > total) {
    throw new RangeError(`discount ${discount} must be an integer within 0..${total}`);
  }
  if (parts.some((p) => !Number.isSafeInteger(p.price) || p.price < 0)) throw new RangeError('prices must be integers ≥ 0');
  if (discount === 0) return parts.map(() => 0);
  const D = BigInt(discount);
  const P = BigInt(total);
  const floors = parts.map((p) => (D * BigInt(p.price)) / P);
  const fractions = parts.map((p) => (D * BigInt(p.price)) % P);
  let left = discount - floors.reduce((s, f) => s + Number(f), 0);
  const order = parts
    .map((_, i) => i)
    .sort((a, b) => {
      const fa = fractions[a] as bigint;
      const fb = fractions[b] as bigint;
      if (fa !== fb) return fa > fb ? -1 : 1;
      return byPriceDesc(parts)(a, b);
    });
  const out = floors.map(Number);
  for (const i of order) {
    if (left === 0) break;
    out[i] = (out[i] as number) + 1;
    left -= 1;
  }
  return out;
}

export interface PromotionOffer {
  promotion: Promotion;
  /** The promotion's discount (minor units). */
  discount: number;
  /** Indices of the parts the promotion involves. */
  parts: number[];
  /** The discount per part (aligned with the parts given; 0 outside the promotion). */
  spread: number[];
}

/**
 * Is the promotion usable for these cart parts, and for how much?
 * - P1: involves every cart course in the promotion; needs one.
 * - P2: needs at least number_of_course of its courses in the cart and involves the
 *   number_of_course highest-priced of them.
 * The discount is computed on the involved courses' total: percent of it (rounded half up), or
 * the amount (USD: discount_amount_usd; none = not usable in USD) capped at that total; then
 * spread in proportion to price (spreadDiscount). Returns null when not usable.
 */
export function evaluatePromotion(promotion: Promotion, parts: readonly PricePart[], currency: Currency): PromotionOffer | null {
  const value = discountValue(promotion, currency);
  if (value === null) return null;
  const ids = promotionCourseIds(promotion);
  const matching = parts.map((_, i) => i).filter((i) => ids.includes((parts[i] as PricePart).course_id));
  const distinct = new Set(matching.map((i) => (parts[i] as PricePart).course_id));
  const need = promotion.promotion_type === 'P2' ? Math.max(1, Math.trunc(promotion.number_of_course ?? 1)) : 1;
  if (distinct.size < need) return null;
  const involved = promotion.promotion_type === 'P2' ? [...matching].sort(byPriceDesc(parts)).slice(0, need) : matching;
  const base = involved.reduce((s, i) => s + (parts[i] as PricePart).price, 0);
  const discount = isPercentDiscount(promotion) ? percentOf(base, value) : Math.min(value, base);
  const shares = spreadDiscount(
    discount,
    involved.map((i) => parts[i] as PricePart),
  );
  const spread = parts.map(() => 0);
  involved.forEach((i, k) => {
    spread[i] = shares[k] as number;
  });
  return { promotion, discount, parts: involved, spread };
}

/** The promotions usable for this cart, in input order. */
export function usablePromotions(promotions: readonly Promotion[], parts: readonly PricePart[], currency: Currency): PromotionOffer[] {
  return promotions.map((p) => evaluatePromotion(p, parts, currency)).filter((o): o is PromotionOffer => o !== null);
}

/**
 * Spec 4: "The highest-discount promotion is auto-selected": the usable promotion with the highest
 * discount, ties to the lower id; null when none is usable.
 */
export function bestPromotion(promotions: readonly Promotion[], parts: readonly PricePart[], currency: Currency): PromotionOffer | null {
  let best: PromotionOffer | null = null;
  for (const o of usablePromotions(promotions, parts, currency)) {
    if (!best || o.discount > best.discount || (o.discount === best.discount && o.promotion.id < best.promotion.id)) best = o;
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Cart pricing
// ---------------------------------------------------------------------------------------------

/** One priced line; names follow the API's OrderCourseLine (course_id, pricingplan_id, ...). */
export interface PricedLine {
  course_id: number;
  pricingplan_id: number;
  qty: number;
  /** The plan's unit price in the cart currency. */
  unit_price: number;
  /** unit_price × qty, before discounts (OrderCourseLine.original_pricing_price). */
  original_pricing_price: number;
  promotion_discount: number;
  coupon_discount: number;
  /** promotion_discount + coupon_discount (never above original_pricing_price). */
  discount: number;
  /** original_pricing_price − discount. */
  total: number;
  /** Codes of the coupons that discounted this line, comma-joined; null when none. */
  coupon_code: string | null;
}

export interface RejectedCoupon {
  id: number | null;
  code: string;
  reason: CouponErrorCode;
  message: Msg;
}

export interface PricedCart {
  ok: true;
  currency: Currency;
  lines: PricedLine[];
  subtotal: number;
  promotion_id: number | null;
  promotion_discount: number;
  coupon_discount: number;
  /** promotion_discount + coupon_discount, 0 ≤ discount ≤ subtotal. */
  discount: number;
  /** subtotal − discount (before shipping and withholding: see money.orderAmount). */
  total: number;
  /** Applied coupons in application order. */
  coupons: { id: number; code: string; discount: number }[];
  coupon_list_code: string[];
  /** Coupons left out, with the reason (e.g. dropped for the payment method). */
  rejected_coupons: RejectedCoupon[];
}

export type PriceCartErrorCode =
  | 'dont_have_pricing'
  | 'cart_pricing_usd_failed'
  | 'invalid_qty'
  | 'promotion_not_usable'
  | 'coupon_promotion_exclusive';

export interface PriceCartError {
  ok: false;
  code: PriceCartErrorCode;
  message: Msg;
  course_id?: number;
}

export type PriceCartResult = PricedCart | PriceCartError;

const PRICE_ERROR_MESSAGES: Record<PriceCartErrorCode, Msg> = {
  dont_have_pricing: MSG.DONT_HAVE_PRICING,
  cart_pricing_usd_failed: MSG.CART_PRICING_USD_FAILED,
  invalid_qty: MSG.INVALID_QTY,
  promotion_not_usable: MSG.PROMOTION_NOT_USABLE,
  coupon_promotion_exclusive: MSG.COUPON_PROMOTION_EXCLUSIVE,
};

function priceError(code: PriceCartErrorCode, course_id?: number): PriceCartError {
  return { ok: false, code, message: PRICE_ERROR_MESSAGES[code], ...(course_id === undefined ? {} : { course_id }) };
}

/** The plan of a cart line: same id and same course; undefined when missing. */
export function findLinePlan(line: Pick<CartLine, 'course_id' | 'pricing_plan_id'>, plans: readonly PricingPlan[]): PricingPlan | undefined {
  return plans.find((p) => p.id === line.pricing_plan_id && p.course_id === line.course_id);
}

/** A line's quantity: missing = 1; must be a whole number ≥ 1. */
export function lineQty(line: Pick<CartLine, 'qty'>): number | null {
  const q = line.qty ?? 1;
  return Number.isSafeInteger(q) && q >= 1 ? q : null;
}

/**
 * Price a cart: the one function the browser (to show) and the server (to decide) both call.
 * Lines are priced from their plans (USD: price_usd; null -> cart_pricing_usd_failed), the
 * promotion (if any) is applied and spread, then the coupons that pass validateCoupon in the
 * canonical order; coupons that fail (payment method excluded, duplicate, one-only, ...) are
 * reported in rejected_coupons, not applied. Errors: dont_have_pricing, cart_pricing_usd_failed,
 * invalid_qty, promotion_not_usable, coupon_promotion_exclusive (both given while exclusive).
 */
export function priceCart(
  lines: readonly CartLine[],
  plans: readonly PricingPlan[],
  coupons: readonly Coupon[],
  promotion: Promotion | null,
  currency: Currency,
  paymentMethodId: number | null,
  settings: PricingSettings = {},
): PriceCartResult {
  const base: { line: CartLine; qty: number; unit: number }[] = [];
  for (const line of lines) {
    const qty = lineQty(line);
    if (qty === null) return priceError('invalid_qty', line.course_id);
    const plan = findLinePlan(line, plans);
    if (!plan) return priceError('dont_have_pricing', line.course_id);
    const unit = planPrice(plan, currency);
    if (unit === null) return priceError('cart_pricing_usd_failed', line.course_id);
    base.push({ line, qty, unit });
  }
  if (isOn(settings.is_coupon_promotion_exclusive) && promotion && coupons.length > 0) return priceError('coupon_promotion_exclusive');

  const parts: PricePart[] = base.map((b) => ({ course_id: b.line.course_id, price: b.unit * b.qty }));
  const subtotal = parts.reduce((s, p) => s + p.price, 0);

  let promoSpread = parts.map(() => 0);
  if (promotion) {
    const offer = evaluatePromotion(promotion, parts, currency);
    if (!offer) return priceError('promotion_not_usable');
    promoSpread = offer.spread;
  }

  const accepted: Coupon[] = [];
  const rejected: RejectedCoupon[] = [];
  for (const c of sortCoupons(coupons, currency)) {
    const check = validateCoupon(c, { lines: parts, applied: accepted, paymentMethodId, currency, settings });
    if (check.ok) accepted.push(c);
    else rejected.push({ id: c.id, code: c.code, reason: check.code, message: check.message });
  }
  const application = applyCoupons(parts, accepted, currency, promoSpread);

  const codesByLine = parts.map(() => [] as string[]);
  for (const c of application.coupons) {
    c.parts.forEach((i, k) => {
      if ((c.amounts[k] as number) > 0) (codesByLine[i] as string[]).push(c.code);
    });
  }
  const priced: PricedLine[] = base.map((b, i) => {
    const price = (parts[i] as PricePart).price;
    const promotion_discount = promoSpread[i] as number;
    const coupon_discount = application.lineDiscounts[i] as number;
    const discount = promotion_discount + coupon_discount;
    const codes = [...new Set(codesByLine[i])];
    return {
      course_id: b.line.course_id,
      pricingplan_id: b.line.pricing_plan_id,
      qty: b.qty,
      unit_price: b.unit,
      original_pricing_price: price,
      promotion_discount,
      coupon_discount,
      discount,
      total: price - discount,
      coupon_code: codes.length > 0 ? codes.join(',') : null,
    };
  });
  const promotion_discount = promoSpread.reduce((s, d) => s + d, 0);
  const coupon_discount = application.total;
  const discount = promotion_discount + coupon_discount;
  return {
    ok: true,
    currency,
    lines: priced,
    subtotal,
    promotion_id: promotion ? promotion.id : null,
    promotion_discount,
    coupon_discount,
    discount,
    total: subtotal - discount,
    coupons: application.coupons.map(({ id, code, discount: d }) => ({ id, code, discount: d })),
    coupon_list_code: application.coupons.map((c) => c.code),
    rejected_coupons: rejected,
  };
}

/** Price parts of a cart (course id and line price in the currency), or the pricing error. */
export function cartParts(
  lines: readonly CartLine[],
  plans: readonly PricingPlan[],
  currency: Currency,
): { ok: true; parts: PricePart[] } | PriceCartError {
  const r = priceCart(lines, plans, [], null, currency, null);
  return r.ok ? { ok: true, parts: r.lines.map((l) => ({ course_id: l.course_id, price: l.original_pricing_price })) } : r;
}
