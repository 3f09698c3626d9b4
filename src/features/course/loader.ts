/**
 * The course page's data (react-router loader): the course and the site settings, read in
 * parallel; the canonical-path redirect (spec section 2: when the path differs from the course's
 * link path and the id matches); a 404 when the id is not a course. The id is the part of the
 * route parameter before the first hyphen.
 */
import { redirect } from 'react-router';
import type { components } from '../../../generated/api';
import { BANK_TRANSFER } from '../../../domain/payment-methods';
import { takeBootData } from '../../api/boot-data';
import { cartActors, catalogueActors, orderActors, progressActors, sessionActors, studentActors } from '../../api/actors';
import { loadBankCodes, type BankCodeOption } from '../../api/bank-codes';
import { isApiError } from '../../api/errors';
import { keepUserId, keptUserId } from '../../api/storage';
import { loadSiteSettings, type SiteSettings } from '../../api/settings';

export type Course = components['schemas']['Course'];
export type { SiteSettings };
export type PlaylistItem = components['schemas']['PlaylistItem'];
export type HowToBuy = components['schemas']['HowToBuy'];

export type PricingPlan = components['schemas']['PricingPlan'];
export type Promotion = components['schemas']['Promotion'];
export type PaymentMethod = components['schemas']['PaymentMethod'];
export type CustomLabel = components['schemas']['CustomLabel'];
export type UserGroup = components['schemas']['UserGroup'];
export type { BankCodeOption };

/** What the checkout starts from (the machines never fetch: the page hands them these). */
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

export interface CoursePageData {
  course: Course;
  settings: SiteSettings;
  howToBuy: HowToBuy | null;
  /** The playlist when the page opens with learn=true (spec: opens it immediately). */
  playlist: PlaylistItem[] | null;
  /** Not awaited by the loader: the course renders first, the checkout when this arrives. */
  purchase: Promise<PurchaseData>;
  /** Physical products: stock left, the most the cart's line may hold. */
  stock?: number | null;
}

/** The page's data once the purchase data arrived (what the checkout starts from). */
export type PurchasePageData = Omit<CoursePageData, 'purchase'> & { purchase: PurchaseData };

async function optional<T>(p: Promise<T>, fallback: T): Promise<T> {
  try {
    return await p;
  } catch {
    return fallback;
  }
}

/**
 * A page opened by an e-mailed sign-in link (`?signedIn=1`): the server set the session cookie, the
 * browser has no kept id yet; it asks who is signed in so the buyer's own courses and orders count.
 */
async function adoptLinkSession(signal: AbortSignal): Promise<void> {
  if (keptUserId() !== null || typeof location === 'undefined' || !new URLSearchParams(location.search).has('signedIn')) return;
  const me = await optional(sessionActors.getSession.call(undefined, signal).then((r) => r.user), null);
  if (me) keepUserId(me.id);
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
  const offered = cartActors.getCartPaymentMethods.call(undefined, signal).then((r) => r.data);
  const [plans, promotions, methods, owned, customLabels, userGroups, shippingFees, shippingAddresses, bankCodes] = await Promise.all([
    ids.length ? cartActors.getAllPricingPlans.call({ courseID: ids }, signal).then((r) => r.data) : Promise.resolve([]),
    optional(cartActors.getAllPromotions.call(undefined, signal).then((r) => r.data), []),
    offered,
    // Only for a student (the id kept at login): a visitor's page makes no call that must fail.
    student ? optional(orderActors.listOrderedCourses.call(undefined, signal).then((r) => r.data), null) : Promise.resolve(null),
    optional(studentActors.listCustomLabels.call(undefined, signal).then((r) => r.data), []),
    optional(studentActors.listUserGroups.call(undefined, signal).then((r) => r.data), []),
    shipping ? optional(cartActors.listShippingFees.call(undefined, signal).then((r) => r.data), []) : Promise.resolve(undefined),
    shipping && student ? optional(studentActors.listShippingAddresses.call(undefined, signal).then((r) => r.data), []) : Promise.resolve(shipping ? [] : undefined),
    // The transfer's notice asks which bank the money came from: read only when bank transfer is offered.
    offered.then((ms) => (ms.some((m) => m.id === BANK_TRANSFER) ? loadBankCodes(signal) : [])),
  ]);
  return {
    plans,
    promotions,
    methods,
    ownedCourseIds: owned ? owned.filter((c) => c.status === 'approved').map((c) => c.courseID) : null,
    orderStatuses: Object.fromEntries((owned ?? []).map((c) => [c.courseID, c.status])),
    orderIds: Object.fromEntries((owned ?? []).map((c) => [c.courseID, c.order_id])),
    customLabels,
    userGroups,
    bankCodes,
    ...(shippingFees ? { shippingFees } : {}),
    ...(shippingAddresses ? { shippingAddresses } : {}),
  };
}

/** One course's (or book's) purchase data, with the student's access countdown when owned. */
export async function loadPurchaseData(courseId: number, signal: AbortSignal, shipping = false): Promise<PurchaseData> {
  await adoptLinkSession(signal);
  const data = await loadPurchaseLines({ courseIds: [courseId], student: keptUserId() !== null, shipping }, signal);
  const countdown = data.ownedCourseIds?.includes(courseId)
    ? await optional(progressActors.getCourseCountdown.call({ courseId }, signal).then((r) => r.data), null)
    : null;
  return { ...data, countdown };
}

/** The numeric id before the first hyphen of `{id}-{slug}`, or null. */
export function courseIdFromParam(param: string | undefined): number | null {
  if (!param) return null;
  const head = param.split('-')[0] ?? '';
  if (!/^\d{1,12}$/.test(head)) return null;
  const id = Number(head);
  return id > 0 ? id : null;
}

export function notFound(): Response {
  return new Response('404 Page not found !', { status: 404, statusText: 'Not Found' });
}

/** Where the page must go instead (canonical link path), or null when it is already there. */
export function canonicalPath(base: '/course' | '/product', param: string, linkPath: string, search: string): string | null {
  if (!linkPath || param === linkPath) return null;
  if (courseIdFromParam(linkPath) !== courseIdFromParam(param)) return null;
  return `${base}/${linkPath}${search}`;
}

/** Read by the order list too, so it lives in src/api. */
export { loadSiteSettings };

export async function courseLoader({ params, request }: { params: { id?: string }; request: Request }): Promise<CoursePageData | Response> {
  const id = courseIdFromParam(params.id);
  if (id === null) throw notFound();
  // The server found no such course when it wrote the page: nothing to ask for.
  if (takeBootData<boolean>(request, 'notFound')) throw notFound();
  const url = new URL(request.url);
  const learn = url.searchParams.get('learn') === 'true';
  let course: Course;
  let settings: SiteSettings;
  let howToBuy: HowToBuy | null = null;
  let playlist: PlaylistItem[] | null = null;
  // Started in parallel with the course; the page does not wait for it. In a task of its own: the
  // first page's router starts its loaders in one task, which a phone should not hold long.
  const purchase = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => loadPurchaseData(id, request.signal));
  purchase.catch(() => undefined);
  // The first page: the server wrote the course, the settings and how-to-buy with the HTML.
  const booted = learn ? undefined : takeBootData<{ course: Course; settings: SiteSettings; howToBuy: HowToBuy | null }>(request, 'course');
  if (booted) {
    ({ course, settings, howToBuy } = booted);
  } else {
    try {
      const [c, s, h, p] = await Promise.all([
        catalogueActors.getCourse.call({ id }, request.signal),
        loadSiteSettings(request.signal),
        optional(catalogueActors.getHowToBuy.call(undefined, request.signal).then((r) => r.data), null),
        learn ? catalogueActors.getCourseVideoPlaylist.call({ courseId: id }, request.signal) : Promise.resolve(null),
      ]);
      course = c.data;
      settings = s;
      howToBuy = h;
      if (p) playlist = p.data;
    } catch (error) {
      if (isApiError(error) && (error.status === 404 || error.code === 'NOT_FOUND')) throw notFound();
      throw error;
    }
  }
  // Spec: "If the preview data is empty after loading, it shows '404 Page not found !'".
  if (!course || !course.id) throw notFound();
  if (course.course_type === 'Product') return redirect(`/product/${course.link_path}${url.search}`);
  const canonical = canonicalPath('/course', params.id ?? '', course.link_path, url.search);
  if (canonical) return redirect(canonical);
  return { course, settings, howToBuy, playlist, purchase };
}
