import assert from 'node:assert/strict';
import { cartMachine } from '../../../machines/cart/cart.machine';
import {
  selectAppliedCoupons,
  selectCanApplyCoupon,
  selectCartTotals,
  selectCouponError,
  selectPaymentMethods,
  selectPlansOf,
  selectPromotions,
  selectSelectedPromotionId,
  selectSwitchModal,
  selectWithholding,
} from '../../../machines/cart/cart.selectors';
import type { CartSummary } from '../../../machines/cart/cart-summary';
import { defineModel } from '../support/model';
import { B2, book, C1, C2, cartInput, line, PLANS, PR1, PR2, TAX_ON } from './cart-fixtures';
import { MSG, msgOf } from '../../../domain/messages';

/** A THB-only plan of course 11 (no USD price). */
const THB_ONLY = { ...PLANS[0]!, id: 103, name: 'plan 103', price: 90000, price_usd: null, is_default: 0 };

/** A server quote of course 11 (US$45) and book 13 (US$60) with EMS (US$2.00): the numbers the page shows. */
const QUOTE_USD = {
  currency_code: 'USD', lines: [], price: 10500, discount: 0, promotion_id: null, promotion_discount: 0, coupon_discount: 0, coupon_list_code: [], best_promotion_id: null,
  shipping_fee: 200, shipping_fee_id: 2, withholding_offered: false, withholding_percent: null, withholding_price: 0, vat_price: 0, total_amount: 10700,
  version: '0123456789abcdef0123456789abcdef', problem: null,
};

/** The server's quote of course 11 (฿1,500) for a logged-in natural person: withholding not offered. */
const QUOTE_NATURAL = {
  currency_code: 'THB', lines: [], price: 150000, discount: 0, promotion_id: null, promotion_discount: 0, coupon_discount: 0, coupon_list_code: [], best_promotion_id: null,
  shipping_fee: 0, shipping_fee_id: null, withholding_offered: false, withholding_percent: null, withholding_price: 0, vat_price: 9813, total_amount: 150000,
  version: 'fedcba9876543210fedcba9876543210', problem: null,
};

const notFound = { status: 404, code: 'NOT_FOUND', msg: 'not found' };
const full = { status: 422, code: 'COUPON_NOT_AVAILABLE', msg: 'coupon full', result: ['SAVE100'] };

const couponEvents = [
  { type: 'coupon.type', code: 'SAVE100' },
  { type: 'coupon.type', code: '' },
  { type: 'coupon.apply' },
  { type: 'coupon.remove', couponId: 1 },
  { type: 'coupon.remove', couponId: 2 },
];

/** The path started from the variant whose saved cart has coupon C1 (SAVE100). */
const variantHasC1 = (step: { allEffects: readonly { type: string; params?: unknown }[] }) => {
  const first = step.allEffects.find((e) => e.type === 'announceChange')?.params as CartSummary | undefined;
  return first?.coupons.some((c) => c.id === C1.id) ?? false;
};

export const cartModel = defineModel({
  machine: cartMachine,
  file: 'machines/cart/cart.machine.ts',
  // Plans: member-only plans wait for a login.
  input: cartInput(),
  userEvents: [
    { type: 'plan.choose', courseId: 11, planId: 102 },
    { type: 'plan.choose', courseId: 11, planId: 101 },
    { type: 'session.loggedIn', ownedCourseIds: [] },
  ],
  variants: [
    {
      name: 'coupons, one coupon only',
      input: cartInput({ lines: [line(11, 101), line(12, 201)], settings: { is_one_coupon_only: 1 } }),
      userEvents: couponEvents,
      outcomes: { getCouponByCouponCode: { done: [{ success: true, data: C1 }, { success: true, data: C2 }], error: [notFound, full] } },
    },
    {
      name: 'exclusive promotions, USD then THB',
      input: cartInput({ promotions: [PR1, PR2], settings: { is_coupon_promotion_exclusive: 1 }, currency: 'USD', usdEnabled: true }),
      userEvents: [
        { type: 'currency.choose', currency: 'THB' },
        { type: 'currency.choose', currency: 'USD' },
        { type: 'promotion.select', promotionId: 31 },
        { type: 'promotion.clear' },
        { type: 'coupon.type', code: 'SAVE100' },
        { type: 'coupon.apply' },
        { type: 'coupon.remove', couponId: 1 },
        { type: 'switch.confirm' },
        { type: 'switch.cancel' },
      ],
      outcomes: { getCouponByCouponCode: { done: [{ success: true, data: C1 }], error: [notFound] } },
    },
    {
      // Course 11 also has a THB-only plan (103): in USD it is not offered, and a line on it moves to the USD-priced default plan.
      name: 'USD: a plan without a USD price is not offered',
      input: cartInput({ plans: [...PLANS, THB_ONLY], lines: [line(11, 103)], usdEnabled: true, currency: 'USD' }),
      userEvents: [
        { type: 'currency.choose', currency: 'THB' },
        { type: 'currency.choose', currency: 'USD' },
        { type: 'plan.choose', courseId: 11, planId: 103 },
        { type: 'plan.choose', courseId: 11, planId: 101 },
      ],
    },
    {
      // The site's currency is USD but course 12 has no USD price: the cart starts in THB and USD is refused.
      name: 'USD refused while a line has no USD price',
      input: cartInput({ lines: [line(11, 101), line(12, 201)], usdEnabled: true, currency: 'USD' }),
      userEvents: [{ type: 'currency.choose', currency: 'USD' }, { type: 'currency.choose', currency: 'THB' }, { type: 'line.remove', courseId: 12 }, { type: 'line.remove', courseId: 11 }],
    },
    {
      name: 'payment methods drop coupons',
      input: cartInput({ coupons: [C1] as never }),
      userEvents: [
        { type: 'method.choose', methodId: 2 },
        { type: 'method.choose', methodId: 8 },
        { type: 'method.choose', methodId: 1 },
        { type: 'method.choose', methodId: 9 },
      ],
    },
    {
      name: 'payment methods, total under 20 THB',
      input: cartInput({ lines: [line(14, 401)] }),
      userEvents: [{ type: 'method.choose', methodId: 8 }, { type: 'method.choose', methodId: 2 }],
    },
    {
      // Several lines (two courses and a book, as /cart reads them): a line removed, the book's quantity changed within its stock.
      name: 'lines: remove, quantity',
      input: cartInput({ lines: [line(11, 101), line(12, 201), book(3)] }),
      userEvents: [
        { type: 'line.remove', courseId: 12 },
        { type: 'line.remove', courseId: 11 },
        { type: 'line.setQty', courseId: 13, qty: 2 },
        { type: 'line.setQty', courseId: 13, qty: 4 },
        { type: 'line.setQty', courseId: 11, qty: 2 },
      ],
    },
    {
      name: 'BUNDLE2 over two lines, dropped with a line',
      input: cartInput({ lines: [line(11, 101), line(12, 201)], coupons: [B2] as never }),
      userEvents: [
        { type: 'line.remove', courseId: 12 },
        { type: 'line.remove', courseId: 11 },
      ],
    },
    {
      // The server's quote: its numbers are the cart's while they answer the current choices; a change asks again.
      name: 'the server quote',
      input: cartInput({ lines: [line(11, 101), book(5)], currency: 'USD', usdEnabled: true, plans: [...PLANS.filter((p) => p.id !== 301), { ...PLANS.find((p) => p.id === 301)!, price_usd: 6000 }] }),
      userEvents: [
        { type: 'quote.refresh' },
        { type: 'shipping.chooseFee', fee: { id: 2, name: 'EMS', fee: 5000, fee_usd: 200 } },
        { type: 'shipping.chooseFee', fee: { id: 3, name: 'Kerry', fee: 6000, fee_usd: null } },
      ],
      outcomes: { quoteCart: { done: [QUOTE_USD], error: [{ status: 0, code: 'NETWORK_ERROR', msg: 'Failed to fetch' }] } },
    },
    {
      // The server knows the logged-in buyer: a natural person is not offered withholding, even when chosen before the quote answered.
      name: 'withholding and a natural person',
      input: cartInput({ lines: [line(11, 101)], taxSettings: TAX_ON, loggedIn: true }),
      userEvents: [{ type: 'withholding.set', on: true }],
      outcomes: { quoteCart: { done: [QUOTE_NATURAL], error: [{ status: 0, code: 'NETWORK_ERROR', msg: 'Failed to fetch' }] } },
    },
    {
      name: 'shipping and withholding',
      input: cartInput({ lines: [line(13, 301, 'Product')], taxSettings: TAX_ON }),
      userEvents: [
        { type: 'shipping.chooseAddress', addressId: 7 },
        { type: 'shipping.chooseFee', fee: { id: 3, name: 'EMS', fee: 5000 } },
        { type: 'withholding.set', on: true },
        { type: 'withholding.set', on: false },
        { type: 'withholding.choosePercent', percent: 1 },
        { type: 'withholding.choosePercent', percent: 3 },
      ],
    },
  ],
  effects: ['notify', 'announceChange', 'saveLines'],
  accepts: (s) => {
    if (s.matches('confirmingSwitchToPromotion') || s.matches('confirmingSwitchToCoupon')) return ['switch.confirm', 'switch.cancel'];
    if (!s.matches('ready')) return [];
    const has = (id: number) => s.context.lines.some((l) => l.course_id === id);
    const bookLine = s.context.lines.find((l) => l.course_id === 13);
    const types = ['coupon.type', 'coupon.remove', 'promotion.clear', 'shipping.chooseAddress', 'shipping.chooseFee', 'session.loggedIn', 'method.choose', 'currency.choose', 'quote.refresh'];
    if (selectPlansOf(s, 11).plans.some((p) => p.selectable) && has(11)) types.push('plan.choose');
    if (has(11) || has(12)) types.push('line.remove');
    if (bookLine && (bookLine.stock ?? 99) >= 2) types.push('line.setQty');
    if (s.context.couponCode.trim() !== '') types.push('coupon.apply');
    if (selectPromotions(s).length > 0) types.push('promotion.select');
    if (selectWithholding(s).offered) types.push('withholding.set', 'withholding.choosePercent');
    return types;
  },
  check: (s, step) => {
    assert.equal(selectSwitchModal(s), s.matches('confirmingSwitchToPromotion') ? 'toPromotion' : s.matches('confirmingSwitchToCoupon') ? 'toCoupon' : null);
    if (s.matches('ready')) assert.equal(selectCanApplyCoupon(s), s.context.couponCode.trim() !== '');
    // Every change reaches the checkout with the totals the view shows.
    const announced = step.effects.filter((e) => e.type === 'announceChange');
    if (announced.length) {
      const summary = announced.at(-1)!.params as CartSummary;
      assert.deepEqual(summary.totals, selectCartTotals(s));
      assert.equal(summary.paymentMethodId, s.context.paymentMethodId);
    }
    // The server's quote: its numbers while it answers the current choices; a fee is charged in the cart's currency.
    const totals = selectCartTotals(s);
    const answered = step.event.type === 'xstate.done.actor.quoteCart' ? (step.event as unknown as { output?: { version?: string } }).output : undefined;
    if (answered?.version === QUOTE_NATURAL.version) {
      // Not offered to this buyer from the answer on: not chosen, no withholding in the total, the choice refused.
      assert.equal(selectWithholding(s).offered, false);
      assert.equal(s.context.withholding, false);
      assert.equal(totals.withholdingPrice, 0);
      assert.equal(s.can({ type: 'withholding.set', on: true }), false);
    }
    if (s.context.withholdingRefused) assert.equal(selectWithholding(s).offered, false, 'a buyer the server refused is never offered withholding');
    if (answered && answered.version === QUOTE_USD.version) {
      assert.equal(totals.payable, QUOTE_USD.total_amount);
      assert.equal(totals.shippingFee, QUOTE_USD.shipping_fee);
      assert.equal(totals.quote?.version, QUOTE_USD.version);
    }
    if (totals.quote === null && s.context.shippingFee) assert.equal(totals.shippingFee, s.context.currency === 'USD' ? s.context.shippingFee.fee_usd : s.context.shippingFee.fee);
    if (s.context.currency === 'USD' && s.context.shippingFee) assert.notEqual(s.context.shippingFee.fee_usd ?? null, null, 'no option without a USD price in a USD cart');
    // Member-only plan: refused while logged out, chosen once logged in.
    if (!s.context.loggedIn) assert.equal(s.can({ type: 'plan.choose', courseId: 11, planId: 102 }), false);
    // Lines: each course once, every change kept (saveLines) with the lines the view shows.
    assert.equal(new Set(s.context.lines.map((l) => l.course_id)).size, s.context.lines.length, 'a course is never twice in the cart');
    if (['line.remove', 'line.setQty', 'plan.choose'].includes(step.event.type)) {
      assert.deepEqual(step.effects.filter((e) => e.type === 'saveLines').at(-1)?.params, s.context.lines);
    }
    for (const l of s.context.lines) {
      if (l.course_type !== 'Product') assert.equal(l.qty, 1, 'a course line has qty 1');
      else assert.ok((l.qty ?? 1) <= (l.stock ?? 99), 'within stock');
    }
    if (step.event.type === 'line.setQty') {
      const e = step.event as unknown as { courseId: number; qty: number };
      assert.equal(s.context.lines.find((l) => l.course_id === e.courseId)?.qty, e.qty);
    }
    // BUNDLE2 (15% on two courses) holds only while both courses are in the cart, and gives 15% of both.
    const bundle = selectAppliedCoupons(s).some((c) => c.id === B2.id);
    const both = [11, 12].every((id) => s.context.lines.some((l) => l.course_id === id));
    if (bundle) {
      assert.ok(both);
      assert.equal(selectCartTotals(s).discount, Math.round((150000 + 50000) * 0.15));
    }
    if (step.event.type === 'line.remove' && step.events.length > 0 && s.context.lines.every((l) => l.course_id !== 12) && step.index === 1 && s.context.lines.length === 1 && s.context.lines[0]!.course_id === 11) {
      assert.equal(bundle, false, 'BUNDLE2 dropped with its second course');
    }
    if (step.event.type === 'plan.choose' && s.context.currency === 'THB') assert.equal(s.context.lines[0]!.pricing_plan_id, (step.event as unknown as { planId: number }).planId);
    // Prices in the cart's currency: in USD every line's plan has a USD price, and no plan without one is listed or selectable.
    if (s.context.currency === 'USD') {
      for (const l of s.context.lines) {
        const plan = s.context.plans.find((p) => p.id === l.pricing_plan_id)!;
        assert.notEqual(plan.price_usd ?? null, null, `line ${l.course_id} priced in USD`);
        assert.ok(selectPlansOf(s, l.course_id).plans.every((p) => p.plan.price_usd !== null && p.plan.price_usd !== undefined), 'no plan without a USD price is offered in USD');
      }
      assert.equal(s.can({ type: 'plan.choose', courseId: 11, planId: 103 }), false);
      assert.equal(selectCartTotals(s).pricingError, null, `never a cart that cannot be priced (shown as 0): ${selectCartTotals(s).pricingError} ${JSON.stringify([s.context.coupons.map((c) => c.code), s.context.promotionId])}`);
    }
    // USD is refused while a line has no USD-priced plan (course 12).
    if (s.context.lines.some((l) => l.course_id === 12)) {
      assert.equal(s.context.currency, 'THB');
      if (s.matches('ready')) assert.equal(s.can({ type: 'currency.choose', currency: 'USD' }), false);
    }
    if (step.event.type === 'currency.choose') assert.deepEqual(step.effects.filter((e) => e.type === 'saveLines').at(-1)?.params, s.context.lines);

    if (step.event.type === 'xstate.error.actor.getCouponByCouponCode') {
      const code = (step.event as unknown as { error: { code: string } }).error.code;
      assert.deepEqual(selectCouponError(s), code === 'NOT_FOUND' ? MSG.NOT_FOUND : msgOf('COUPON_NOT_AVAILABLE_CODES', { codes: 'SAVE100' }));
    }
    if (step.event.type === 'xstate.done.actor.getCouponByCouponCode' && s.matches('ready') && s.context.couponError) {
      // Checked locally against the cart: the same coupon twice, or a second one when one coupon only.
      const got = (step.event as unknown as { output: { data: { id: number } } }).output.data;
      const again = selectAppliedCoupons(s).some((c) => c.id === got.id);
      assert.deepEqual(s.context.couponError, again ? MSG.COUPON_DUPLICATE : MSG.COUPON_ONLY_ONE);
    }
    if (s.matches('applyingCoupon')) {
      const sent = step.scripts.inputsOf('getCouponByCouponCode').at(-1) as { coupon_code: string; course_ids: number[]; payment_method_id: number };
      assert.equal(sent.coupon_code, 'SAVE100');
      assert.equal(sent.payment_method_id, 1);
    }
    // Exclusivity: never a coupon and a promotion together.
    if (s.context.settings.is_coupon_promotion_exclusive) assert.ok(!(selectAppliedCoupons(s).length > 0 && selectSelectedPromotionId(s) !== null));
    // The best promotion is auto-selected the first time the usable list appears (THB), not after being cleared.
    if (step.event.type === 'currency.choose' && s.context.currency === 'THB' && !step.allEffects.some((e) => e.type === 'announceChange' && (e.params as CartSummary).currency === 'THB' && e !== step.effects.at(-1))) {
      if (selectAppliedCoupons(s).length === 0 && s.context.promotions.length > 0) assert.equal(selectSelectedPromotionId(s), PR2.id);
    }
    if (step.event.type === 'promotion.clear') assert.equal(selectSelectedPromotionId(s), null);
    // A coupon whose payment methods exclude the chosen one is dropped.
    if (step.event.type === 'method.choose' && s.context.paymentMethodId === 8) assert.deepEqual(selectAppliedCoupons(s), []);
    // ... and the buyer is told which coupon and why (C1 allows methods 1 and 2).
    if (step.event.type === 'method.choose') {
      const id = (step.event as unknown as { methodId: number }).methodId;
      const hadC1 = step.allEffects.length > 0 && step.events.slice(0, -1).every((e) => e.type !== 'method.choose' || [1, 2].includes((e as unknown as { methodId: number }).methodId));
      const startedWithC1 = s.context.lines.length === 1 && s.context.lines[0]!.course_id === 11 && step.events.some((e) => e.type === 'method.choose') && hadC1;
      const dropNotice = step.effects.find((e) => e.type === 'notify' && (e.params as { topic: string }).topic === 'invalidCoupon');
      if (startedWithC1 && [8, 9].includes(id) && variantHasC1(step)) {
        assert.deepEqual(dropNotice?.params, { kind: 'warning', topic: 'invalidCoupon', message: msgOf('COUPON_NOT_SUPPORTED_PAYMENT_CODES', { codes: 'SAVE100' }) });
      } else assert.equal(dropNotice, undefined);
    }
    if (step.event.type === 'method.choose' && s.context.lines[0]!.course_id === 14 && (step.event as unknown as { methodId: number }).methodId === 8) {
      assert.notEqual(s.context.paymentMethodId, 8, 'method 8 refused under 20 THB');
      assert.deepEqual(step.effects, [
        { type: 'notify', params: { kind: 'warning', topic: 'paymentMethod', message: MSG.BELOW_METHOD_MINIMUM } },
      ]);
      assert.equal(selectPaymentMethods(s).find((m) => m.id === 8)!.selectable, false);
    }
    if (step.index === 0) assert.equal(s.context.paymentMethodId, 1, 'the default method is id 1');
    if (step.event.type === 'withholding.set') {
      const w = selectWithholding(s);
      assert.equal(w.chosen, (step.event as unknown as { on: boolean }).on);
      assert.deepEqual(w.taxInvoice, w.chosen ? { checked: true, locked: true } : { checked: false, locked: false });
      if (w.chosen) assert.ok(selectCartTotals(s).withholdingPrice > 0);
    }
  },
});
