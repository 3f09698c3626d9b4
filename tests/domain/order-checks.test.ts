import { describe, expect, it } from 'vitest';
import {
  problemOfRefusal,
  duplicateCourse,
  firstOrderProblem,
  lineWithoutCurrencyPrice,
  lineWithoutPricing,
  needsShippingAddress,
  needsShippingFee,
  orderProblem,
  ownedCourseWithoutRenewal,
  submitProblem,
} from '../../domain/order-checks';
import type { OrderCheckInput, OrderLine, SubmitCheckInput } from '../../domain/order-checks';
import { plan, promotion } from './fixtures';
import { MSG, renderShown } from '../../domain/messages';

const plans = [
  plan({ id: 11, course_id: 1, price: 199000, price_usd: 6000 }),
  plan({ id: 12, course_id: 2, price: 99000, price_usd: null }),
  plan({ id: 13, course_id: 3, price: 50000, price_usd: 1500, pricing_type: 'renew' }),
  plan({ id: 14, course_id: 4, price: 35000, price_usd: 1000 }),
];
const l1: OrderLine = { course_id: 1, pricing_plan_id: 11 };
const l2: OrderLine = { course_id: 2, pricing_plan_id: 12 };
const l3: OrderLine = { course_id: 3, pricing_plan_id: 13 };
const book: OrderLine = { course_id: 4, pricing_plan_id: 14, course_type: 'Product', qty: 2 };

const order = (over: Partial<OrderCheckInput>): OrderCheckInput => ({ lines: [l1], plans, currency: 'THB', paymentMethodId: 1, ...over });

describe('spec 5 "Cart and order": create-order checks, first failure', () => {
  it.each<{ rule: string; over: Partial<OrderCheckInput>; code: string | null; course?: number }>([
    { rule: 'a clean order passes', over: {}, code: null },
    { rule: '"Duplicate course ids rejected (duplicate_course)"', over: { lines: [l1, l2, { ...l1 }] }, code: 'duplicate_course', course: 1 },
    { rule: '"course without pricing plan rejected (dont_have_pricing)"', over: { lines: [l1, { course_id: 2, pricing_plan_id: 99 }] }, code: 'dont_have_pricing', course: 2 },
    { rule: 'a plan of another course counts as no pricing', over: { lines: [{ course_id: 2, pricing_plan_id: 11 }] }, code: 'dont_have_pricing', course: 2 },
    { rule: '"already-owned course (non-default, non-renew pricing) rejected (have_course)"', over: { ownedCourseIds: [1] }, code: 'have_course', course: 1 },
    { rule: 'an owned course with a renewal plan passes', over: { lines: [l3], ownedCourseIds: [3] }, code: null },
    { rule: 'an "owned" product can be bought again', over: { lines: [book], ownedCourseIds: [4] }, code: null },
    { rule: '"missing payment method rejected (dont_have_payment)"', over: { paymentMethodId: null }, code: 'dont_have_payment' },
    { rule: 'undefined payment method', over: { paymentMethodId: undefined }, code: 'dont_have_payment' },
    { rule: 'unknown payment method id', over: { paymentMethodId: 6 }, code: 'dont_have_payment' },
    { rule: '"a course without a USD price when USD is used" (cart_pricing_usd_failed)', over: { lines: [l1, l2], currency: 'USD' }, code: 'cart_pricing_usd_failed', course: 2 },
    { rule: 'the same cart in THB passes', over: { lines: [l1, l2] }, code: null },
    { rule: '"Payment methods 8 and 9 require a payable total (after withholding) of at least 20 THB"', over: { paymentMethodId: 8, payable: 1999 }, code: 'PAYMENT_MINIMUM' },
    { rule: 'method 8 at 20 THB passes', over: { paymentMethodId: 8, payable: 2000 }, code: null },
    { rule: 'a THB-only method with USD', over: { paymentMethodId: 9, payable: 100000, currency: 'USD' }, code: 'METHOD_CURRENCY_NOT_SUPPORTED' },
    { rule: 'order of checks: duplicate before pricing before ownership before payment', over: { lines: [l1, l1, { course_id: 9, pricing_plan_id: 1 }], ownedCourseIds: [1], paymentMethodId: null }, code: 'duplicate_course', course: 1 },
    { rule: 'order of checks: ownership before payment', over: { ownedCourseIds: [1], paymentMethodId: null }, code: 'have_course', course: 1 },
  ])('$rule -> $code', ({ over, code, course }) => {
    const r = orderProblem(order(over));
    if (code === null) expect(r).toBeNull();
    else expect(r).toMatchObject({ code, ...(course === undefined ? {} : { course_id: course }) });
  });

  it('problems carry the Thai message (USD: \'the course has no USD price\')', () => {
    expect(orderProblem(order({ lines: [l2], currency: 'USD' }))).toEqual({ code: 'cart_pricing_usd_failed', message: MSG.CART_PRICING_USD_FAILED, course_id: 2 });
    expect(renderShown(orderProblem(order({ paymentMethodId: 8, payable: 100 }))?.message)).toBe('ไม่สามารถเลือกช่องทางชำระเงินนี้ได้ เนื่องจากยอดรวมต่ำกว่าขั้นต่ำ (20 บาท)');
  });
});

describe('spec 4 checkout step 1 "Submit checks the cart is not empty, shipping address and fee are chosen if needed, and no applicable promotion is left unselected"', () => {
  const submit = (over: Partial<SubmitCheckInput>): SubmitCheckInput => ({ lines: [l1], plans, currency: 'THB', ...over });
  const promo = promotion({ id: 5, promotion_type: 'P2', number_of_course: 2, courses: [1, 2] });
  it.each<{ rule: string; over: Partial<SubmitCheckInput>; code: string | null }>([
    { rule: 'empty cart: \'ยังไม่มีสินค้าในรถเข็น\'', over: { lines: [] }, code: 'empty_cart' },
    { rule: '"Physical products ... require a shipping address"', over: { lines: [book] }, code: 'SHIPPING_ADDRESS_REQUIRED' },
    { rule: '"products need a shipping fee option"', over: { lines: [book], shippingAddressId: 3 }, code: 'SHIPPING_FEE_REQUIRED' },
    { rule: 'product with address and fee chosen', over: { lines: [book], shippingAddressId: 3, shippingFeeId: 1 }, code: null },
    { rule: '"free physical books require a shipping address"', over: { lines: [{ ...l1, free_physical_book: true }] }, code: 'SHIPPING_ADDRESS_REQUIRED' },
    { rule: 'a free physical book needs no fee option', over: { lines: [{ ...l1, free_physical_book: 1 }], shippingAddressId: 3 }, code: null },
    { rule: '"Unselected usable promotion blocks ordering"', over: { lines: [l1, l2], promotions: [promo] }, code: 'promotion_not_selected' },
    { rule: 'the promotion selected', over: { lines: [l1, l2], promotions: [promo], promotionId: 5 }, code: null },
    { rule: 'a coupon chosen instead (exclusive setting)', over: { lines: [l1, l2], promotions: [promo], couponCount: 1 }, code: null },
    { rule: 'promotion not usable for this cart', over: { lines: [l1], promotions: [promo] }, code: null },
    { rule: 'lines without a price are left out of the promotion check', over: { lines: [l1, l2], promotions: [promo], currency: 'USD' }, code: null },
  ])('$rule -> $code', ({ over, code }) => {
    const r = submitProblem(submit(over));
    expect(r?.code ?? null).toBe(code);
  });

  it('messages: \'กรุณากรอกข้อมูลที่อยู่จัดส่ง\', the empty-cart text, the joint-promotion text', () => {
    expect(renderShown(submitProblem(submit({ lines: [book] }))?.message)).toBe('กรุณากรอกข้อมูลที่อยู่จัดส่ง');
    expect(renderShown(submitProblem(submit({ lines: [] }))?.message)).toBe('ยังไม่มีสินค้าในรถเข็น');
    expect(renderShown(submitProblem(submit({ lines: [l1, l2], promotions: [promo] }))?.message)).toBe('คำสั่งซื้อของคุณมีโปรโมชั่นร่วม กรุณาเลือกโปรโมชั่น');
  });

  it('firstOrderProblem runs the submit checks, then the create-order checks', () => {
    expect(firstOrderProblem({ lines: [], plans, currency: 'THB', paymentMethodId: null })?.code).toBe('empty_cart');
    expect(firstOrderProblem({ lines: [l1], plans, currency: 'THB', paymentMethodId: null })?.code).toBe('dont_have_payment');
    expect(firstOrderProblem({ lines: [l1], plans, currency: 'THB', paymentMethodId: 1 })).toBeNull();
  });
});

describe('single checks', () => {
  it('needsShippingAddress / needsShippingFee', () => {
    expect(needsShippingAddress([l1])).toBe(false);
    expect(needsShippingAddress([l1, book])).toBe(true);
    expect(needsShippingFee([{ ...l1, free_physical_book: true }])).toBe(false);
    expect(needsShippingFee([book])).toBe(true);
  });

  it('duplicateCourse, lineWithoutPricing, ownedCourseWithoutRenewal, lineWithoutCurrencyPrice', () => {
    expect(duplicateCourse([l1, l2])).toBeNull();
    expect(duplicateCourse([l2, l1, l2])).toBe(2);
    expect(lineWithoutPricing([l1, l2], plans)).toBeNull();
    expect(ownedCourseWithoutRenewal([l1, l3], plans, [3])).toBeNull();
    expect(ownedCourseWithoutRenewal([{ course_id: 3, pricing_plan_id: 99 }], plans, [3])).toBe(3);
    expect(lineWithoutCurrencyPrice([l1, l2], plans, 'USD')).toBe(2);
    expect(lineWithoutCurrencyPrice([l1, { course_id: 7, pricing_plan_id: 7 }], plans, 'USD')).toBeNull();
  });
});

describe("a server's refusal of an order (docs/decisions/0038)", () => {
  it("names the check's problem and its course when the code is one of the checks'", () => {
    expect(problemOfRefusal('have_course', [2])).toEqual({ code: 'have_course', message: MSG.HAVE_COURSE, course_id: 2 });
    expect(problemOfRefusal('promotion_not_selected', undefined)).toEqual({ code: 'promotion_not_selected', message: MSG.PROMOTION_NOT_SELECTED });
  });

  it('is null for a code of no check (the server says it in its own words)', () => {
    for (const code of ['FORBIDDEN', 'TIME_LEFT', 'toString', '__proto__', '']) expect(problemOfRefusal(code, [1])).toBeNull();
  });
});
