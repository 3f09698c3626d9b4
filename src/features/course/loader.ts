/**
 * The course page's data (react-router loader): the course and the site settings, read in
 * parallel; the canonical-path redirect (spec section 2: when the path differs from the course's
 * link path and the id matches); a 404 when the id is not a course. The id is the part of the
 * route parameter before the first hyphen.
 */
import { redirect } from 'react-router';
import type { components } from '../../../generated/api';
import { takeBootData } from '../../api/boot-data';
import { api } from '../../api/client';
import { isApiError, unwrap } from '../../api/errors';
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
  const me = await optional(api.GET('/public/auth/me', { signal }).then((r) => unwrap(r, 'getSession').user), null);
  if (me) keepUserId(me.id);
}

/** Plans, promotions, payment methods, owned courses, registration fields — in parallel. */
export async function loadPurchaseData(courseId: number, signal: AbortSignal): Promise<PurchaseData> {
  await adoptLinkSession(signal);
  const [plans, promotions, methods, owned, customLabels, userGroups] = await Promise.all([
    api.POST('/public/cart/getallpriecingplan', { body: { courseID: [courseId] }, signal }).then((r) => unwrap(r, 'getAllPricingPlans').data),
    optional(api.GET('/public/cart/promotion/all', { signal }).then((r) => unwrap(r, 'getAllPromotions').data), []),
    api.GET('/public/cart/payments/methods', { signal }).then((r) => unwrap(r, 'getCartPaymentMethods').data),
    // Only for a student (the id kept at login): a visitor's page makes no call that must fail.
    keptUserId() === null
      ? Promise.resolve(null)
      : optional(
          api.GET('/private/cart/ordercourse', { signal }).then((r) => unwrap(r, 'listOrderedCourses').data),
          null,
        ),
    optional(api.GET('/public/customlabel', { signal }).then((r) => unwrap(r, 'listCustomLabels').data), []),
    optional(api.GET('/api/user/group', { signal }).then((r) => unwrap(r, 'listUserGroups').data), []),
  ]);
  const ownedIds = owned ? owned.filter((c) => c.status === 'approved').map((c) => c.courseID) : null;
  const countdown = ownedIds?.includes(courseId)
    ? await optional(
        api.GET('/private/course/countdowntime/{courseId}', { params: { path: { courseId } }, signal }).then((r) => unwrap(r, 'getCourseCountdown').data),
        null,
      )
    : null;
  return {
    plans,
    promotions,
    methods,
    countdown,
    ownedCourseIds: ownedIds,
    orderStatuses: Object.fromEntries((owned ?? []).map((c) => [c.courseID, c.status])),
    orderIds: Object.fromEntries((owned ?? []).map((c) => [c.courseID, c.order_id])),
    customLabels,
    userGroups,
  };
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
        api.GET('/public/courses/{id}/{number}', { params: { path: { id, number: 0 } }, signal: request.signal }),
        loadSiteSettings(request.signal),
        api.GET('/public/payments/howtobuy', { signal: request.signal }).catch(() => null),
        learn ? api.GET('/public/course/videoplaylist/{courseId}', { params: { path: { courseId: id } }, signal: request.signal }) : Promise.resolve(null),
      ]);
      course = unwrap(c, 'getCourse').data;
      settings = s;
      if (h) {
        try {
          howToBuy = unwrap(h, 'getHowToBuy').data;
        } catch {
          howToBuy = null;
        }
      }
      if (p) playlist = unwrap(p, 'getCourseVideoPlaylist').data;
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
