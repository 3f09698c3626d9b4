import type { SnapshotFrom } from 'xstate';
import { checkPaymentMethod } from '../../domain/payment-methods';
import { plansForViewer, type PlanList } from '../../domain/plans';
import { taxInvoiceOption } from '../../domain/tax';
import { planViewer, type cartMachine } from './cart.machine';
import { cartTotals, usableOffers, type CartTotals } from './cart-summary';
import type { Shown } from '../../domain/messages';

type S = SnapshotFrom<typeof cartMachine>;

export const selectCartLines = (s: S) => s.context.lines;
export const selectCurrency = (s: S) => s.context.currency;
/** The THB/USD switch shows only in the USD layout. */
export const selectUsdOffered = (s: S): boolean => s.context.usdEnabled;
/** The currencies the buyer may choose now (USD only while every line has a USD price). */
export const selectCurrencyChoices = (s: S) => (['THB', 'USD'] as const).map((currency) => ({ currency, chosen: s.context.currency === currency, offered: s.can({ type: 'currency.choose', currency }) || s.context.currency === currency }));
export const selectCartTotals = (s: S): CartTotals => cartTotals(s.context);

/** The plans of a course as this viewer sees them (member-only disabled when logged out; 'ไม่มีรูปแบบราคาสำหรับคุณ' when none). */
export function selectPlansOf(s: S, courseId: number): PlanList {
  return plansForViewer(
    s.context.plans.filter((p) => p.course_id === courseId),
    planViewer(s.context),
  );
}

export const selectCouponCode = (s: S): string => s.context.couponCode;
export const selectCouponError = (s: S): Shown | null => s.context.couponError;
export const selectAppliedCoupons = (s: S) => s.context.coupons;
/** Enter or the button applies the code (not while a lookup runs, not with an empty field). */
export const selectCanApplyCoupon = (s: S): boolean => s.can({ type: 'coupon.apply' });
export const selectApplyingCoupon = (s: S): boolean => s.matches('applyingCoupon');

/** The usable promotions, with the selected one marked. */
export function selectPromotions(s: S) {
  return usableOffers(s.context).map((o) => ({ promotion: o.promotion, discount: o.discount, selected: o.promotion.id === s.context.promotionId }));
}
export const selectSelectedPromotionId = (s: S): number | null => s.context.promotionId;

/** Which confirm modal is open: 'toPromotion' (drop the coupons) or 'toCoupon' (drop the promotion). */
export function selectSwitchModal(s: S): 'toPromotion' | 'toCoupon' | null {
  if (s.matches('confirmingSwitchToPromotion')) return 'toPromotion';
  if (s.matches('confirmingSwitchToCoupon')) return 'toCoupon';
  return null;
}

/** The payment methods, each with whether it may be chosen now and why not. */
export function selectPaymentMethods(s: S) {
  const payable = cartTotals(s.context).payable;
  return s.context.methods.map((m) => {
    const check = checkPaymentMethod(m.id, payable, s.context.currency);
    return { ...m, selected: m.id === s.context.paymentMethodId, selectable: check.ok, reason: check.ok ? null : check.message };
  });
}
export const selectPaymentMethodId = (s: S): number | null => s.context.paymentMethodId;

export const selectShipping = (s: S) => ({ addressId: s.context.shippingAddressId, fee: s.context.shippingFee });

/** Withholding shows only when offered; the tax-invoice option is locked (and on) while withholding is chosen. */
export function selectWithholding(s: S) {
  const offered = cartTotals(s.context).withholdingOffered;
  return { offered, chosen: s.context.withholding, percent: s.context.withholdingPercent, taxInvoice: taxInvoiceOption(s.context.withholding, false) };
}
