import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyCoupons,
  bestPromotion,
  cartParts,
  couponsForPaymentMethod,
  discountValue,
  evaluatePromotion,
  needsExclusiveSwitch,
  priceCart,
  promotionCourseIds,
  requiredCourseCount,
  sortCoupons,
  spreadDiscount,
  usablePromotions,
  validateCoupon,
} from '../../domain/discounts';
import type { CouponContext, PricedCart, PricePart } from '../../domain/discounts';
import { MSG } from '../../domain/messages';
import type { Coupon, Promotion } from '../../domain/types';
import { cart, coupon, plan, promotion } from './fixtures';

const RUNS = { numRuns: 1000 };

// Course 1: 1,990.00 THB; course 2: 990.00; course 3: 500.00.
const C = cart([
  [1, 199000, 6000],
  [2, 99000, 3000],
  [3, 50000, 1500],
]);
const parts: PricePart[] = [
  { course_id: 1, price: 199000 },
  { course_id: 2, price: 99000 },
  { course_id: 3, price: 50000 },
];

function priced(coupons: Coupon[], promo: Promotion | null = null, method: number | null = 1, settings = {}): PricedCart {
  const r = priceCart(C.lines, C.plans, coupons, promo, 'THB', method, settings);
  if (!r.ok) throw new Error(`unexpected ${r.code}`);
  return r;
}

describe('spec 5 "Coupons: payment method must be among allowed ones; at least one cart course covered; P2 needs at least number_of_course courses; duplicate rejected; one coupon only when the site setting says so"', () => {
  const ctx: CouponContext = { lines: C.lines, paymentMethodId: 1, currency: 'THB' };
  const valid = coupon({ id: 1, courses: [1, 2] });
  it.each<{ rule: string; c: Coupon | null; over?: Partial<CouponContext>; code: string | null }>([
    { rule: 'NOT_FOUND: coupon does not exist', c: null, code: 'NOT_FOUND' },
    { rule: 'duplicate rejected (same id)', c: valid, over: { applied: [valid] }, code: 'COUPON_DUPLICATE' },
    { rule: 'duplicate rejected (same code, any case)', c: valid, over: { applied: [coupon({ id: 9, code: ' c1 ' })] }, code: 'COUPON_DUPLICATE' },
    { rule: 'one coupon only when the site setting says so', c: valid, over: { applied: [coupon({ id: 2, courses: [1] })], settings: { is_one_coupon_only: true } }, code: 'COUPON_ONLY_ONE' },
    { rule: 'several coupons allowed without the setting', c: valid, over: { applied: [coupon({ id: 2, courses: [1] })] }, code: null },
    { rule: 'no payment method chosen', c: coupon({ id: 1, courses: [1] }), over: { paymentMethodId: null }, code: 'COUPON_NO_PAYMENT_METHOD' },
    { rule: 'payment method must be among allowed ones', c: coupon({ id: 1, courses: [1], payment_method: [2, 3] }), code: 'COUPON_NOT_SUPPORTED_PAYMENT' },
    { rule: 'a coupon with no allowed method suits no method', c: coupon({ id: 1, courses: [1], payment_method: [] }), code: 'COUPON_NOT_SUPPORTED_PAYMENT' },
    { rule: 'at least one cart course covered', c: coupon({ id: 1, courses: [99] }), code: 'COUPON_NOT_SUPPORTED_COURSE' },
    { rule: 'an empty course list covers nothing', c: coupon({ id: 1, courses: [] }), code: 'COUPON_NOT_SUPPORTED_COURSE' },
    { rule: 'comma list of courses', c: coupon({ id: 1, courses: '3, 7', payment_method: '1,2' }), code: null },
    { rule: 'P2 needs at least number_of_course courses (2 of 3 present)', c: coupon({ id: 1, coupon_type: 'P2', number_of_course: 3, courses: [1, 2, 99] }), code: 'COUPON_NOT_ENOUGH_COURSES' },
    { rule: 'P2 with enough courses', c: coupon({ id: 1, coupon_type: 'P2', number_of_course: 2, courses: [1, 2, 99] }), code: null },
    { rule: 'USD amount coupon needs discount_amount_usd', c: coupon({ id: 1, courses: [1], discount_type: 'amount', discount_amont: 100, discount_amount_usd: null }), over: { currency: 'USD' }, code: 'COUPON_NOT_SUPPORTED_CURRENCY' },
    { rule: 'USD percent coupon is fine', c: coupon({ id: 1, courses: [1] }), over: { currency: 'USD' }, code: null },
  ])('$rule -> $code', ({ c, over, code }) => {
    const r = validateCoupon(c, { ...ctx, ...over });
    if (code === null) expect(r).toEqual({ ok: true });
    else expect(r).toEqual({ ok: false, code, message: MSG[code as keyof typeof MSG] });
  });

  it('gives the Thai message with the reason code', () => {
    expect(validateCoupon(null, ctx)).toMatchObject({ message: MSG.NOT_FOUND });
  });
});

describe('spec 9 "P1 coupons give the best discount to one matching course" (decisions.md #3)', () => {
  it('10% goes to the dearest matching course: 199.00 off 1,990.00', () => {
    expect(priced([coupon({ id: 1, courses: [1, 2] })]).discount).toBe(19900);
  });

  it.each<{ rule: string; c: Coupon; perLine: number[] }>([
    { rule: 'percent: largest discount is on the highest price', c: coupon({ id: 1, courses: [1, 2] }), perLine: [19900, 0, 0] },
    { rule: 'amount 600.00 on courses 2, 3: course 2 gives 600.00, course 3 only 500.00', c: coupon({ id: 1, courses: [2, 3], discount_type: 'amount', discount_amont: 60000 }), perLine: [0, 60000, 0] },
    { rule: 'amount equal on both: tie goes to the higher price', c: coupon({ id: 1, courses: [3, 2], discount_type: 'amount', discount_amont: 50000 }), perLine: [0, 50000, 0] },
    { rule: 'amount larger than the course price is capped at it', c: coupon({ id: 1, courses: [3], discount_type: 'amount', discount_amont: 1_000_000 }), perLine: [0, 0, 50000] },
  ])('$rule', ({ c, perLine }) => {
    expect(priced([c]).lines.map((l) => l.coupon_discount)).toEqual(perLine);
  });
});

describe('spec 9 "P2 apply to the top-priced N courses (number_of_course)" (decisions.md #3)', () => {
  it.each<{ rule: string; c: Coupon; perLine: number[] }>([
    { rule: '10% of each of the two dearest matching courses', c: coupon({ id: 1, coupon_type: 'P2', number_of_course: 2, courses: [1, 2, 3] }), perLine: [19900, 9900, 0] },
    { rule: 'amount off each, capped at each course price', c: coupon({ id: 1, coupon_type: 'P2', number_of_course: 2, courses: [2, 3], discount_type: 'amount', discount_amont: 60000 }), perLine: [0, 60000, 50000] },
    { rule: 'number_of_course 1 behaves on the top-priced one', c: coupon({ id: 1, coupon_type: 'P2', number_of_course: 1, courses: [2, 3] }), perLine: [0, 9900, 0] },
  ])('$rule', ({ c, perLine }) => {
    expect(priced([c]).lines.map((l) => l.coupon_discount)).toEqual(perLine);
  });

  it('P2 short of number_of_course is rejected, not applied', () => {
    const r = priced([coupon({ id: 1, coupon_type: 'P2', number_of_course: 4, courses: [1, 2, 3] })]);
    expect(r.discount).toBe(0);
    expect(r.rejected_coupons).toEqual([{ id: 1, code: 'C1', reason: 'COUPON_NOT_ENOUGH_COURSES', message: MSG.COUPON_NOT_ENOUGH_COURSES }]);
  });
});

describe('spec 9 "percent coupons apply first, then amount coupons, largest first" (decisions.md #4)', () => {
  it('percent before amount: 10% of 1,990.00 then 100.00 off = 299.00 (not 289.00)', () => {
    const r = priced([
      coupon({ id: 1, courses: [1], discount_type: 'amount', discount_amont: 10000 }),
      coupon({ id: 2, courses: [1], discount_type: 'percent', discount_amont: 10 }),
    ]);
    expect(r.discount).toBe(29900);
    expect(r.coupons.map((c) => c.code)).toEqual(['C2', 'C1']);
  });

  it('amount coupons largest first, each on what is left', () => {
    const r = priced([
      coupon({ id: 1, courses: [1, 2], discount_type: 'amount', discount_amont: 5000 }),
      coupon({ id: 2, courses: [1, 2], discount_type: 'amount', discount_amont: 150000 }),
    ]);
    // 1,500.00 on course 1 (largest discount), then 50.00: equal on both, tie -> higher price (course 1)
    expect(r.lines.map((l) => l.coupon_discount)).toEqual([155000, 0, 0]);
    expect(r.coupon_list_code).toEqual(['C2', 'C1']);
    expect(r.lines[0]?.coupon_code).toBe('C2,C1');
  });

  it('two percent coupons: larger percent first, each on what is left', () => {
    const r = priced([coupon({ id: 1, courses: [3], discount_amont: 10 }), coupon({ id: 2, courses: [3], discount_amont: 50 })]);
    expect(r.lines[2]?.coupon_discount).toBe(25000 + 2500);
  });

  it('spec 9 "total capped at subtotal": coupons beyond the prices stop at 0', () => {
    const r = priced([
      coupon({ id: 1, coupon_type: 'P2', number_of_course: 3, courses: [1, 2, 3], discount_type: 'percent', discount_amont: 100 }),
      coupon({ id: 2, coupon_type: 'P2', number_of_course: 3, courses: [1, 2, 3], discount_type: 'amount', discount_amont: 10_000_000 }),
    ]);
    expect(r.discount).toBe(r.subtotal);
    expect(r.total).toBe(0);
    expect(r.lines.every((l) => l.total === 0)).toBe(true);
    // the second coupon found nothing left: applied with 0, no code on the lines
    expect(r.coupons).toEqual([
      { id: 1, code: 'C1', discount: 348000 },
      { id: 2, code: 'C2', discount: 0 },
    ]);
    expect(r.lines.map((l) => l.coupon_code)).toEqual(['C1', 'C1', 'C1']);
  });

  it('sortCoupons is the canonical order (percent desc, amount desc, then id, then code)', () => {
    const a = coupon({ id: 3, discount_type: 'amount', discount_amont: 100 });
    const b = coupon({ id: 2, discount_type: 'amount', discount_amont: 500 });
    const c = coupon({ id: 5, discount_type: 'percent', discount_amont: 5 });
    const d = coupon({ id: 4, discount_type: 'percent', discount_amont: 15 });
    const e = coupon({ id: 1, discount_type: 'amount', discount_amont: 100 });
    const f = coupon({ id: 1, code: 'A', discount_type: 'amount', discount_amont: 100 });
    expect(sortCoupons([a, b, c, d, e, f], 'THB').map((x) => `${x.id}${x.code}`)).toEqual(['4C4', '5C5', '2C2', '1A', '1C1', '3C3']);
    expect(sortCoupons([f, e], 'THB').map((x) => x.code)).toEqual(['A', 'C1']);
  });
});

describe('spec 4 "A coupon whose payment_method list excludes the chosen method is dropped"', () => {
  it('priceCart drops it and reports why', () => {
    const r = priced([coupon({ id: 1, courses: [1], payment_method: [2] }), coupon({ id: 2, courses: [2] })], null, 1);
    expect(r.coupons.map((c) => c.id)).toEqual([2]);
    expect(r.rejected_coupons.map((c) => c.reason)).toEqual(['COUPON_NOT_SUPPORTED_PAYMENT']);
  });

  it('couponsForPaymentMethod splits kept and dropped', () => {
    const keep = coupon({ id: 1, payment_method: [1, 8] });
    const drop = coupon({ id: 2, payment_method: '2,3' });
    expect(couponsForPaymentMethod([keep, drop], 8)).toEqual({ kept: [keep], dropped: [drop] });
  });

  it('duplicate and one-only coupons are rejected in priceCart too', () => {
    const c1 = coupon({ id: 1, courses: [1] });
    expect(priced([c1, c1]).rejected_coupons.map((c) => c.reason)).toEqual(['COUPON_DUPLICATE']);
    const r = priced([c1, coupon({ id: 2, courses: [2], discount_amont: 5 })], null, 1, { is_one_coupon_only: true });
    expect(r.coupons.map((c) => c.id)).toEqual([1]);
    expect(r.rejected_coupons.map((c) => c.reason)).toEqual(['COUPON_ONLY_ONE']);
  });
});

describe('spec 4 "Coupons and promotions are mutually exclusive where the site setting says so"', () => {
  it.each([
    { settings: { is_coupon_promotion_exclusive: true }, state: { promotionSelected: true, couponCount: 0 }, adding: 'coupon' as const, ask: true },
    { settings: { is_coupon_promotion_exclusive: true }, state: { promotionSelected: false, couponCount: 1 }, adding: 'promotion' as const, ask: true },
    { settings: { is_coupon_promotion_exclusive: true }, state: { promotionSelected: false, couponCount: 0 }, adding: 'coupon' as const, ask: false },
    { settings: { is_coupon_promotion_exclusive: true }, state: { promotionSelected: false, couponCount: 0 }, adding: 'promotion' as const, ask: false },
    { settings: {}, state: { promotionSelected: true, couponCount: 2 }, adding: 'coupon' as const, ask: false },
    { settings: undefined, state: { promotionSelected: true, couponCount: 2 }, adding: 'promotion' as const, ask: false },
  ])('adding a $adding with $state under $settings asks to switch: $ask', ({ settings, state, adding, ask }) => {
    expect(needsExclusiveSwitch(settings, state, adding)).toBe(ask);
  });

  it('priceCart refuses both at once when exclusive; combines them otherwise (promotion first)', () => {
    const promo = promotion({ id: 7, courses: [3], discount_type: 'amount', discount_amont: 10000 });
    const c = coupon({ id: 1, courses: [3], discount_amont: 10 });
    expect(priceCart(C.lines, C.plans, [c], promo, 'THB', 1, { is_coupon_promotion_exclusive: true })).toMatchObject({ ok: false, code: 'coupon_promotion_exclusive' });
    const r = priced([c], promo);
    expect(r.lines[2]).toMatchObject({ original_pricing_price: 50000, promotion_discount: 10000, coupon_discount: 4000, discount: 14000, total: 36000, coupon_code: 'C1' });
    expect(r.promotion_id).toBe(7);
  });
});

describe('spec 9 "a promotion\'s discount is spread in proportion to price across involved courses, never below 0" (decisions.md #5)', () => {
  it.each<{ rule: string; discount: number; ps: PricePart[]; out: number[] }>([
    { rule: 'equal prices and fractions: remainder to the lower course id', discount: 100, ps: [{ course_id: 2, price: 100 }, { course_id: 1, price: 100 }, { course_id: 3, price: 100 }], out: [33, 34, 33] },
    { rule: 'remainder to the largest fractional part', discount: 10, ps: [{ course_id: 1, price: 10 }, { course_id: 2, price: 20 }], out: [3, 7] },
    { rule: 'equal fractions: remainder to the higher price', discount: 2, ps: [{ course_id: 1, price: 100 }, { course_id: 2, price: 300 }], out: [0, 2] },
    { rule: 'equal fractions and prices: lower course id', discount: 1, ps: [{ course_id: 5, price: 100 }, { course_id: 3, price: 100 }], out: [0, 1] },
    { rule: 'floors only when exact', discount: 59600, ps: [{ course_id: 1, price: 199000 }, { course_id: 2, price: 99000 }], out: [39800, 19800] },
    { rule: 'zero discount', discount: 0, ps: [{ course_id: 1, price: 100 }], out: [0] },
    { rule: 'discount equal to the total', discount: 350, ps: [{ course_id: 1, price: 100 }, { course_id: 2, price: 250 }], out: [100, 250] },
    { rule: 'a free course takes nothing', discount: 50, ps: [{ course_id: 1, price: 0 }, { course_id: 2, price: 100 }], out: [0, 50] },
    { rule: 'no parts', discount: 0, ps: [], out: [] },
  ])('$rule', ({ discount, ps, out }) => {
    expect(spreadDiscount(discount, ps)).toEqual(out);
  });

  it('rejects a discount outside 0..total or a negative price', () => {
    expect(() => spreadDiscount(-1, [{ course_id: 1, price: 10 }])).toThrow(RangeError);
    expect(() => spreadDiscount(11, [{ course_id: 1, price: 10 }])).toThrow(RangeError);
    expect(() => spreadDiscount(1.5, [{ course_id: 1, price: 10 }])).toThrow(RangeError);
    expect(() => spreadDiscount(0, [{ course_id: 1, price: -10 }, { course_id: 2, price: 20 }])).toThrow(RangeError);
  });

  it('property: parts sum exactly to the discount; none negative; none above its price; proportional within one unit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ course_id: fc.integer({ min: 1, max: 50 }), price: fc.integer({ min: 0, max: 100_000_000 }) }), { minLength: 1, maxLength: 8 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (ps, ratio) => {
          const total = ps.reduce((s, p) => s + p.price, 0);
          const discount = Math.floor(total * ratio);
          const out = spreadDiscount(discount, ps);
          expect(out.reduce((s, x) => s + x, 0)).toBe(discount);
          out.forEach((x, i) => {
            const price = (ps[i] as PricePart).price;
            expect(x).toBeGreaterThanOrEqual(0);
            expect(x).toBeLessThanOrEqual(price);
            const exact = total === 0 ? 0 : (discount * price) / total;
            expect(Math.abs(x - exact)).toBeLessThan(1 + 1e-6);
          });
        },
      ),
      RUNS,
    );
  });
});

describe('promotions: which are usable for a cart; the best is chosen automatically (spec 4)', () => {
  it.each<{ rule: string; p: Promotion; currency?: 'THB' | 'USD'; result: { discount: number; spread: number[] } | null }>([
    { rule: 'P1 amount on the cart courses in the promotion, spread by price', p: promotion({ id: 1, courses: [1, 2], discount_amont: 10000 }), result: { discount: 10000, spread: [6678, 3322, 0] } },
    { rule: 'P1 with none of its courses in the cart is not usable', p: promotion({ id: 1, courses: [9] }), result: null },
    { rule: 'P2 percent on the top number_of_course courses', p: promotion({ id: 1, promotion_type: 'P2', number_of_course: 2, courses: [1, 2, 3], discount_type: 'percent', discount_amont: 20 }), result: { discount: 59600, spread: [39800, 19800, 0] } },
    { rule: 'P2 needs number_of_course of its courses in the cart', p: promotion({ id: 1, promotion_type: 'P2', number_of_course: 3, courses: [1, 2, 9] }), result: null },
    { rule: 'amount above the involved total is capped at it', p: promotion({ id: 1, courses: [3], discount_amont: 999999 }), result: { discount: 50000, spread: [0, 0, 50000] } },
    { rule: 'USD uses discount_amount_usd', p: promotion({ id: 1, courses: [3], discount_amont: 999999, discount_amount_usd: 500 }), currency: 'USD', result: { discount: 500, spread: [0, 0, 500] } },
    { rule: 'USD amount promotion without a USD amount is not usable', p: promotion({ id: 1, courses: [3] }), currency: 'USD', result: null },
    { rule: 'coursesInPromotion (objects) when courses is empty', p: promotion({ id: 1, courses: null, coursesInPromotion: [{ course_id: 3 }, { courseID: 2 }, { id: 77 }], discount_amont: 1490 }), result: { discount: 1490, spread: [0, 990, 500] } },
  ])('$rule', ({ p, currency, result }) => {
    const usdParts = parts.map((x) => ({ ...x, price: x.course_id === 3 ? 1500 : x.price }));
    const o = evaluatePromotion(p, currency === 'USD' ? usdParts : parts, currency ?? 'THB');
    if (result === null) expect(o).toBeNull();
    else expect(o).toMatchObject(result);
  });

  it('promotionCourseIds reads courses, else coursesInPromotion (ids, comma list or objects)', () => {
    expect(promotionCourseIds({ courses: '1,2' })).toEqual([1, 2]);
    expect(promotionCourseIds({ courses: [], coursesInPromotion: '4,5' })).toEqual([4, 5]);
    expect(promotionCourseIds({ courses: [], coursesInPromotion: [6, '7', {}] })).toEqual([6, 7]);
    expect(promotionCourseIds({})).toEqual([]);
  });

  it('the highest discount wins; ties go to the lower id; none usable gives null', () => {
    const small = promotion({ id: 1, courses: [3], discount_amont: 1000 });
    const big = promotion({ id: 5, courses: [1], discount_amont: 9000 });
    const bigToo = promotion({ id: 4, courses: [2], discount_amont: 9000 });
    const unusable = promotion({ id: 2, courses: [42], discount_amont: 99999 });
    expect(usablePromotions([small, big, bigToo, unusable], parts, 'THB').map((o) => o.promotion.id)).toEqual([1, 5, 4]);
    expect(bestPromotion([small, big, bigToo, unusable], parts, 'THB')?.promotion.id).toBe(4);
    expect(bestPromotion([unusable], parts, 'THB')).toBeNull();
  });

  it('priceCart with an unusable promotion is an error', () => {
    expect(priceCart(C.lines, C.plans, [], promotion({ id: 1, courses: [42] }), 'THB', 1)).toMatchObject({ ok: false, code: 'promotion_not_usable' });
  });
});

describe('priceCart: per-course breakdown + subtotal, discount, total (the one function browser and server call)', () => {
  it('breakdown with original price, discount and coupon code', () => {
    const r = priced([coupon({ id: 1, code: 'WELCOME', courses: [2] })]);
    expect(r).toMatchObject({ ok: true, currency: 'THB', subtotal: 348000, discount: 9900, total: 338100, promotion_id: null, rejected_coupons: [] });
    expect(r.lines[1]).toEqual({
      course_id: 2,
      pricingplan_id: 1002,
      qty: 1,
      unit_price: 99000,
      original_pricing_price: 99000,
      promotion_discount: 0,
      coupon_discount: 9900,
      discount: 9900,
      total: 89100,
      coupon_code: 'WELCOME',
    });
  });

  it('spec 5: "a course without a USD price when USD is used" -> cart_pricing_usd_failed', () => {
    const usd = cart([
      [1, 199000, 6000],
      [2, 99000, null],
    ]);
    expect(priceCart(usd.lines, usd.plans, [], null, 'USD', 1)).toEqual({ ok: false, code: 'cart_pricing_usd_failed', course_id: 2, message: MSG.CART_PRICING_USD_FAILED });
    expect(priceCart(usd.lines, usd.plans, [], null, 'THB', 1).ok).toBe(true);
  });

  it('USD uses price_usd and discount_amount_usd', () => {
    const r = priceCart(C.lines, C.plans, [coupon({ id: 1, courses: [1], discount_type: 'amount', discount_amont: 99999, discount_amount_usd: 500 })], null, 'USD', 1);
    expect(r).toMatchObject({ ok: true, currency: 'USD', subtotal: 10500, discount: 500, total: 10000 });
  });

  it.each([
    { rule: 'no plan with that id', lines: [{ course_id: 1, pricing_plan_id: 5555 }], code: 'dont_have_pricing' },
    { rule: 'plan of another course', lines: [{ course_id: 2, pricing_plan_id: 1001 }], code: 'dont_have_pricing' },
    { rule: 'quantity 0', lines: [{ course_id: 1, pricing_plan_id: 1001, qty: 0 }], code: 'invalid_qty' },
    { rule: 'fractional quantity', lines: [{ course_id: 1, pricing_plan_id: 1001, qty: 1.5 }], code: 'invalid_qty' },
  ])('$rule -> $code', ({ lines, code }) => {
    expect(priceCart(lines, C.plans, [], null, 'THB', 1)).toMatchObject({ ok: false, code });
  });

  it('quantity multiplies the unit price (physical products)', () => {
    const r = priceCart([{ course_id: 1, pricing_plan_id: 1001, qty: 3 }], C.plans, [], null, 'THB', 1);
    expect(r).toMatchObject({ ok: true, subtotal: 597000, lines: [{ unit_price: 199000, original_pricing_price: 597000, qty: 3 }] });
  });

  it('an empty cart prices to zero', () => {
    expect(priceCart([], [], [], null, 'THB', null)).toMatchObject({ ok: true, subtotal: 0, discount: 0, total: 0, lines: [] });
  });

  it('cartParts gives course prices in the currency, or the pricing error', () => {
    expect(cartParts(C.lines, C.plans, 'USD')).toEqual({ ok: true, parts: [{ course_id: 1, price: 6000 }, { course_id: 2, price: 3000 }, { course_id: 3, price: 1500 }] });
    expect(cartParts([{ course_id: 1, pricing_plan_id: 1 }], C.plans, 'THB')).toMatchObject({ ok: false, code: 'dont_have_pricing' });
  });

  it('helpers: discountValue clamps, requiredCourseCount, applyCoupons without a match', () => {
    expect(discountValue({ discount_type: 'percent', discount_amont: 150, discount_amount_usd: null }, 'THB')).toBe(100);
    expect(discountValue({ discount_type: 'percent', discount_amont: -5, discount_amount_usd: null }, 'USD')).toBe(0);
    expect(discountValue({ discount_type: 'amount', discount_amont: -5, discount_amount_usd: null }, 'THB')).toBe(0);
    expect(discountValue({ discount_type: 'amount', discount_amont: 5, discount_amount_usd: undefined }, 'USD')).toBeNull();
    expect(requiredCourseCount({ coupon_type: 'P2', number_of_course: null })).toBe(1);
    expect(requiredCourseCount({ coupon_type: 'P2', number_of_course: 0 })).toBe(1);
    expect(requiredCourseCount({ coupon_type: 'P1', number_of_course: 5 })).toBe(1);
    expect(applyCoupons(parts, [coupon({ id: 1, courses: [77] })], 'THB')).toEqual({
      lineDiscounts: [0, 0, 0],
      coupons: [{ id: 1, code: 'C1', discount: 0, parts: [], amounts: [] }],
      total: 0,
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const courseIds = [1, 2, 3, 4, 5, 6];
const couponArb = fc
  .record({
    id: fc.integer({ min: 1, max: 30 }),
    coupon_type: fc.constantFrom('P1', 'P2'),
    number_of_course: fc.integer({ min: 0, max: 4 }),
    courses: fc.subarray(courseIds),
    payment_method: fc.subarray([1, 2, 8, 9]),
    discount_type: fc.constantFrom('percent', 'amount'),
    percent: fc.integer({ min: 0, max: 100 }),
    amount: fc.integer({ min: 0, max: 300_000 }),
    amountUsd: fc.option(fc.integer({ min: 0, max: 10_000 })),
  })
  .map(
    (r): Coupon => ({
      id: r.id,
      code: `K${r.id}`,
      coupon_type: r.coupon_type,
      number_of_course: r.number_of_course,
      courses: r.courses,
      payment_method: r.payment_method,
      discount_type: r.discount_type,
      discount_amont: r.discount_type === 'percent' ? r.percent : r.amount,
      discount_amount_usd: r.amountUsd,
    }),
  );
const cartArb = fc.uniqueArray(
  fc.record({ course_id: fc.constantFrom(...courseIds), price: fc.integer({ min: 0, max: 500_000 }), usd: fc.integer({ min: 0, max: 20_000 }) }),
  { selector: (x) => x.course_id, minLength: 0, maxLength: 6 },
);
const promoArb = fc.option(
  fc.record({
    promotion_type: fc.constantFrom('P1', 'P2'),
    number_of_course: fc.integer({ min: 1, max: 3 }),
    courses: fc.subarray(courseIds, { minLength: 1 }),
    discount_type: fc.constantFrom('percent', 'amount'),
    value: fc.integer({ min: 0, max: 400_000 }),
  }),
);

function build(rows: { course_id: number; price: number; usd: number }[]) {
  return {
    lines: rows.map((r) => ({ course_id: r.course_id, pricing_plan_id: r.course_id * 10 })),
    plans: rows.map((r) => plan({ id: r.course_id * 10, course_id: r.course_id, price: r.price, price_usd: r.usd })),
  };
}

describe('properties of priceCart', () => {
  it('property: a discount is never negative and never above the subtotal (per line and in total)', () => {
    fc.assert(
      fc.property(cartArb, fc.array(couponArb, { maxLength: 5 }), promoArb, fc.constantFrom<'THB' | 'USD'>('THB', 'USD'), fc.constantFrom(1, 2, 8, 9, null), (rows, coupons, promo, currency, method) => {
        const { lines, plans } = build(rows);
        const p: Promotion | null = promo
          ? promotion({ id: 1, ...promo, discount_amont: promo.discount_type === 'percent' ? promo.value % 101 : promo.value, discount_amount_usd: promo.value % 5000 })
          : null;
        const r = priceCart(lines, plans, coupons, p, currency, method);
        if (!r.ok) {
          expect(r.code).toBe('promotion_not_usable');
          return;
        }
        expect(r.discount).toBeGreaterThanOrEqual(0);
        expect(r.discount).toBeLessThanOrEqual(r.subtotal);
        expect(r.total).toBe(r.subtotal - r.discount);
        expect(r.discount).toBe(r.lines.reduce((s, l) => s + l.discount, 0));
        for (const l of r.lines) {
          expect(l.promotion_discount).toBeGreaterThanOrEqual(0);
          expect(l.coupon_discount).toBeGreaterThanOrEqual(0);
          expect(l.discount).toBeLessThanOrEqual(l.original_pricing_price);
          expect(l.total).toBe(l.original_pricing_price - l.discount);
        }
      }),
      RUNS,
    );
  });

  it('property: applying the same coupons in any input order gives the same total and breakdown', () => {
    fc.assert(
      fc.property(
        cartArb,
        // distinct coupons (one id = one coupon), some applied twice (COUPON_DUPLICATE), in two orders
        fc
          .uniqueArray(couponArb, { selector: (c) => c.id, maxLength: 5 })
          .chain((cs) => fc.tuple(fc.constant(cs), fc.subarray(cs, { maxLength: Math.min(2, cs.length) })))
          .map(([cs, again]) => [...cs, ...again])
          .chain((cs) => fc.tuple(fc.constant(cs), fc.shuffledSubarray(cs, { minLength: cs.length, maxLength: cs.length }))),
        fc.boolean(),
        (rows, [coupons, shuffled], oneOnly) => {
          const { lines, plans } = build(rows);
          const a = priceCart(lines, plans, coupons, null, 'THB', 1, { is_one_coupon_only: oneOnly });
          const b = priceCart(lines, plans, shuffled, null, 'THB', 1, { is_one_coupon_only: oneOnly });
          expect(b).toEqual(a);
        },
      ),
      RUNS,
    );
  });

  it('property: promotion parts sum exactly to the promotion discount and none is negative', () => {
    fc.assert(
      fc.property(cartArb, promoArb, (rows, promo) => {
        fc.pre(promo !== null);
        const parts2 = rows.map((r) => ({ course_id: r.course_id, price: r.price }));
        const o = evaluatePromotion(promotion({ id: 1, ...promo!, discount_amont: promo!.value }), parts2, 'THB');
        if (!o) return;
        expect(o.spread.reduce((s, x) => s + x, 0)).toBe(o.discount);
        o.spread.forEach((x, i) => {
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual((parts2[i] as PricePart).price);
        });
      }),
      RUNS,
    );
  });
});
