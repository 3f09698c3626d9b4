/**
 * The cart panel of the course page (spec sections 2, 4, 5): its lines and their pricing plans
 * (selectable unless member-only and logged out), the coupon field (Enter applies it; the server
 * looks the code up and the domain checks it against the cart; one coupon only when the site says
 * so), promotions (the best one auto-selected the first time the usable list appears; one may be
 * toggled off), coupon/promotion exclusivity with its two confirm modals, the payment method
 * (preselected: id 1 when listed, else the first; 8 and 9 need 20 THB; a coupon the method
 * excludes is dropped), THB/USD, shipping address and fee, withholding. Every change is announced
 * to the checkout (announceChange, with the CartSummary).
 */
import { assign, setup } from 'xstate';
import { couponsForPaymentMethod, needsExclusiveSwitch, validateCoupon } from '../../domain/discounts';
import { isMessageKey, MSG, msgOf, type Msg, type Shown } from '../../domain/messages';
import type { Currency } from '../../domain/money';
import { checkPaymentMethod, defaultPaymentMethodId } from '../../domain/payment-methods';
import { defaultPlan, isPlanSelectable, offeredIn, shownCurrency, type PlanViewer } from '../../domain/plans';
import { DEFAULT_WITHHOLDING_PERCENT, type WithholdingPercent } from '../../domain/tax';
import type { Coupon, PricingPlan, PricingSettings, Promotion, TaxSettings } from '../../domain/types';
import { failureOf } from '../shared/api-error';
import type { CouponLookupRequest, DataResponse, PaymentMethodId } from '../shared/api';
import { effectDefaults, type Notice } from '../shared/effects';
import { bestOffer, cartTotals, feeIn, quoteKey, quoteRefusesWithholding, quoteRequest, usableOffers, type CartFacts, type CartItem, type CartSummary, type Quote, type QuoteRequest, type ShippingFeeChoice } from './cart-summary';
import { providedByApp } from '../shared/provided';

export interface CartMethod {
  id: number;
  name: string;
}

export interface CartInput {
  lines: CartItem[];
  plans: PricingPlan[];
  promotions: Promotion[];
  paymentMethods: CartMethod[];
  /** Coupons already on the saved cart. */
  coupons?: Coupon[];
  /** The saved cart's method; else id 1 when listed, else the first. */
  paymentMethodId?: number | null;
  currency: Currency;
  /** The USD layout is offered (THB/USD choice). */
  usdEnabled: boolean;
  loggedIn: boolean;
  ownedCourseIds: number[];
  settings: PricingSettings;
  taxSettings: TaxSettings;
  /** The lines are the student's saved cart (the /cart page): the quote is bound to it. */
  fromCart?: boolean;
}

/** The cart's context: the facts its totals read (cart-summary.ts), and what only the panel needs. */
export interface CartContext extends CartFacts {
  methods: CartMethod[];
  /** The usable list has appeared once (the best promotion was then auto-selected). */
  promotionAutoSelected: boolean;
  usdEnabled: boolean;
  loggedIn: boolean;
  ownedCourseIds: number[];
  shippingAddressId: number | null;
  couponCode: string;
  couponError: Shown | null;
  /** Waiting for the confirm modal: the coupon or promotion that would replace the other kind. */
  pendingCoupon: Coupon | null;
  pendingPromotionId: number | null;
  fromCart: boolean;
  /** The server's last quote and the choices it answered (selectors show it while they are the current ones). */
  quote: { key: string; data: Quote } | null;
  /** The server's quote said this buyer cannot take withholding (a logged-in natural person): not offered. */
  withholdingRefused: boolean;
}

export type CartEvent =
  | { type: 'plan.choose'; courseId: number; planId: number }
  | { type: 'coupon.type'; code: string }
  | { type: 'coupon.apply' }
  | { type: 'coupon.remove'; couponId: number }
  | { type: 'promotion.select'; promotionId: number }
  | { type: 'promotion.clear' }
  | { type: 'switch.confirm' }
  | { type: 'switch.cancel' }
  | { type: 'method.choose'; methodId: number }
  | { type: 'currency.choose'; currency: Currency }
  | { type: 'shipping.chooseAddress'; addressId: number }
  | { type: 'shipping.chooseFee'; fee: ShippingFeeChoice }
  | { type: 'withholding.set'; on: boolean }
  | { type: 'withholding.choosePercent'; percent: WithholdingPercent }
  | { type: 'session.loggedIn'; ownedCourseIds?: number[] }
  | { type: 'line.remove'; courseId: number }
  | { type: 'line.setQty'; courseId: number; qty: number }
  /** Ask the server again (the order was refused as stale: a price or the saved cart changed). */
  | { type: 'quote.refresh' };

/** A line's quantity may change: a physical product, a whole number from 1 to its stock (99 at most, as the API allows). */
export function qtyAllowed(lines: readonly CartItem[], courseId: number, qty: number): boolean {
  const line = lines.find((l) => l.course_id === courseId);
  if (!line || line.course_type !== 'Product' || !Number.isInteger(qty) || qty < 1 || qty > MAX_QTY) return false;
  return line.stock === null || line.stock === undefined || qty <= line.stock;
}

/** The API's limit on a line's quantity (CartLine.qty maximum). */
export const MAX_QTY = 99;

/** Who looks at the plans: the buyer, in the cart's currency (a plan without a price in it is not offered). */
export function planViewer(c: Pick<CartContext, 'loggedIn' | 'ownedCourseIds' | 'currency'>, currency: Currency = c.currency): PlanViewer {
  return { loggedIn: c.loggedIn, ownedCourseIds: c.ownedCourseIds, currency };
}

/** Every line can be priced in the currency (one of its plans the buyer may choose has a price in it). */
function linesOfferedIn(c: Pick<CartContext, 'lines' | 'plans' | 'loggedIn' | 'ownedCourseIds' | 'currency'>, currency: Currency): boolean {
  return c.lines.every((l) => offeredIn(c.plans.filter((p) => p.course_id === l.course_id), planViewer(c, currency), currency));
}

/** The cart in another currency: a line whose plan has no price in it takes the default plan that has one. */
function inCurrency<C extends Pick<CartContext, 'lines' | 'plans' | 'loggedIn' | 'ownedCourseIds' | 'currency'>>(c: C, currency: Currency): C {
  const viewer = planViewer(c, currency);
  const lines = c.lines.map((l) => {
    const own = c.plans.filter((p) => p.course_id === l.course_id);
    const current = own.find((p) => p.id === l.pricing_plan_id);
    if (current && isPlanSelectable(current, viewer)) return l;
    const plan = defaultPlan(own, viewer);
    return plan ? { ...l, pricing_plan_id: plan.id, key: `${l.course_id}-${plan.id}` } : l;
  });
  return { ...c, currency, lines };
}

/** After the lines changed: the coupons that still hold for them (in order), the promotion only while still usable. */
function afterLinesChanged(c: CartContext): CartContext {
  const kept: Coupon[] = [];
  for (const coupon of c.coupons) if (validateCoupon(coupon, { lines: c.lines, applied: kept, paymentMethodId: c.paymentMethodId, currency: c.currency, settings: c.settings }).ok) kept.push(coupon);
  const promotionId = c.promotionId !== null && usableOffers(c).some((o) => o.promotion.id === c.promotionId) ? c.promotionId : null;
  return withAutoPromotion({ ...c, coupons: kept, promotionId });
}

export function cartSummary(c: CartContext): CartSummary {
  return {
    lines: c.lines,
    plans: c.plans,
    promotions: c.promotions,
    coupons: c.coupons,
    promotionId: c.promotionId,
    paymentMethodId: c.paymentMethodId,
    currency: c.currency,
    shippingAddressId: c.shippingAddressId,
    shippingFee: c.shippingFee,
    withholding: c.withholding,
    withholdingPercent: c.withholdingPercent,
    ownedCourseIds: c.ownedCourseIds,
    fromCart: c.fromCart,
    totals: cartTotals(c),
  };
}

/** The first time the usable list appears: take the best promotion (unless an exclusive coupon is already chosen). */
function withAutoPromotion(c: CartContext): CartContext {
  if (c.promotionAutoSelected || c.promotionId !== null || usableOffers(c).length === 0) return c;
  const best = bestOffer(c);
  const blocked = needsExclusiveSwitch(c.settings, { promotionSelected: false, couponCount: c.coupons.length }, 'promotion');
  return { ...c, promotionAutoSelected: true, promotionId: best && !blocked ? best.promotion.id : null };
}

export function initialCartContext(input: CartInput): CartContext {
  // USD only when the site offers it and every line has a USD price; else THB.
  const currency = shownCurrency(input.currency, input.usdEnabled && linesOfferedIn({ ...input, currency: 'USD' }, 'USD'));
  const { lines } = inCurrency({ ...input, currency }, currency);
  return withAutoPromotion({
    lines,
    plans: input.plans,
    promotions: input.promotions,
    methods: input.paymentMethods,
    coupons: input.coupons ?? [],
    promotionId: null,
    promotionAutoSelected: false,
    paymentMethodId: input.paymentMethodId ?? defaultPaymentMethodId(input.paymentMethods),
    currency,
    usdEnabled: input.usdEnabled,
    loggedIn: input.loggedIn,
    ownedCourseIds: input.ownedCourseIds,
    settings: input.settings,
    taxSettings: input.taxSettings,
    shippingAddressId: null,
    shippingFee: null,
    withholding: false,
    withholdingPercent: DEFAULT_WITHHOLDING_PERCENT,
    couponCode: '',
    couponError: null,
    pendingCoupon: null,
    pendingPromotionId: null,
    fromCart: input.fromCart ?? false,
    quote: null,
    withholdingRefused: false,
  });
}

function couponCheck(c: CartContext, coupon: Coupon) {
  return validateCoupon(coupon, { lines: c.lines, applied: c.coupons, paymentMethodId: c.paymentMethodId, currency: c.currency, settings: c.settings });
}

/** The message for a failed coupon lookup (spec 8 "Coupon"). */
export function couponFailureMessage(error: unknown): Msg {
  const f = failureOf(error);
  if (f.code === 'COUPON_NOT_AVAILABLE') {
    const codes = Array.isArray(f.result) ? f.result.filter((x): x is string => typeof x === 'string') : [];
    return codes.length > 0 ? msgOf('COUPON_NOT_AVAILABLE_CODES', { codes: codes.join(', ') }) : MSG.COUPON_NOT_AVAILABLE;
  }
  return isMessageKey(f.code) ? MSG[f.code] : MSG.CART_FAIL;
}

/** The notice for the coupons a method change dropped. */
export function droppedCouponsMessage(dropped: readonly Pick<Coupon, 'code'>[]): Msg {
  return msgOf('COUPON_NOT_SUPPORTED_PAYMENT_CODES', { codes: dropped.map((c) => c.code).join(', ') });
}

const warn = (topic: string, message: Shown): Notice => ({ kind: 'warning', topic, message });

export const cartMachine = setup({
  types: {
    context: {} as CartContext,
    events: {} as CartEvent,
    input: {} as CartInput,
  },
  actors: {
    getCouponByCouponCode: providedByApp<DataResponse<Coupon>, CouponLookupRequest>('getCouponByCouponCode'),
    /** The server's quote of the cart's choices (null input: an empty cart, nothing to quote). */
    quoteCart: providedByApp<Quote | null | undefined, QuoteRequest | null>('quoteCart'),
  },
  guards: {
    planSelectable: ({ context }, p: { courseId: number; planId: number }) => {
      const plan = context.plans.find((x) => x.id === p.planId && x.course_id === p.courseId);
      return !!plan && context.lines.some((l) => l.course_id === p.courseId) && isPlanSelectable(plan, planViewer(context));
    },
    hasCouponCode: ({ context }) => context.couponCode.trim() !== '',
    couponRefused: ({ context }, coupon: Coupon) => !couponCheck(context, coupon).ok,
    couponReplacesPromotion: ({ context }) =>
      needsExclusiveSwitch(context.settings, { promotionSelected: context.promotionId !== null, couponCount: context.coupons.length }, 'coupon'),
    promotionUsable: ({ context }, promotionId: number) => usableOffers(context).some((o) => o.promotion.id === promotionId),
    /** A usable promotion that must first drop the coupons (exclusive site). */
    promotionReplacesCoupons: ({ context }, promotionId: number) =>
      usableOffers(context).some((o) => o.promotion.id === promotionId) &&
      needsExclusiveSwitch(context.settings, { promotionSelected: context.promotionId !== null, couponCount: context.coupons.length }, 'promotion'),
    methodSelectable: ({ context }, methodId: number) =>
      context.methods.some((m) => m.id === methodId) && checkPaymentMethod(methodId, cartTotals(context).payable, context.currency).ok,
    methodDropsCoupons: ({ context }, methodId: number) =>
      context.methods.some((m) => m.id === methodId) &&
      checkPaymentMethod(methodId, cartTotals(context).payable, context.currency).ok &&
      couponsForPaymentMethod(context.coupons, methodId).dropped.length > 0,
    methodListed: ({ context }, methodId: number) => context.methods.some((m) => m.id === methodId),
    /** THB always; USD in the USD layout when every line has a plan priced in USD. */
    currencyOffered: ({ context }, currency: Currency) => currency === 'THB' || (context.usdEnabled && linesOfferedIn(context, currency)),
    withholdingOffered: ({ context }) => cartTotals(context).withholdingOffered,
    /** The quote answers a cart with withholding chosen for a buyer who cannot take it (a natural person). */
    quoteRefusesChosenWithholding: ({ context }, quote: Quote | null | undefined) => !!quote && context.withholding && quoteRefusesWithholding(context, quote),
    /** A shipping option is offered in the cart's currency only with a price in it. */
    feeOffered: ({ context }, fee: ShippingFeeChoice) => feeIn(fee, context.currency) !== null,
    hasLine: ({ context }, courseId: number) => context.lines.some((l) => l.course_id === courseId),
    qtyAllowed: ({ context }, p: { courseId: number; qty: number }) => qtyAllowed(context.lines, p.courseId, p.qty),
  },
  actions: {
    ...effectDefaults,
    /** Tells the checkout (the checkout provides it as sendParent; standalone: nothing). */
    announceChange: (_, _summary: CartSummary) => {},
    /** Keeps the lines (the /cart page saves them: the visitor's cart under the visitor id, the student's on the server); elsewhere nothing. */
    saveLines: (_, _lines: CartItem[]) => {},
    removeLine: assign(({ context }, courseId: number) => afterLinesChanged({ ...context, lines: context.lines.filter((l) => l.course_id !== courseId) })),
    setQty: assign(({ context }, p: { courseId: number; qty: number }) =>
      afterLinesChanged({ ...context, lines: context.lines.map((l) => (l.course_id === p.courseId ? { ...l, qty: p.qty } : l)) }),
    ),
    choosePlan: assign(({ context }, p: { courseId: number; planId: number }) =>
      withAutoPromotion({ ...context, lines: context.lines.map((l) => (l.course_id === p.courseId ? { ...l, pricing_plan_id: p.planId } : l)) }),
    ),
    typeCoupon: assign((_, code: string) => ({ couponCode: code, couponError: null })),
    refuseCoupon: assign(({ context }, coupon: Coupon) => {
      const check = couponCheck(context, coupon);
      return { couponError: check.ok ? null : check.message };
    }),
    failCoupon: assign((_, error: unknown) => ({ couponError: couponFailureMessage(error) })),
    addCoupon: assign(({ context }, coupon: Coupon) => ({ coupons: [...context.coupons, coupon], couponCode: '', couponError: null })),
    holdCoupon: assign((_, coupon: Coupon) => ({ pendingCoupon: coupon })),
    removeCoupon: assign(({ context }, couponId: number) => withAutoPromotion({ ...context, coupons: context.coupons.filter((c) => c.id !== couponId) })),
    selectPromotion: assign((_, promotionId: number) => ({ promotionId })),
    holdPromotion: assign((_, promotionId: number) => ({ pendingPromotionId: promotionId })),
    clearPromotion: assign({ promotionId: null }),
    /** Confirmed: the promotion replaces the coupons. */
    switchToPromotion: assign(({ context }) => ({ coupons: [], promotionId: context.pendingPromotionId, pendingPromotionId: null })),
    /** Confirmed: the coupon replaces the promotion. */
    switchToCoupon: assign(({ context }) => ({
      promotionId: null,
      coupons: context.pendingCoupon ? [...context.coupons, context.pendingCoupon] : context.coupons,
      pendingCoupon: null,
      couponCode: '',
      couponError: null,
    })),
    dropPending: assign({ pendingCoupon: null, pendingPromotionId: null }),
    chooseMethod: assign(({ context }, methodId: number) => ({
      paymentMethodId: methodId,
      coupons: couponsForPaymentMethod(context.coupons, methodId).kept,
    })),
    // Plans, coupons and the promotion as for changed lines: a promotion or coupon without an amount in the new currency is not kept.
    // A shipping option without a price in the new currency is not offered there: the buyer chooses again.
    chooseCurrency: assign(({ context }, currency: Currency) => {
      const next = afterLinesChanged(inCurrency(context, currency));
      return next.shippingFee && feeIn(next.shippingFee, currency) === null ? { ...next, shippingFee: null } : next;
    }),
    chooseAddress: assign((_, addressId: number) => ({ shippingAddressId: addressId })),
    chooseFee: assign((_, fee: ShippingFeeChoice) => ({ shippingFee: fee })),
    keepQuote: assign(({ context }, quote: Quote | null | undefined) => {
      if (!quote) return { quote: null };
      // Withholding is for juristic persons: once the server says this buyer is not one, it is not offered.
      const refused = context.withholdingRefused || quoteRefusesWithholding(context, quote);
      return { withholdingRefused: refused, quote: { key: quoteKey({ ...context, withholdingRefused: refused }), data: quote } };
    }),
    /** The buyer had chosen withholding the server refuses them: it is dropped (and the cart quoted again without it). */
    refuseWithholding: assign({ withholdingRefused: true, withholding: false, quote: null }),
    setWithholding: assign((_, on: boolean) => ({ withholding: on })),
    choosePercent: assign((_, percent: WithholdingPercent) => ({ withholdingPercent: percent })),
    // Another buyer now: the server tells again whether they can take withholding.
    logIn: assign(({ context }, ownedCourseIds: number[] | undefined) => ({ loggedIn: true, ownedCourseIds: ownedCourseIds ?? context.ownedCourseIds, withholdingRefused: false })),
  },
}).createMachine({
  id: 'cart',
  context: ({ input }) => initialCartContext(input),
  initial: 'ready',
  states: {
    ready: {
      entry: { type: 'announceChange', params: ({ context }) => cartSummary(context) },
      // Every change re-enters ready: the server quotes the current choices (a newer change cancels the older request).
      initial: 'quoting',
      states: {
        quoting: {
          invoke: {
            id: 'quoteCart',
            src: 'quoteCart',
            input: ({ context }) => quoteRequest(context),
            onDone: [
              {
                guard: { type: 'quoteRefusesChosenWithholding', params: ({ event }) => event.output },
                target: '#cart.ready',
                reenter: true,
                actions: 'refuseWithholding',
              },
              { target: 'quoted', actions: [{ type: 'keepQuote', params: ({ event }) => event.output }, { type: 'announceChange', params: ({ context }) => cartSummary(context) }] },
            ],
            // No quote (network, a cart the server refuses to price): the domain's numbers stay, the order tells the rest.
            onError: { target: 'quoted', actions: { type: 'keepQuote', params: null } },
          },
        },
        quoted: {},
      },
      on: {
        'quote.refresh': { target: 'ready', reenter: true },
        'plan.choose': {
          guard: { type: 'planSelectable', params: ({ event }) => event },
          target: 'ready',
          reenter: true,
          actions: [{ type: 'choosePlan', params: ({ event }) => event }, { type: 'saveLines', params: ({ context }) => context.lines }],
        },
        'line.remove': {
          guard: { type: 'hasLine', params: ({ event }) => event.courseId },
          target: 'ready',
          reenter: true,
          actions: [{ type: 'removeLine', params: ({ event }) => event.courseId }, { type: 'saveLines', params: ({ context }) => context.lines }],
        },
        'line.setQty': {
          guard: { type: 'qtyAllowed', params: ({ event }) => event },
          target: 'ready',
          reenter: true,
          actions: [{ type: 'setQty', params: ({ event }) => event }, { type: 'saveLines', params: ({ context }) => context.lines }],
        },
        'coupon.type': { actions: { type: 'typeCoupon', params: ({ event }) => event.code } },
        'coupon.apply': { guard: 'hasCouponCode', target: 'applyingCoupon' },
        'coupon.remove': { target: 'ready', reenter: true, actions: { type: 'removeCoupon', params: ({ event }) => event.couponId } },
        'promotion.select': [
          {
            guard: { type: 'promotionReplacesCoupons', params: ({ event }) => event.promotionId },
            target: 'confirmingSwitchToPromotion',
            actions: { type: 'holdPromotion', params: ({ event }) => event.promotionId },
          },
          { guard: { type: 'promotionUsable', params: ({ event }) => event.promotionId }, target: 'ready', reenter: true, actions: { type: 'selectPromotion', params: ({ event }) => event.promotionId } },
        ],
        'promotion.clear': { target: 'ready', reenter: true, actions: 'clearPromotion' },
        'method.choose': [
          {
            // Spec 4 drops a coupon the method excludes; the buyer is told which and why.
            guard: { type: 'methodDropsCoupons', params: ({ event }) => event.methodId },
            target: 'ready',
            reenter: true,
            actions: [
              { type: 'notify', params: ({ context, event }) => warn('invalidCoupon', droppedCouponsMessage(couponsForPaymentMethod(context.coupons, event.methodId).dropped)) },
              { type: 'chooseMethod', params: ({ event }) => event.methodId },
            ],
          },
          { guard: { type: 'methodSelectable', params: ({ event }) => event.methodId }, target: 'ready', reenter: true, actions: { type: 'chooseMethod', params: ({ event }) => event.methodId } },
          {
            guard: { type: 'methodListed', params: ({ event }) => event.methodId },
            actions: {
              type: 'notify',
              params: ({ context, event }) => {
                const check = checkPaymentMethod(event.methodId, cartTotals(context).payable, context.currency);
                return warn('paymentMethod', check.ok ? '' : check.message);
              },
            },
          },
        ],
        'currency.choose': {
          guard: { type: 'currencyOffered', params: ({ event }) => event.currency },
          target: 'ready',
          reenter: true,
          actions: [{ type: 'chooseCurrency', params: ({ event }) => event.currency }, { type: 'saveLines', params: ({ context }) => context.lines }],
        },
        'shipping.chooseAddress': { target: 'ready', reenter: true, actions: { type: 'chooseAddress', params: ({ event }) => event.addressId } },
        'shipping.chooseFee': { guard: { type: 'feeOffered', params: ({ event }) => event.fee }, target: 'ready', reenter: true, actions: { type: 'chooseFee', params: ({ event }) => event.fee } },
        'withholding.set': { guard: 'withholdingOffered', target: 'ready', reenter: true, actions: { type: 'setWithholding', params: ({ event }) => event.on } },
        'withholding.choosePercent': { guard: 'withholdingOffered', target: 'ready', reenter: true, actions: { type: 'choosePercent', params: ({ event }) => event.percent } },
        'session.loggedIn': { target: 'ready', reenter: true, actions: { type: 'logIn', params: ({ event }) => event.ownedCourseIds } },
      },
    },
    applyingCoupon: {
      invoke: {
        id: 'getCouponByCouponCode',
        src: 'getCouponByCouponCode',
        input: ({ context }) => ({
          coupon_code: context.couponCode.trim(),
          course_ids: context.lines.map((l) => l.course_id),
          payment_method_id: (context.paymentMethodId ?? null) as PaymentMethodId | null,
          applied_coupon_ids: context.coupons.map((c) => c.id),
        }),
        onDone: [
          { guard: { type: 'couponRefused', params: ({ event }) => event.output.data }, target: 'ready', actions: { type: 'refuseCoupon', params: ({ event }) => event.output.data } },
          { guard: 'couponReplacesPromotion', target: 'confirmingSwitchToCoupon', actions: { type: 'holdCoupon', params: ({ event }) => event.output.data } },
          { target: 'ready', actions: { type: 'addCoupon', params: ({ event }) => event.output.data } },
        ],
        onError: { target: 'ready', actions: { type: 'failCoupon', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    /** 'Confirm switch to promotion': the coupons are dropped for the promotion. */
    confirmingSwitchToPromotion: {
      on: {
        'switch.confirm': { target: 'ready', actions: 'switchToPromotion' },
        'switch.cancel': { target: 'ready', actions: 'dropPending' },
      },
    },
    /** 'Confirm switch to coupon': the promotion is dropped for the coupon. */
    confirmingSwitchToCoupon: {
      on: {
        'switch.confirm': { target: 'ready', actions: 'switchToCoupon' },
        'switch.cancel': { target: 'ready', actions: 'dropPending' },
      },
    },
  },
});

