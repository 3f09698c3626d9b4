/**
 * Catalogue rows (courses, products, plans, coupons, promotions) and their API shapes.
 * Every amount is integer minor units straight from bigint columns.
 */
import type { Queryable } from '../db/index';
import type { components } from '../../generated/api';
import { startingPrice, type PlanViewer } from '../../domain/plans';
import type { Coupon as DomainCoupon, PricingPlan as DomainPlan, Promotion as DomainPromotion } from '../../domain/types';

type S = components['schemas'];

export interface CourseRow {
  id: number;
  course_type: S['CourseType'];
  is_product: boolean;
  name: string;
  name_eng: string | null;
  link_path: string;
  category_id: number | null;
  instructor_id: number | null;
  short_description: string | null;
  description: string | null;
  image: string | null;
  image_detail: string[];
  preview: { url?: string; type?: string; picture_url?: string | null; videoUrl?: string | null; pictureUrl?: string | null };
  meta_title: string | null;
  meta_description: string | null;
  seats: number | null;
  seats_total: number | null;
  stock: number | null;
  start_reg_date: Date | null;
  end_reg_date: Date | null;
  requires_shipping: boolean;
  is_course_access: boolean;
  user_group_ids: number[];
  layout_course_detail: number | null;
  is_layout_course_registration: boolean | null;
  is_bestseller: boolean;
  upload_video_type: string | null;
  status: number;
  sort: number;
}

export interface PlanRow {
  id: number;
  course_id: number;
  name: string;
  plan_type: S['PlanType'];
  term: number | null;
  term_unit: S['TermUnit'] | null;
  term_2: number | null;
  term_unit_2: S['TermUnit'] | null;
  price: number;
  price_usd: number | null;
  pricing_type: 'default' | 'renew';
  status_show: 0 | 1;
  free_for: string | null;
  free_course_ids: string;
  buy_course_free: boolean;
  need_approval: boolean;
  is_default: boolean;
  is_for_member: boolean;
  reference_code: string | null;
  reference_id: number | null;
  value: string | null;
  sort: number;
}

export interface CouponRow {
  id: number;
  code: string;
  name: string | null;
  coupon_type: 'P1' | 'P2';
  number_of_course: number | null;
  courses: number[];
  payment_method: number[];
  discount_type: 'amount' | 'percent';
  discount_amont: number;
  discount_amount_usd: number | null;
  usage_limit: number | null;
  used_count: number;
  starts_at: Date | null;
  ends_at: Date | null;
  status: number;
}

export interface PromotionRow {
  id: number;
  title: string;
  description_list: string[];
  promotion_type: 'P1' | 'P2';
  courses: number[];
  number_of_course: number | null;
  discount_type: 'amount' | 'percent';
  discount_amont: number;
  discount_amount_usd: number | null;
  starts_at: Date | null;
  ends_at: Date | null;
  status: number;
}

export function iso(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}

// ------------------------------------------------------------------ reads

export async function coursesByIds(q: Queryable, ids: readonly number[]): Promise<Map<number, CourseRow>> {
  const m = new Map<number, CourseRow>();
  if (ids.length === 0) return m;
  const r = await q.query<CourseRow>('SELECT * FROM courses WHERE id = ANY($1::int[]) AND status = 1', [[...new Set(ids)]]);
  for (const c of r.rows) m.set(c.id, c);
  return m;
}

export async function findCourse(q: Queryable, id: number): Promise<CourseRow | null> {
  const r = await q.query<CourseRow>('SELECT * FROM courses WHERE id = $1 AND status = 1', [id]);
  return r.rows[0] ?? null;
}

const PLANS_OF_COURSES = (courseIds: string) => `SELECT * FROM pricing_plans WHERE course_id = ANY(${courseIds}::int[]) ORDER BY course_id, sort, id`;

export async function plansOfCourses(q: Queryable, courseIds: readonly number[]): Promise<PlanRow[]> {
  if (courseIds.length === 0) return [];
  const r = await q.query<PlanRow>(PLANS_OF_COURSES('$1'), [[...new Set(courseIds)]]);
  return r.rows;
}

/*
 * The same reads as one JSON column each, for a caller that gathers several reads into one
 * statement (the order creation, server/orders/repository.ts). JSON keeps integers, bigints (money,
 * well inside 2^53), text, booleans and arrays as they are; a timestamp comes back as text and is
 * turned back into a Date here, as the driver does for a row. A column added to pricing_plans or
 * promotions that is a timestamp must be revived here too.
 */
/** plansOfCourses as a JSON array (`courseIds`: an int[] parameter such as '$3'). */
export const plansOfCoursesJson = (courseIds: string) => `(SELECT coalesce(json_agg(p ORDER BY p.course_id, p.sort, p.id), '[]') FROM (${PLANS_OF_COURSES(courseIds)}) p)`;
/** Every promotion (activePromotions before its filter) as a JSON array. */
export const PROMOTIONS_JSON = `(SELECT coalesce(json_agg(p ORDER BY p.id), '[]') FROM promotions p)`;
export function promotionsFromJson(rows: (Omit<PromotionRow, 'starts_at' | 'ends_at'> & { starts_at: string | null; ends_at: string | null })[]): PromotionRow[] {
  return rows.map((p) => ({ ...p, starts_at: p.starts_at === null ? null : new Date(p.starts_at), ends_at: p.ends_at === null ? null : new Date(p.ends_at) }));
}

export async function plansByIds(q: Queryable, ids: readonly number[]): Promise<PlanRow[]> {
  if (ids.length === 0) return [];
  const r = await q.query<PlanRow>('SELECT * FROM pricing_plans WHERE id = ANY($1::int[])', [[...new Set(ids)]]);
  return r.rows;
}

/** Active = status 1 and now within [starts_at, ends_at]. */
export function isActive(row: { status: number; starts_at: Date | null; ends_at: Date | null }, now: Date): boolean {
  return row.status === 1 && (!row.starts_at || row.starts_at <= now) && (!row.ends_at || row.ends_at > now);
}

export async function couponsByIds(q: Queryable, ids: readonly number[]): Promise<CouponRow[]> {
  if (ids.length === 0) return [];
  const r = await q.query<CouponRow>('SELECT * FROM coupons WHERE id = ANY($1::int[]) ORDER BY id', [[...new Set(ids)]]);
  return r.rows;
}

export async function couponByCode(q: Queryable, code: string): Promise<CouponRow | null> {
  const r = await q.query<CouponRow>('SELECT * FROM coupons WHERE lower(code) = lower($1)', [code.trim()]);
  return r.rows[0] ?? null;
}

export async function activePromotions(q: Queryable, now: Date): Promise<PromotionRow[]> {
  const r = await q.query<PromotionRow>('SELECT * FROM promotions ORDER BY id');
  return activeOf(r.rows, now);
}

/** The promotions of `rows` that are active at `now`. */
export function activeOf(rows: readonly PromotionRow[], now: Date): PromotionRow[] {
  return rows.filter((p) => isActive(p, now));
}

export async function findPromotion(q: Queryable, id: number): Promise<PromotionRow | null> {
  const r = await q.query<PromotionRow>('SELECT * FROM promotions WHERE id = $1', [id]);
  return r.rows[0] ?? null;
}

/** Course ids the student owns: an approved order of the course (spec: course access). */
export async function ownedCourseIds(q: Queryable, userId: number): Promise<number[]> {
  const r = await q.query<{ course_id: number }>(
    `SELECT DISTINCT oc.course_id FROM order_courses oc JOIN orders o ON o.id = oc.order_id
      WHERE o.user_id = $1 AND o.status = 'approved'`,
    [userId],
  );
  return r.rows.map((x) => x.course_id);
}

export async function viewerFor(q: Queryable, user: { id: number; role: string; is_member?: boolean } | null): Promise<PlanViewer> {
  if (!user || user.role !== 'student') return { loggedIn: false, ownedCourseIds: [] };
  // A layout-4 non-member session sees plans as a guest does (createOrder applies the same rule).
  return { loggedIn: user.is_member !== false, ownedCourseIds: await ownedCourseIds(q, user.id) };
}

// ------------------------------------------------------------------ API shapes

export function planForApi(p: PlanRow): S['PricingPlan'] {
  return {
    id: p.id,
    course_id: p.course_id,
    name: p.name,
    plan_type: p.plan_type,
    term: p.term,
    term_unit: p.term_unit,
    term_2: p.term_2,
    term_unit_2: p.term_unit_2,
    price: p.price,
    price_usd: p.price_usd,
    pricing_type: p.pricing_type,
    status_show: p.status_show,
    free_for: p.free_for,
    free_course_ids: p.free_course_ids,
    buy_course_free: p.buy_course_free,
    need_approval: p.need_approval,
    is_default: p.is_default,
    is_for_member: p.is_for_member,
    reference_code: p.reference_code,
    reference_id: p.reference_id,
    value: p.value,
  };
}

/** The plan as domain/ reads it (same field names). */
export function planForDomain(p: PlanRow): DomainPlan {
  return planForApi(p) as DomainPlan;
}

export function couponForApi(c: CouponRow): S['Coupon'] {
  return {
    id: c.id,
    code: c.code,
    coupon_type: c.coupon_type,
    number_of_course: Math.max(1, c.number_of_course ?? 1),
    courses: c.courses,
    payment_method: c.payment_method as S['PaymentMethodId'][],
    discount_type: c.discount_type,
    discount_amont: c.discount_amont,
    discount_amount_usd: c.discount_amount_usd,
  };
}

export function couponForDomain(c: CouponRow): DomainCoupon {
  return couponForApi(c) as DomainCoupon;
}

export function promotionForApi(p: PromotionRow, discount?: number): S['Promotion'] {
  return {
    id: p.id,
    title: p.title,
    description_list: p.description_list,
    promotion_type: p.promotion_type,
    coursesInPromotion: p.courses,
    courses: p.courses,
    number_of_course: Math.max(1, p.number_of_course ?? 1),
    discount_type: p.discount_type,
    discount_amont: p.discount_amont,
    discount_amount_usd: p.discount_amount_usd,
    ...(discount === undefined ? {} : { discount }),
  };
}

export function promotionForDomain(p: PromotionRow): DomainPromotion {
  return promotionForApi(p) as DomainPromotion;
}

export async function instructorNames(q: Queryable, ids: readonly (number | null)[]): Promise<Map<number, string>> {
  const list = ids.filter((x): x is number => x !== null);
  const m = new Map<number, string>();
  if (list.length === 0) return m;
  const r = await q.query<{ id: number; firstname: string; lastname: string }>('SELECT id, firstname, lastname FROM users WHERE id = ANY($1::int[])', [[...new Set(list)]]);
  for (const u of r.rows) m.set(u.id, `${u.firstname} ${u.lastname}`.trim());
  return m;
}

/** Course or product summaries (CourseSummary) with the default plan's price for the viewer. */
export async function summaries(q: Queryable, rows: CourseRow[], viewer: PlanViewer): Promise<S['CourseSummary'][]> {
  const [plans, names] = await Promise.all([plansOfCourses(q, rows.map((c) => c.id)), instructorNames(q, rows.map((c) => c.instructor_id))]);
  return rows.map((c) => {
    const own = plans.filter((p) => p.course_id === c.id).map(planForDomain);
    return {
      id: c.id,
      name: c.name,
      link_path: c.link_path,
      course_type: c.course_type,
      image: c.image,
      short_description: c.short_description,
      instructor_name: c.instructor_id ? (names.get(c.instructor_id) ?? null) : null,
      default_price: startingPrice(own, viewer, 'THB'),
      default_price_usd: startingPrice(own, viewer, 'USD'),
      available_qty: c.is_product ? Math.max(0, c.stock ?? 0) : null,
    };
  });
}

/** Every shipping option with its price per currency (fee_usd null: not offered in USD). */
export async function listShippingFees(q: Queryable): Promise<{ id: number; name: string; fee: number; fee_usd: number | null }[]> {
  return (await q.query<{ id: number; name: string; fee: number; fee_usd: number | null }>('SELECT id, name, fee, fee_usd FROM shipping_fees ORDER BY fee, id')).rows;
}

/**
 * Published courses (products = false) or products, in the shop's order: optionally of one
 * category or course type (`filter`: link path, name or English name) and matching every word of
 * `keyword` (at most five) in the name, English name or descriptions.
 */
export async function listCatalogue(q: Queryable, products: boolean, filter?: string, keyword?: string): Promise<CourseRow[]> {
  const params: unknown[] = [products];
  let sql = 'SELECT c.* FROM courses c LEFT JOIN categories cat ON cat.id = c.category_id WHERE c.status = 1 AND c.is_product = $1';
  if (filter) {
    params.push(filter.trim().toLowerCase());
    sql += ` AND (lower(cat.link_path) = $${params.length} OR lower(cat.name) = $${params.length} OR lower(cat.name_eng) = $${params.length} OR lower(c.course_type) = $${params.length})`;
  }
  if (keyword) {
    const words = keyword.trim().split(/\s+/).filter(Boolean).slice(0, 5);
    for (const w of words) {
      params.push(`%${w.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
      const p = `$${params.length}`;
      sql += ` AND (c.name ILIKE ${p} OR coalesce(c.name_eng, '') ILIKE ${p} OR coalesce(c.short_description, '') ILIKE ${p} OR coalesce(c.description, '') ILIKE ${p})`;
    }
  }
  sql += ' ORDER BY c.sort, c.id';
  return (await q.query<CourseRow>(sql, params)).rows;
}

export interface SectionRow {
  id: number;
  name: string;
  location: number;
}

export interface LectureOutlineRow {
  id: number;
  section_id: number;
  name: string;
  content_type: string;
  preview: boolean;
  video_length: number | null;
}

export interface InstructorRow {
  id: number;
  firstname: string;
  lastname: string;
  profile: { image?: string; biography?: string };
}

export async function courseSections(q: Queryable, courseId: number): Promise<SectionRow[]> {
  return (await q.query<SectionRow>('SELECT id, name, location FROM sections WHERE course_id = $1 ORDER BY location, id', [courseId])).rows;
}

export async function courseLectureOutline(q: Queryable, courseId: number): Promise<LectureOutlineRow[]> {
  return (await q.query<LectureOutlineRow>('SELECT id, section_id, name, content_type, preview, video_length FROM lectures WHERE course_id = $1 ORDER BY location, id', [courseId])).rows;
}

export async function findInstructor(q: Queryable, id: number): Promise<InstructorRow | null> {
  return (await q.query<InstructorRow>('SELECT id, firstname, lastname, profile FROM users WHERE id = $1', [id])).rows[0] ?? null;
}

/** Up to six other published courses related to `courseId`: by the same instructor, in the same category, or bestsellers. */
export async function relatedCourses(q: Queryable, courseId: number, by: { instructorId: number } | { categoryId: number } | 'bestsellers'): Promise<CourseRow[]> {
  const base = 'SELECT * FROM courses WHERE status = 1 AND is_product = false AND id <> $1';
  const r =
    by === 'bestsellers'
      ? await q.query<CourseRow>(`${base} AND is_bestseller ORDER BY sort, id LIMIT 6`, [courseId])
      : 'instructorId' in by
        ? await q.query<CourseRow>(`${base} AND instructor_id = $2 ORDER BY sort, id LIMIT 6`, [courseId, by.instructorId])
        : await q.query<CourseRow>(`${base} AND category_id = $2 ORDER BY sort, id LIMIT 6`, [courseId, by.categoryId]);
  return r.rows;
}

/** The published course whose link path is `path` (case-insensitive), or null. */
export async function courseByLinkPath(q: Queryable, path: string): Promise<CourseRow | null> {
  return (await q.query<CourseRow>('SELECT * FROM courses WHERE status = 1 AND lower(link_path) = lower($1)', [path])).rows[0] ?? null;
}

/** A course's lectures with their section, in the course's order (the video playlist). */
export type PlaylistRow = Record<string, unknown> & { preview: boolean; video_url: string | null; content_file: string | null; video_name: string | null; name: string };

export async function playlistRows(q: Queryable, courseId: number): Promise<PlaylistRow[]> {
  const r = await q.query<PlaylistRow>(
    `SELECT s.id AS sections_id, s.name AS sections_name, s.location AS sections_location, l.*
       FROM lectures l JOIN sections s ON s.id = l.section_id
      WHERE l.course_id = $1 ORDER BY s.location, s.id, l.location, l.id`,
    [courseId],
  );
  return r.rows;
}
