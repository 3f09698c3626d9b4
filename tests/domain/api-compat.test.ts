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
  it('types line up (compile-time; tsc fails otherwise)', () => {
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
    expect(true).toBe(true);
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
