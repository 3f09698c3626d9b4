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
import { C1, C2, cartInput, line, PR1, PR2, TAX_ON } from './cart-fixtures';

const notFound = { status: 404, code: 'NOT_FOUND', msg: 'not found' };
const full = { status: 422, code: 'COUPON_NOT_AVAILABLE', msg: 'coupon full', result: ['SAVE100'] };

const couponEvents = [
  { type: 'coupon.type', code: 'SAVE100' },
  { type: 'coupon.type', code: '' },
  { type: 'coupon.apply' },
  { type: 'coupon.remove', couponId: 1 },
  { type: 'coupon.remove', couponId: 2 },
];

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
  effects: ['notify', 'announceChange'],
  accepts: (s) => {
    if (s.matches('confirmingSwitchToPromotion') || s.matches('confirmingSwitchToCoupon')) return ['switch.confirm', 'switch.cancel'];
    if (!s.matches('ready')) return [];
    const types = ['coupon.type', 'coupon.remove', 'promotion.clear', 'shipping.chooseAddress', 'shipping.chooseFee', 'session.loggedIn', 'method.choose', 'currency.choose'];
    if (selectPlansOf(s, 11).plans.some((p) => p.selectable)) types.push('plan.choose');
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
    // Member-only plan: refused while logged out, chosen once logged in.
    if (!s.context.loggedIn) assert.equal(s.can({ type: 'plan.choose', courseId: 11, planId: 102 }), false);
    if (step.event.type === 'plan.choose') assert.equal(s.context.lines[0]!.pricing_plan_id, (step.event as unknown as { planId: number }).planId);

    if (step.event.type === 'xstate.error.actor.getCouponByCouponCode') {
      const code = (step.event as unknown as { error: { code: string } }).error.code;
      assert.equal(selectCouponError(s), code === 'NOT_FOUND' ? 'ไม่พบคูปองนี้' : 'คูปองถูกใช้ครบจำนวนแล้ว: SAVE100');
    }
    if (step.event.type === 'xstate.done.actor.getCouponByCouponCode' && s.matches('ready') && s.context.couponError) {
      // Checked locally against the cart: the same coupon twice, or a second one when one coupon only.
      const got = (step.event as unknown as { output: { data: { id: number } } }).output.data;
      const again = selectAppliedCoupons(s).some((c) => c.id === got.id);
      assert.equal(s.context.couponError, again ? 'คุณใช้คูปองนี้แล้ว' : 'ใช้คูปองได้เพียง 1 ใบต่อคำสั่งซื้อ');
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
      if (selectAppliedCoupons(s).length === 0) assert.equal(selectSelectedPromotionId(s), PR2.id);
    }
    if (step.event.type === 'promotion.clear') assert.equal(selectSelectedPromotionId(s), null);
    // A coupon whose payment methods exclude the chosen one is dropped.
    if (step.event.type === 'method.choose' && s.context.paymentMethodId === 8) assert.deepEqual(selectAppliedCoupons(s), []);
    if (step.event.type === 'method.choose' && s.context.lines[0]!.course_id === 14 && (step.event as unknown as { methodId: number }).methodId === 8) {
      assert.notEqual(s.context.paymentMethodId, 8, 'method 8 refused under 20 THB');
      assert.deepEqual(step.effects, [
        { type: 'notify', params: { kind: 'warning', topic: 'paymentMethod', message: 'ไม่สามารถเลือกช่องทางชำระเงินนี้ได้ เนื่องจากยอดรวมต่ำกว่าขั้นต่ำ (20 บาท)' } },
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
