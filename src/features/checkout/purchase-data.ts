/**
 * What a checkout starts from (the machines never fetch: the page hands them these): plans,
 * promotions, payment methods, owned courses and registration fields, read once through one
 * function for the course page, the product page and /cart; and the page data the checkout of one
 * course or book is given once they arrived.
 */
import type { components } from '../../../generated/api';
import { BANK_TRANSFER } from '../../../domain/payment-methods';
import { cartRequests } from '../../api/requests/cart';
import { orderedFacts, orderRequests } from '../../api/requests/orders';
import { progressRequests } from '../../api/requests/progress';
import { studentRequests } from '../../api/requests/students';
import { loadBankCodes, type BankCodeOption } from '../../api/bank-codes';
import { readsAsStudent } from '../../api/signed-in';
import { optional } from '../../api/optional';
import type { SiteSettings } from '../../api/settings';

export type Course = components['schemas']['Course'];
export type { SiteSettings };
export type PricingPlan = components['schemas']['PricingPlan'];
export type Promotion = components['schemas']['Promotion'];
export type PaymentMethod = components['schemas']['PaymentMethod'];
export type CustomLabel = components['schemas']['CustomLabel'];
export type UserGroup = components['schemas']['UserGroup'];
export type { BankCodeOption };

export type ShippingFee = components['schemas']['ShippingFee'];
export type ShippingAddress = components['schemas']['ShippingAddress'];

export interface PurchaseData {
  plans: PricingPlan[];
  /** Products only: the shipping options and the student's addresses. */
  shippingFees?: ShippingFee[];
  shippingAddresses?: ShippingAddress[];
  promotions: Promotion[];
  methods: PaymentMethod[];
  /** Courses the student owns (approved orders); null when nobody is logged in. */
  ownedCourseIds: number[] | null;
  /** The student's latest order status per course (buyability). */
  orderStatuses: Record<number, string>;
  /** The order behind each status (an unpaid one can be paid again: "continue paying order #N"). */
  orderIds?: Record<number, number>;
  customLabels: CustomLabel[];
  userGroups: UserGroup[];
  /** The origin-bank options of a transfer's notice (getBankCodeOptions), read when bank transfer is offered. */
  bankCodes?: BankCodeOption[];
  /** The student's access countdown of this course when owned. */
  countdown?: CountdownRecord | null;
}

export type CountdownRecord = components['schemas']['CountdownRecord'];

/** The course page's layout (1-4; the course's own, else the site's): layout 4 has the registration on the page and its own help. */
export type LayoutId = 1 | 2 | 3 | 4;

/** The page's data once the purchase data arrived: what the checkout of one course or book starts from. */
export interface PurchasePageData {
  course: Course;
  settings: SiteSettings;
  purchase: PurchaseData;
  /** Physical products: stock left, the most the cart's line may hold. */
  stock?: number | null;
}

/** What a checkout of these lines starts from: which courses, whether a student reads it, whether books need shipping. */
export interface PurchaseScope {
  courseIds: readonly number[];
  student: boolean;
  /** A book is among the lines: the shipping fees, and the student's addresses. */
  shipping: boolean;
}

/**
 * Plans, promotions, payment methods, owned courses, registration fields (and for books the
 * shipping fees and the student's addresses) — in parallel. The course page, the product page and
 * /cart read the same data through this one function.
 */
export async function loadPurchaseLines({ courseIds, student, shipping }: PurchaseScope, signal: AbortSignal): Promise<PurchaseData> {
  const ids = [...new Set(courseIds)];
  const offered = cartRequests.getCartPaymentMethods.call(undefined, signal).then((r) => r.data);
  const [plans, promotions, methods, owned, customLabels, userGroups, shippingFees, shippingAddresses, bankCodes] = await Promise.all([
    ids.length ? cartRequests.getAllPricingPlans.call({ courseID: ids }, signal).then((r) => r.data) : Promise.resolve([]),
    optional(cartRequests.getAllPromotions.call(undefined, signal).then((r) => r.data), []),
    offered,
    // Only for a student (the id kept at login): a visitor's page makes no call that must fail.
    student ? optional(orderRequests.listOrderedCourses.call(undefined, signal).then((r) => r.data), null) : Promise.resolve(null),
    optional(studentRequests.listCustomLabels.call(undefined, signal).then((r) => r.data), []),
    optional(studentRequests.listUserGroups.call(undefined, signal).then((r) => r.data), []),
    shipping ? optional(cartRequests.listShippingFees.call(undefined, signal).then((r) => r.data), []) : Promise.resolve(undefined),
    shipping && student ? optional(studentRequests.listShippingAddresses.call(undefined, signal).then((r) => r.data), []) : Promise.resolve(shipping ? [] : undefined),
    // The transfer's notice asks which bank the money came from: read only when bank transfer is offered.
    offered.then((ms) => (ms.some((m) => m.id === BANK_TRANSFER) ? loadBankCodes(signal) : [])),
  ]);
  const facts = orderedFacts(owned ?? []);
  return {
    plans,
    promotions,
    methods,
    ...facts,
    // null: not read (a visitor, or the read failed), so nothing is known to be owned
    ownedCourseIds: owned ? facts.ownedCourseIds : null,
    customLabels,
    userGroups,
    bankCodes,
    ...(shippingFees ? { shippingFees } : {}),
    ...(shippingAddresses ? { shippingAddresses } : {}),
  };
}

/** One course's (or book's) purchase data, with the student's access countdown when owned; student or visitor as the server says (signed-in.ts). */
export async function loadPurchaseData(courseId: number, request: Request, shipping = false): Promise<PurchaseData> {
  const { signal } = request;
  const data = await loadPurchaseLines({ courseIds: [courseId], student: await readsAsStudent(request), shipping }, signal);
  const countdown = data.ownedCourseIds?.includes(courseId)
    ? await optional(progressRequests.getCourseCountdown.call({ courseId }, signal).then((r) => r.data), null)
    : null;
  return { ...data, countdown };
}
