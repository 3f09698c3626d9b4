/**
 * Order checks the browser (before submitting) and the server (before creating the order) both
 * run. Each returns the FIRST failing code, or null when the order may go on.
 * Codes are the API's ErrorCode values (openapi.yaml).
 */
import { isPhysicalProduct } from './buyability';
import type { Currency } from './money';
import type { MessageKey } from './messages';
import { MSG, type Shown } from './messages';
import { findLinePlan, usablePromotions } from './discounts';
import type { PricePart } from './discounts';
import { checkPaymentMethod, isPaymentMethodId } from './payment-methods';
import { isRenewalPlan, planPrice } from './plans';
import type { CartLine, Flag, PricingPlan, Promotion } from './types';
import { isOn } from './values';

/** A cart line with what the checks need beyond pricing. */
export interface OrderLine extends CartLine {
  /** 'Product' = physical product (needs a shipping address and a shipping fee option). */
  course_type?: string | null;
  /** The course comes with a free physical book (needs a shipping address). */
  free_physical_book?: Flag;
}

export type OrderProblemCode =
  | 'empty_cart'
  | 'SHIPPING_ADDRESS_REQUIRED'
  | 'SHIPPING_FEE_REQUIRED'
  | 'promotion_not_selected'
  | 'duplicate_course'
  | 'dont_have_pricing'
  | 'have_course'
  | 'dont_have_payment'
  | 'cart_pricing_usd_failed'
  | 'METHOD_CURRENCY_NOT_SUPPORTED'
  | 'PAYMENT_MINIMUM';

export interface OrderProblem {
  code: OrderProblemCode;
  /** The check's message; for a server's refusal, the server's own words where the code stands for more than one reason (see the checkout's `refusalProblem`). */
  message: Shown;
  /** The course concerned, for per-course codes. */
  course_id?: number;
}

const MESSAGE_OF: Record<OrderProblemCode, MessageKey> = {
  empty_cart: 'EMPTY_CART',
  SHIPPING_ADDRESS_REQUIRED: 'SHIPPING_ADDRESS_REQUIRED',
  SHIPPING_FEE_REQUIRED: 'SHIPPING_FEE_REQUIRED',
  promotion_not_selected: 'PROMOTION_NOT_SELECTED',
  duplicate_course: 'DUPLICATE_COURSE',
  dont_have_pricing: 'DONT_HAVE_PRICING',
  have_course: 'HAVE_COURSE',
  dont_have_payment: 'DONT_HAVE_PAYMENT',
  cart_pricing_usd_failed: 'CART_PRICING_USD_FAILED',
  METHOD_CURRENCY_NOT_SUPPORTED: 'METHOD_CURRENCY_NOT_SUPPORTED',
  PAYMENT_MINIMUM: 'BELOW_METHOD_MINIMUM',
};

function problem(code: OrderProblemCode, course_id?: number): OrderProblem {
  return { code, message: MSG[MESSAGE_OF[code]], ...(course_id === undefined ? {} : { course_id }) };
}

/**
 * The problem a server's refusal of an order names: its code is one of these checks' (the server
 * runs them too, and may find what the page could not know, e.g. a course bought meanwhile in
 * another tab), with the course from the answer's `result` ([course_id]); null for another code.
 */
export function problemOfRefusal(code: string, result: unknown): OrderProblem | null {
  if (!Object.hasOwn(MESSAGE_OF, code)) return null;
  const course = Array.isArray(result) && typeof result[0] === 'number' ? result[0] : undefined;
  return problem(code as OrderProblemCode, course);
}

// ---------------------------------------------------------------------------------------------
// Single checks
// ---------------------------------------------------------------------------------------------

/** Spec 5: "Physical products and free physical books require a shipping address". */
export function needsShippingAddress(lines: readonly OrderLine[]): boolean {
  return lines.some((l) => isPhysicalProduct(l.course_type) || isOn(l.free_physical_book));
}

/** Spec 5: "products need a shipping fee option". */
export function needsShippingFee(lines: readonly OrderLine[]): boolean {
  return lines.some((l) => isPhysicalProduct(l.course_type));
}

/** duplicate_course: the first course id that appears twice. */
export function duplicateCourse(lines: readonly Pick<CartLine, 'course_id'>[]): number | null {
  const seen = new Set<number>();
  for (const l of lines) {
    if (seen.has(l.course_id)) return l.course_id;
    seen.add(l.course_id);
  }
  return null;
}

/** dont_have_pricing: the first line whose plan is missing (or belongs to another course). */
export function lineWithoutPricing(lines: readonly CartLine[], plans: readonly PricingPlan[]): number | null {
  return lines.find((l) => !findLinePlan(l, plans))?.course_id ?? null;
}

/**
 * have_course: the first course the student already owns bought with a plan that is not a
 * renewal plan (decisions.md #7). Physical products are never "owned".
 */
export function ownedCourseWithoutRenewal(
  lines: readonly OrderLine[],
  plans: readonly PricingPlan[],
  ownedCourseIds: readonly number[],
): number | null {
  for (const l of lines) {
    if (isPhysicalProduct(l.course_type) || !ownedCourseIds.includes(l.course_id)) continue;
    const plan = findLinePlan(l, plans);
    if (!plan || !isRenewalPlan(plan)) return l.course_id;
  }
  return null;
}

/** cart_pricing_usd_failed: the first line whose plan has no price in the currency. */
export function lineWithoutCurrencyPrice(lines: readonly CartLine[], plans: readonly PricingPlan[], currency: Currency): number | null {
  for (const l of lines) {
    const plan = findLinePlan(l, plans);
    if (plan && planPrice(plan, currency) === null) return l.course_id;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Combined, in the spec's order (section 4 "Checkout flow" steps 1 and 3)
// ---------------------------------------------------------------------------------------------

export interface SubmitCheckInput {
  lines: readonly OrderLine[];
  plans: readonly PricingPlan[];
  currency: Currency;
  shippingAddressId?: number | null;
  shippingFeeId?: number | null;
  /** All promotions; with the cart they give the usable ones. */
  promotions?: readonly Promotion[];
  promotionId?: number | null;
  couponCount?: number;
}

/**
 * Step 1, on submit: "checks the cart is not empty, shipping address and fee are chosen if needed,
 * and no applicable promotion is left unselected" (an applied coupon counts as the choice).
 */
export function submitProblem(input: SubmitCheckInput): OrderProblem | null {
  const { lines } = input;
  if (lines.length === 0) return problem('empty_cart');
  if (needsShippingAddress(lines) && !input.shippingAddressId) return problem('SHIPPING_ADDRESS_REQUIRED');
  if (needsShippingFee(lines) && !input.shippingFeeId) return problem('SHIPPING_FEE_REQUIRED');
  if ((input.promotions?.length ?? 0) > 0 && !input.promotionId && !(input.couponCount ?? 0)) {
    const parts: PricePart[] = [];
    for (const l of lines) {
      const plan = findLinePlan(l, input.plans);
      const unit = plan ? planPrice(plan, input.currency) : null;
      if (unit !== null) parts.push({ course_id: l.course_id, price: unit * (l.qty ?? 1) });
    }
    if (usablePromotions(input.promotions ?? [], parts, input.currency).length > 0) return problem('promotion_not_selected');
  }
  return null;
}

export interface OrderCheckInput {
  lines: readonly OrderLine[];
  plans: readonly PricingPlan[];
  currency: Currency;
  /** Courses the student owns (approved orders). */
  ownedCourseIds?: readonly number[];
  paymentMethodId: number | null | undefined;
  /** The payable total after withholding (money.orderAmount); when given, the method's minimum is checked. */
  payable?: number;
}

/**
 * Step 3, create order: duplicate_course, dont_have_pricing, have_course, dont_have_payment,
 * cart_pricing_usd_failed, then the payment method's currency and minimum (when payable is given).
 */
export function orderProblem(input: OrderCheckInput): OrderProblem | null {
  const dup = duplicateCourse(input.lines);
  if (dup !== null) return problem('duplicate_course', dup);
  const noPlan = lineWithoutPricing(input.lines, input.plans);
  if (noPlan !== null) return problem('dont_have_pricing', noPlan);
  const owned = ownedCourseWithoutRenewal(input.lines, input.plans, input.ownedCourseIds ?? []);
  if (owned !== null) return problem('have_course', owned);
  const method = input.paymentMethodId;
  if (method === null || method === undefined || !isPaymentMethodId(method)) return problem('dont_have_payment');
  const noPrice = lineWithoutCurrencyPrice(input.lines, input.plans, input.currency);
  if (noPrice !== null) return problem('cart_pricing_usd_failed', noPrice);
  if (input.payable !== undefined) {
    const m = checkPaymentMethod(method, input.payable, input.currency);
    if (!m.ok) return problem(m.code);
  }
  return null;
}

/** Both, in order: what the server runs on POST /private/cart/order and the browser on submit. */
export function firstOrderProblem(input: SubmitCheckInput & OrderCheckInput): OrderProblem | null {
  return submitProblem(input) ?? orderProblem(input);
}
