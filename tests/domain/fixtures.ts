import type { CartLine, Coupon, PricingPlan, Promotion } from '../../domain/types';

export function plan(over: Partial<PricingPlan> & { id: number; course_id: number }): PricingPlan {
  return {
    name: `plan ${over.id}`,
    plan_type: 'One-Time Payment',
    term: null,
    term_unit: null,
    term_2: null,
    term_unit_2: null,
    price: 100000,
    price_usd: 3000,
    pricing_type: 'default',
    status_show: 1,
    free_for: null,
    free_course_ids: '',
    buy_course_free: 0,
    need_approval: 0,
    is_default: 0,
    is_for_member: 0,
    ...over,
  };
}

export function coupon(over: Partial<Coupon> & { id: number }): Coupon {
  return {
    code: `C${over.id}`,
    coupon_type: 'P1',
    number_of_course: 1,
    courses: [],
    payment_method: [1, 8, 9],
    discount_type: 'percent',
    discount_amont: 10,
    discount_amount_usd: null,
    ...over,
  };
}

export function promotion(over: Partial<Promotion> & { id: number }): Promotion {
  return {
    title: `promotion ${over.id}`,
    promotion_type: 'P1',
    courses: [],
    number_of_course: 1,
    discount_type: 'amount',
    discount_amont: 10000,
    discount_amount_usd: null,
    ...over,
  };
}

/** A cart of courses priced by one plan each: plan id = course id + 1000. */
export function cart(prices: readonly (readonly [courseId: number, price: number, priceUsd?: number | null])[]): {
  lines: CartLine[];
  plans: PricingPlan[];
} {
  return {
    lines: prices.map(([course_id]) => ({ course_id, pricing_plan_id: course_id + 1000 })),
    plans: prices.map(([course_id, price, price_usd]) =>
      plan({ id: course_id + 1000, course_id, price, price_usd: price_usd === undefined ? Math.round(price / 33) : price_usd }),
    ),
  };
}
