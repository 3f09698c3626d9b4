/**
 * domain/'s own input types. Field names are the API's (snake_case as the spec spells them),
 * so objects from generated/api.ts pass structurally. Fields the rules can live without are
 * optional and accept the loose forms the existing backend sends (1 / '1' / true for flags,
 * number[] or a comma list for id lists), so a stricter generated type is always assignable.
 *
 * Money fields are integer minor units (satang / cents). Percent values are plain numbers (10 = 10%).
 */
export type { Currency } from './money';

/** A yes/no flag as the backend may send it: true, 1, '1' (and 'true') mean yes; anything else no. */
export type Flag = boolean | number | string | null | undefined;

/** The open-ended string form of a literal union: keeps autocomplete, accepts other strings. */
export type Open<T extends string> = T | (string & Record<never, never>);

/** A list of ids: number[] (or numeric strings) or a comma list "1,2,3". */
export type IdList = readonly (number | string)[] | string | null | undefined;

export type PlanType = 'Period' | 'Actual' | 'One-Time Payment' | 'Free';
export type TermUnit = 'Day(s)' | 'Month(s)' | 'Year(s)' | 'Hour(s)';

/** Spec 3 "Pricing plan". */
export interface PricingPlan {
  id: number;
  course_id: number;
  name?: string | null;
  plan_type: Open<PlanType>;
  term?: number | null;
  term_unit?: Open<TermUnit> | null;
  term_2?: number | null;
  term_unit_2?: Open<TermUnit> | null;
  /** Minor units (satang). */
  price: number;
  /** Minor units (cents); null = no USD price. */
  price_usd?: number | null;
  /** 'default' = normal sale plan; 'renew' = renewal plan for a course the user owns. */
  pricing_type?: Open<'default' | 'renew'> | null;
  status_show?: Flag;
  free_for?: string | number | boolean | null;
  free_course_ids?: IdList;
  buy_course_free?: Flag;
  need_approval?: Flag;
  is_default?: Flag;
  is_for_member?: Flag;
  reference_code?: string | null;
  reference_id?: number | string | null;
  value?: unknown;
}

export type CouponType = 'P1' | 'P2';
export type DiscountType = 'amount' | 'percent';

/** Spec 3 "Coupon". discount_amont (sic): percent for percent coupons, minor units for amount coupons. */
export interface Coupon {
  id: number;
  code: string;
  coupon_type: Open<CouponType>;
  number_of_course?: number | null;
  courses?: IdList;
  payment_method?: IdList;
  discount_type: Open<DiscountType>;
  discount_amont: number;
  /** Minor units (cents) for amount coupons in USD; null = no USD amount. */
  discount_amount_usd?: number | null;
}

/** Spec 3 "Promotion". */
export interface Promotion {
  id: number;
  title?: string | null;
  description_list?: unknown;
  promotion_type: Open<CouponType>;
  courses?: IdList;
  /** Alternative course list: ids, or objects carrying course_id / courseID / id. */
  coursesInPromotion?:
    | readonly (number | string | { course_id?: number | null; courseID?: number | null; id?: number | null })[]
    | string
    | null;
  number_of_course?: number | null;
  discount_type: Open<DiscountType>;
  discount_amont: number;
  discount_amount_usd?: number | null;
  /** Display-only pre-computed figure from the backend; never used for pricing. */
  discount?: number | null;
}

/**
 * One cart line as the pricing needs it (spec 3 "Cart line": course id, pricing plan id, qty);
 * the API's CartLineInput { course_id, pricing_plan_id, qty } passes as is.
 */
export interface CartLine {
  course_id: number;
  pricing_plan_id: number;
  qty?: number | null;
}

/** Spec 3 "Countdown record". */
export interface CountdownRecord {
  planType: Open<PlanType>;
  startDateTime: string | number | Date;
  courseDays?: number | null;
  term?: number | null;
  termUnit?: Open<TermUnit> | null;
  term2?: number | null;
  termUnit2?: Open<TermUnit> | null;
  isTermUnit2?: Flag;
  countDownTime?: number | null;
  progressTime?: number | null;
  orderID?: number | string | null;
  finishDateTime?: string | number | null;
  readLecture?: unknown;
}

/** Spec 3 "User group". */
export interface UserGroup {
  id: number;
  name: string;
  is_default?: Flag;
}

/** Site settings the tax rules read (spec 3 "Site settings"). */
export interface TaxSettings {
  vat_value?: number | null;
  is_enable_vat?: Flag;
  is_enable_tax_invoice?: Flag;
  is_enable_withholding_tax?: Flag;
}

export type TaxPersonType = 'normal_person' | 'juristic_person';

/** The student's tax profile (spec 3 "Student"). Any non-normal type counts as a company. */
export interface StudentTaxProfile {
  tax_person_type?: Open<TaxPersonType> | null;
  is_require_tax_invoice?: Flag;
}

/** Spec 3 "Tax info". */
export interface TaxInfo {
  tax_person_type?: Open<TaxPersonType> | null;
  tax_name_one?: string | null;
  tax_name_two?: string | null;
  tax_payer_identification_no?: string | null;
  tax_address?: string | null;
  tax_is_delivery_by_tax_address?: Flag;
  tax_delivery_address?: string | null;
  /** Uploaded file name(s) of the company certificate. */
  tax_company_certificate?: string | readonly unknown[] | null;
}

export type CustomLabelType = 'inputtext' | 'select' | 'multiple' | 'checkbox' | 'radio' | 'image';

/** Spec 3 "Custom label (registration extra field)". */
export interface CustomLabel {
  id: number;
  type_label: Open<CustomLabelType>;
  label: string;
  order_label?: number | null;
  /** 1 means required. */
  required?: Flag;
  item_list?: string | readonly unknown[] | null;
}

/** One registerForm toggle (spec 3 "Site settings"). */
export interface RegisterFieldToggle {
  is_enable?: Flag;
  is_require?: Flag;
}

export type RegisterFormField = 'firstname' | 'lastname' | 'nickname' | 'tel' | 'address' | 'image_profile';
export type RegisterFormSettings = Partial<Record<RegisterFormField, RegisterFieldToggle | null>>;

/** Spec 3 "Upload item". */
export interface UploadItem {
  name: string;
  /** Bytes. */
  size: number;
  /** MIME type, e.g. image/png, video/quicktime. */
  type: string;
  /** (width,height): an object or the legacy "width,height" text. */
  imageSize?: { width: number; height: number } | string | null;
}

/** Pricing switches of the site settings (spec 3: "names not shown"; named as in openapi.yaml). */
export interface PricingSettings {
  /** Only one coupon per order. */
  is_one_coupon_only?: Flag;
  /** Coupons and promotions are mutually exclusive. */
  is_coupon_promotion_exclusive?: Flag;
}
