/**
 * The cart as the checkout needs it. The amounts the buyer sees are the server's quote
 * (`POST /public/cart/quote`, the very function that prices the order) once it has answered for
 * the cart's current choices; until then (and when it cannot answer) the same domain rules
 * (priceCart, orderTax, orderAmount) give the numbers the browser's checks run on.
 */
import type { components } from '../../generated/api';
import { bestPromotion, cartParts, priceCart, usablePromotions, type PricedCart, type PromotionOffer } from '../../domain/discounts';
import { orderAmount, type Currency } from '../../domain/money';
import type { OrderLine } from '../../domain/order-checks';
import { isWithholdingOffered, orderTax, withholdingAmount, type WithholdingPercent } from '../../domain/tax';
import type { Coupon, PricingPlan, PricingSettings, Promotion, TaxSettings } from '../../domain/types';
import type { Msg } from '../../domain/messages';
import { canonicalJson } from '../../domain/values';

/** A cart line: what the checks and pricing read (domain OrderLine) plus what the view shows. */
export interface CartItem extends OrderLine {
  key: string;
  course_name: string;
  course_image: string | null;
  /** Physical products: stock left, the most a line may hold; null/absent = not limited. */
  stock?: number | null;
}

export interface ShippingFeeChoice {
  id: number;
  name: string;
  /** THB, minor units. */
  fee: number;
  /** USD, minor units; null/absent: not offered in USD (a fee has a price per currency, as plans do). */
  fee_usd?: number | null;
}

/** The server's quote (openapi Quote) and the request it answers. */
export type Quote = components['schemas']['Quote'];
export type QuoteRequest = components['schemas']['QuoteRequest'];

/** A shipping option's fee in a currency; null when it has no price in it (not offered). */
export function feeIn(choice: Pick<ShippingFeeChoice, 'fee' | 'fee_usd'>, currency: Currency): number | null {
  return currency === 'USD' ? (choice.fee_usd ?? null) : choice.fee;
}

/** What the buyer chose in the cart: the lines and everything that prices them. */
export interface CartChoices {
  lines: CartItem[];
  plans: PricingPlan[];
  promotions: Promotion[];
  coupons: Coupon[];
  promotionId: number | null;
  paymentMethodId: number | null;
  currency: Currency;
  shippingFee: ShippingFeeChoice | null;
  withholding: boolean;
  withholdingPercent: WithholdingPercent;
}

/** The parts of the cart's context the totals read. */
export interface CartFacts extends CartChoices {
  settings: PricingSettings;
  taxSettings: TaxSettings;
  /** The server's last quote and the request it answered (see quoteRequest). */
  quote?: { key: string; data: Quote } | null;
  /** The cart is the student's saved cart (the /cart page): its quote is bound to it. */
  fromCart?: boolean;
  shippingAddressId?: number | null;
  /**
   * The server said this buyer cannot take withholding (a logged-in natural person: withholding is
   * for juristic persons with a tax invoice, domain withholdingEligibility): it is not offered.
   */
  withholdingRefused?: boolean;
}

export interface CartTotals {
  /** The domain's pricing, or null when the cart cannot be priced (no plan, no USD price, ...). */
  priced: PricedCart | null;
  pricingError: Msg | null;
  subtotal: number;
  discount: number;
  shippingFee: number;
  /** Withholding tax when chosen and offered (on the amount before VAT). */
  withholdingPrice: number;
  withholdingOffered: boolean;
  /** price − discount + shipping_fee − withholding_price (spec 9), minor units. */
  payable: number;
  /** The numbers are the server's quote for the current choices (null: not answered yet). */
  quote: Quote | null;
}

export function selectedPromotion(facts: Pick<CartFacts, 'promotions' | 'promotionId'>): Promotion | null {
  return facts.promotions.find((p) => p.id === facts.promotionId) ?? null;
}

/** The promotions usable for this cart (empty when the cart cannot be priced). */
export function usableOffers(facts: Pick<CartFacts, 'lines' | 'plans' | 'promotions' | 'currency'>): PromotionOffer[] {
  const parts = cartParts(facts.lines, facts.plans, facts.currency);
  return parts.ok ? usablePromotions(facts.promotions, parts.parts, facts.currency) : [];
}

export function bestOffer(facts: Pick<CartFacts, 'lines' | 'plans' | 'promotions' | 'currency'>): PromotionOffer | null {
  const parts = cartParts(facts.lines, facts.plans, facts.currency);
  return parts.ok ? bestPromotion(facts.promotions, parts.parts, facts.currency) : null;
}

/** The domain's numbers for the cart (what the checks run on until the quote answers). */
function localTotals(facts: CartFacts): CartTotals {
  const result = priceCart(facts.lines, facts.plans, facts.coupons, selectedPromotion(facts), facts.currency, facts.paymentMethodId, facts.settings);
  const shippingFee = facts.shippingFee ? (feeIn(facts.shippingFee, facts.currency) ?? 0) : 0;
  if (!result.ok) {
    return { priced: null, pricingError: result.message, subtotal: 0, discount: 0, shippingFee, withholdingPrice: 0, withholdingOffered: false, payable: 0, quote: null };
  }
  const tax = orderTax({ price: result.subtotal, discount: result.discount, currency: facts.currency, settings: facts.taxSettings });
  const offered = isWithholdingOffered(result.total, facts.currency, facts.taxSettings) && !facts.withholdingRefused;
  const withholdingPrice = tax.ok && offered && facts.withholding ? withholdingAmount(tax.before_vat, facts.withholdingPercent) : 0;
  return {
    priced: result,
    pricingError: null,
    subtotal: result.subtotal,
    discount: result.discount,
    shippingFee,
    withholdingPrice,
    withholdingOffered: offered,
    payable: orderAmount({ price: result.subtotal, discount: result.discount, shipping_fee: shippingFee, withholding_price: withholdingPrice }),
    quote: null,
  };
}

/**
 * The quote says the buyer cannot take withholding: the amount and the site's settings offer it,
 * yet the server (which knows the logged-in buyer's person type) does not.
 */
export function quoteRefusesWithholding(facts: Pick<CartFacts, 'taxSettings'>, quote: Quote): boolean {
  return isWithholdingOffered(quote.price - quote.discount, quote.currency_code, facts.taxSettings) && !quote.withholding_offered;
}

/** What the server is asked to quote for the cart's choices (the order's body without amounts); null for an empty cart. */
export function quoteRequest(facts: CartFacts): QuoteRequest | null {
  if (facts.lines.length === 0) return null;
  const offered = localTotals(facts).withholdingOffered;
  const withholding = facts.withholding && offered;
  return {
    course_id: facts.lines.map((l) => l.course_id),
    pricingplan_id: facts.lines.map((l) => l.pricing_plan_id),
    courses: facts.lines.map((l) => ({ course_id: l.course_id, pricingplan_id: l.pricing_plan_id, qty: l.qty ?? 1 })),
    payment_method_id: (facts.paymentMethodId ?? 1) as QuoteRequest['payment_method_id'],
    coupon_id: facts.coupons.map((c) => c.id),
    promotion_id: facts.promotionId,
    currency_code: facts.currency,
    shipping_address_id: facts.shippingAddressId ?? null,
    shipping_fee_id: facts.shippingFee?.id ?? null,
    is_withholding: withholding,
    ...(withholding ? { withholding_percent: facts.withholdingPercent } : {}),
    ...(facts.fromCart ? { from_cart: true } : {}),
  };
}

export function quoteKey(facts: CartFacts): string {
  return canonicalJson(quoteRequest(facts));
}

/** The server's quote when it answers the cart's current choices, else null. */
export function currentQuote(facts: CartFacts): Quote | null {
  return facts.quote && facts.quote.key === quoteKey(facts) ? facts.quote.data : null;
}

/**
 * The cart's numbers: the server's quote for the current choices (every amount the buyer sees),
 * else the domain's (before the quote answers).
 */
export function cartTotals(facts: CartFacts): CartTotals {
  const local = localTotals(facts);
  const quote = currentQuote(facts);
  if (!quote) return local;
  const priced = local.priced
    ? {
        ...local.priced,
        lines: local.priced.lines.map((l) => {
          const q = quote.lines.find((x) => x.course_id === l.course_id);
          return q ? { ...l, original_pricing_price: q.original_pricing_price, discount: q.discount, total: q.price, coupon_code: q.coupon_code } : l;
        }),
      }
    : null;
  return {
    ...local,
    priced,
    subtotal: quote.price,
    discount: quote.discount,
    shippingFee: quote.shipping_fee,
    withholdingPrice: quote.withholding_price,
    withholdingOffered: quote.withholding_offered,
    payable: quote.total_amount,
    quote,
  };
}

/** What the cart tells the checkout on every change. */
export interface CartSummary extends CartChoices {
  shippingAddressId: number | null;
  ownedCourseIds: number[];
  /** The lines are the student's saved cart (the order says so: its quote is bound to it). */
  fromCart: boolean;
  totals: CartTotals;
}
