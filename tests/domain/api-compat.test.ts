/**
 * Objects from the API (generated/api.ts) pass structurally into domain/ (checked by tsc on
 * tests/domain), and index.ts re-exports the public API.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from '../../generated/api';
import * as domain from '../../domain';
import type {
  BankTransferValues,
  BuyableCourse,
  CartLine,
  CountdownRecord,
  Coupon,
  CustomLabel,
  OrderLine,
  PricingPlan,
  PricingSettings,
  Promotion,
  RegisterFormSettings,
  StudentTaxProfile,
  TaxInfo,
  TaxSettings,
  UploadItem,
  UserGroup,
} from '../../domain';

type S = components['schemas'];

describe('generated API types are accepted by the domain input types', () => {
  it('types line up (tsc on tests/domain) and API-typed objects price a cart without conversion', () => {
    expectTypeOf<S['PricingPlan']>().toExtend<PricingPlan>();
    expectTypeOf<S['Coupon']>().toExtend<Coupon>();
    expectTypeOf<S['Promotion']>().toExtend<Promotion>();
    expectTypeOf<S['CartLineInput']>().toExtend<CartLine>();
    expectTypeOf<S['CartLineInput']>().toExtend<OrderLine>();
    expectTypeOf<S['CountdownRecord']>().toExtend<CountdownRecord>();
    expectTypeOf<S['TaxInfo']>().toExtend<TaxInfo>();
    expectTypeOf<S['Student']>().toExtend<StudentTaxProfile>();
    expectTypeOf<S['SiteSettings']>().toExtend<TaxSettings>();
    expectTypeOf<S['SiteSettings']>().toExtend<PricingSettings>();
    expectTypeOf<S['SiteSettings']['registerForm']>().toExtend<RegisterFormSettings>();
    expectTypeOf<S['CustomLabel']>().toExtend<CustomLabel>();
    expectTypeOf<S['UserGroup']>().toExtend<UserGroup>();
    expectTypeOf<S['UploadItem']>().toExtend<UploadItem>();
    expectTypeOf<S['Course']>().toExtend<BuyableCourse>();
    expectTypeOf<S['PaymentReport']>().toExtend<BankTransferValues>();

    // and objects typed from the API price a cart without conversion
    const plan: S['PricingPlan'] = {
      id: 31, course_id: 12, name: 'เรียนได้ 1 ปี', plan_type: 'Period', term: 1, term_unit: 'Year(s)', term_2: null, term_unit_2: null,
      price: 199000, price_usd: 6000, pricing_type: 'default', status_show: 1, free_for: null, free_course_ids: '',
      buy_course_free: false, need_approval: false, is_default: true, is_for_member: false,
    };
    const coupon: S['Coupon'] = {
      id: 1, code: 'NEWYEAR2025', coupon_type: 'P1', number_of_course: 1, courses: [12], payment_method: [1],
      discount_type: 'percent', discount_amont: 10, discount_amount_usd: null,
    };
    const line: S['CartLineInput'] = { course_id: 12, pricing_plan_id: 31, qty: 1 };
    const r = domain.priceCart([line], [plan], [coupon], null, 'THB', 1, { is_one_coupon_only: true, is_coupon_promotion_exclusive: false });
    expect(r).toMatchObject({ ok: true, subtotal: 199000, discount: 19900, total: 179100, coupon_list_code: ['NEWYEAR2025'] });
    expect(domain.accessEndsAt(plan, '2024-02-29T00:00:00Z')).toBe(Date.UTC(2025, 1, 28));
  });

  it('a course from the API drives canBuy directly', () => {
    const course: Pick<S['Course'], 'id' | 'course_type' | 'seats_available' | 'start_reg_date' | 'end_reg_date' | 'buy_course_free' | 'is_course_access_right' | 'access_group_ids'> = {
      id: 1,
      course_type: 'In-class',
      seats_available: 0,
      start_reg_date: null,
      end_reg_date: null,
      buy_course_free: false,
      is_course_access_right: false,
      access_group_ids: [],
    };
    expect(domain.canBuy({ course, buyer: { studentLoggedIn: true }, now: 0 }).reason).toBe('no_seats');
  });
});

describe('domain/index.ts re-exports the public API', () => {
  it.each([
    'orderAmount',
    'formatMoney',
    'parseAmount',
    'percentOf',
    'toCardGatewayAmount',
    'toOmiseAmount',
    'plansForViewer',
    'defaultPlan',
    'accessEndsAt',
    'remainingMs',
    'canBuy',
    'validateCoupon',
    'priceCart',
    'bestPromotion',
    'spreadDiscount',
    'amountBeforeVat',
    'needsTaxInvoiceCheck',
    'orderTax',
    'validateTaxId',
    'checkPaymentMethod',
    'cardBrand',
    'luhnValid',
    'orderProblem',
    'submitProblem',
    'validateRegistration',
    'validateTaxInvoice',
    'validateBankTransfer',
    'validateCard',
    'validateUpload',
    'registrationSchema',
    'message',
    'buildPromptPayPayload',
  ])('%s', (name) => {
    expect(typeof (domain as Record<string, unknown>)[name]).toBe('function');
  });

  it('constants', () => {
    expect(domain.OMISE_PROMPTPAY).toBe(9);
    expect(domain.MESSAGES.NO_PLAN_FOR_YOU).toBe('ไม่มีรูปแบบราคาสำหรับคุณ');
  });
});

describe('canonicalJson: one text for equal values (the quote key in the browser, the quote version on the server)', () => {
  it('sorts keys at every level, keeps array order, writes null for undefined', async () => {
    const { canonicalJson } = await import('../../domain/values');
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: 'x' } })).toBe('{"a":{"c":"x","d":[2,1]},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson(undefined)).toBe('null');
  });
});
