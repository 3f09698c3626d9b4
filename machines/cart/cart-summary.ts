/**
 * The cart as the checkout needs it, computed from the cart's context with the domain's rules
 * only (priceCart, orderTax, orderAmount): what the buyer sees before ordering. The server
 * recomputes everything from the ids; these numbers are for showing and for the checks the
 * browser runs before asking.
 */
import { bestPromotion, cartParts, priceCart, usablePromotions, type PricedCart, type PromotionOffer } from '../../domain/discounts';
import { orderAmount, type Currency } from '../../domain/money';
import type { OrderLine } from '../../domain/order-checks';
import { isWithholdingOffered, orderTax, withholdingAmount, type WithholdingPercent } from '../../domain/tax';
import type { Coupon, PricingPlan, PricingSettings, Promotion, TaxSettings } from '../../domain/types';

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
  /** Minor units. */
  fee: number;
}

/** The parts of the cart's context the totals read. */
export interface CartFacts {
  lines: CartItem[];
  plans: PricingPlan[];
  promotions: Promotion[];
  coupons: Coupon[];
  promotionId: number | null;
  paymentMethodId: number | null;
  currency: Currency;
  settings: PricingSettings;
  taxSettings: TaxSettings;
  shippingFee: ShippingFeeChoice | null;
  withholding: boolean;
  withholdingPercent: WithholdingPercent;
}

export interface CartTotals {
  /** The domain's pricing, or null when the cart cannot be priced (no plan, no USD price, ...). */
  priced: PricedCart | null;
  pricingError: string | null;
  subtotal: number;
  discount: number;
  shippingFee: number;
  /** Withholding tax when chosen and offered (on the amount before VAT). */
  withholdingPrice: number;
  withholdingOffered: boolean;
  /** price − discount + shipping_fee − withholding_price (spec 9), minor units. */
  payable: number;
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

export function cartTotals(facts: CartFacts): CartTotals {
  const result = priceCart(facts.lines, facts.plans, facts.coupons, selectedPromotion(facts), facts.currency, facts.paymentMethodId, facts.settings);
  const shippingFee = facts.shippingFee?.fee ?? 0;
  if (!result.ok) {
    return { priced: null, pricingError: result.message, subtotal: 0, discount: 0, shippingFee, withholdingPrice: 0, withholdingOffered: false, payable: 0 };
  }
  const tax = orderTax({ price: result.subtotal, discount: result.discount, currency: facts.currency, settings: facts.taxSettings });
  const offered = isWithholdingOffered(result.total, facts.currency, facts.taxSettings);
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
  };
}

/** What the cart tells the checkout on every change. */
export interface CartSummary {
  lines: CartItem[];
  plans: PricingPlan[];
  promotions: Promotion[];
  coupons: Coupon[];
  promotionId: number | null;
  paymentMethodId: number | null;
  currency: Currency;
  shippingAddressId: number | null;
  shippingFee: ShippingFeeChoice | null;
  withholding: boolean;
  withholdingPercent: WithholdingPercent;
  ownedCourseIds: number[];
  totals: CartTotals;
}
