/**
 * The course page's data (react-router loader): the course and the site settings, read in
 * parallel; the canonical-path redirect (spec section 2: when the path differs from the course's
 * link path and the id matches); a 404 when the id is not a course. The id is the part of the
 * route parameter before the first hyphen.
 */
import { redirect } from 'react-router';
import type { components } from '../../../generated/api';
import { nextTask } from '../../api/next-task';
import { takeBootData } from '../../api/boot-data';
import { catalogueRequests } from '../../api/requests/catalogue';
import { isApiError } from '../../api/errors';
import { loadSiteSettings, type SiteSettings } from '../../api/settings';
import { optional } from '../../api/optional';
import type { Course, PurchaseData } from '../checkout/purchase-data';

export type { Course, SiteSettings };
export type { CountdownRecord, PaymentMethod, PricingPlan, PurchaseData, PurchasePageData } from '../checkout/purchase-data';
export type PlaylistItem = components['schemas']['PlaylistItem'];
export type HowToBuy = components['schemas']['HowToBuy'];

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
  // first page's router starts its loaders in one task, which a phone should not hold long. Its
  // code is a chunk of its own, fetched beside the page's: the course renders without it.
  const purchase = nextTask()
    .then(() => import('../checkout/purchase-data'))
    .then((m) => m.loadPurchaseData(id, request));
  purchase.catch(() => undefined);
  // The first page: the server wrote the course, the settings and how-to-buy with the HTML.
  const booted = learn ? undefined : takeBootData<{ course: Course; settings: SiteSettings; howToBuy: HowToBuy | null }>(request, 'course');
  if (booted) {
    ({ course, settings, howToBuy } = booted);
  } else {
    try {
      const [c, s, h, p] = await Promise.all([
        catalogueRequests.getCourse.call({ id }, request.signal),
        loadSiteSettings(request.signal),
        optional(catalogueRequests.getHowToBuy.call(undefined, request.signal).then((r) => r.data), null),
        learn ? catalogueRequests.getCourseVideoPlaylist.call({ courseId: id }, request.signal) : Promise.resolve(null),
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
