/** A small catalogue for the cart and checkout models. Money in minor units. */
import type { CartItem } from '../../../machines/cart/cart-summary';
import type { CartInput } from '../../../machines/cart/cart.machine';

const plan = (id: number, course_id: number, price: number, price_usd: number | null, extra: Record<string, unknown> = {}) => ({
  id,
  course_id,
  name: `plan ${id}`,
  plan_type: 'One-Time Payment',
  price,
  price_usd,
  pricing_type: 'default',
  status_show: 1,
  ...extra,
});

export const PLANS = [
  plan(101, 11, 150000, 4500, { is_default: 1 }),
  plan(102, 11, 120000, 3600, { is_for_member: 1 }),
  plan(201, 12, 50000, null),
  plan(301, 13, 200000, null),
  plan(401, 14, 1500, null),
  plan(501, 15, 0, 0),
];

export const line = (course_id: number, pricing_plan_id: number, course_type = 'Online'): CartItem => ({
  key: `${course_id}-${pricing_plan_id}`,
  course_id,
  pricing_plan_id,
  qty: 1,
  course_type,
  course_name: `course ${course_id}`,
  course_image: null,
});

/** A book (physical product, course 13) with `stock` left. */
export const book = (stock: number | null): CartItem => ({ ...line(13, 301, 'Product'), course_name: 'book 13', stock });

export const C1 = { id: 1, code: 'SAVE100', coupon_type: 'P1', courses: [11], payment_method: [1, 2], discount_type: 'amount', discount_amont: 10000, discount_amount_usd: 300 };
export const C2 = { id: 2, code: 'PCT5', coupon_type: 'P2', number_of_course: 1, courses: [11, 12], payment_method: [1], discount_type: 'percent', discount_amont: 5 };
/** The seeded BUNDLE2: 15% on two courses. */
export const B2 = { id: 3, code: 'BUNDLE2', coupon_type: 'P2', number_of_course: 2, courses: [11, 12], payment_method: [1, 2], discount_type: 'percent', discount_amont: 15 };
/** THB-only amount promotions on course 11: the larger one is the best. */
export const PR1 = { id: 31, title: 'ลด 150', promotion_type: 'P1', courses: [11], discount_type: 'amount', discount_amont: 15000, discount_amount_usd: null };
export const PR2 = { id: 32, title: 'ลด 200', promotion_type: 'P1', courses: [11], discount_type: 'amount', discount_amont: 20000, discount_amount_usd: null };

export const METHODS = [
  { id: 1, name: 'โอนเงินผ่านธนาคาร' },
  { id: 2, name: 'PayPal' },
  { id: 8, name: 'Omise' },
];

export const TAX_ON = { vat_value: 7, is_enable_vat: 1, is_enable_tax_invoice: 1, is_enable_withholding_tax: 1 };

export function cartInput(overrides: Partial<CartInput> = {}): CartInput {
  return {
    lines: [line(11, 101)],
    plans: PLANS,
    promotions: [],
    paymentMethods: METHODS,
    coupons: [],
    currency: 'THB',
    usdEnabled: false,
    loggedIn: false,
    ownedCourseIds: [],
    settings: {},
    taxSettings: {},
    ...overrides,
  } as CartInput;
}
