/**
 * Order rows and the resources an order holds: seats (courses.seats), stock (courses.stock) and
 * coupon uses (coupons.used_count + coupon_uses). Every function takes the Queryable of the
 * caller's transaction. Lock order everywhere: order row → course rows (ascending id) → coupon rows
 * (ascending id), so two transactions never wait on each other in a cycle.
 */
import type { Queryable } from '../db/index';
import type { AbuseLimits } from '../config';
import { plansOfCoursesJson, PROMOTIONS_JSON, promotionsFromJson, type CourseRow, type PlanRow, type PromotionRow } from '../repos/catalogue';
import type { StoredSettings } from '../repos/settings';
import { orderedCoursesJson, type OrderedCourseRow } from './status';

export type OrderStatus = 'notYetReceived' | 'pendingApproved' | 'approved' | 'rejected' | 'cancelled';
/** The contract's OrderPaymentStatus: a cancelled order reads as rejected. */
export type PaymentStatus = 'notYetReceived' | 'pendingApproved' | 'approved' | 'rejected';

export interface OrderRow {
  id: number;
  order_token: string;
  user_id: number;
  status: OrderStatus;
  payment_status: PaymentStatus;
  currency_code: 'THB' | 'USD';
  payment_method_id: number | null;
  price: number;
  discount: number;
  shipping_fee: number;
  withholding_price: number;
  is_withholding: boolean;
  withholding_percent: number | null;
  vat_price: number;
  total: number;
  coupon_ids: number[];
  coupon_list_code: string[];
  promotion_id: number | null;
  shipping_address_id: number | null;
  shipping_fee_id: number | null;
  email: string | null;
  tel: string | null;
  is_require_tax_invoice: boolean;
  /** The buyer's language when ordering (migration 706): the paid e-mail is written in it. */
  locale: 'th' | 'en';
  cancel_at: Date | null;
  cancelled_at: Date | null;
  approved_at: Date | null;
  approve_by: string | null;
  order_payment_id: number | null;
  reject_reason: string | null;
  is_deleted: boolean;
  resources_released: boolean;
  /** Until when an unpaid order holds its scarce things (server/orders/holds.ts); null = none held. */
  hold_until: Date | null;
  address_hash: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface OrderCourseRow {
  id: number;
  order_id: number;
  course_id: number;
  pricing_plan_id: number | null;
  course_name: string;
  course_type: string;
  qty: number;
  original_pricing_price: number;
  discount: number;
  price: number;
  coupon_code: string | null;
  /** The plan's name (joined when read). */
  pricingplan_name?: string | null;
}

export async function findOrder(q: Queryable, orderId: number, opts: { forUpdate?: boolean; userId?: number } = {}): Promise<OrderRow | null> {
  if (!Number.isSafeInteger(orderId)) return null;
  const params: unknown[] = [orderId];
  let sql = 'SELECT * FROM orders WHERE id = $1';
  if (opts.userId !== undefined) {
    params.push(opts.userId);
    sql += ' AND user_id = $2';
  }
  if (opts.forUpdate) sql += ' FOR UPDATE';
  const r = await q.query<OrderRow>(sql, params);
  return r.rows[0] ?? null;
}

export async function findOrderByToken(q: Queryable, token: string): Promise<OrderRow | null> {
  const r = await q.query<OrderRow>('SELECT * FROM orders WHERE order_token = $1', [token]);
  return r.rows[0] ?? null;
}

/** The order's latest provider attempt (payments row), for what the buyer is told. */
export async function lastAttempt(q: Queryable, orderId: number): Promise<{ provider: string; method_id: number; status: string; failure_code: string | null } | null> {
  const r = await q.query<{ provider: string; method_id: number; status: string; failure_code: string | null }>(
    'SELECT provider, method_id, status, failure_code FROM payments WHERE order_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1',
    [orderId],
  );
  return r.rows[0] ?? null;
}

export async function orderCourses(q: Queryable, orderId: number): Promise<OrderCourseRow[]> {
  const r = await q.query<OrderCourseRow>(
    'SELECT oc.*, p.name AS pricingplan_name FROM order_courses oc LEFT JOIN pricing_plans p ON p.id = oc.pricing_plan_id WHERE oc.order_id = $1 ORDER BY oc.id',
    [orderId],
  );
  return r.rows;
}

interface LockedCourse {
  id: number;
  seats: number | null;
  stock: number | null;
}

/**
 * Locks (ascending id) and returns the courses with a seat or stock count. A course not in the
 * map has neither (or does not exist): there is nothing to count down, and no row to wait for.
 */
export async function lockCourses(q: Queryable, courseIds: readonly number[]): Promise<Map<number, LockedCourse>> {
  const ids = [...new Set(courseIds)].sort((a, b) => a - b);
  const map = new Map<number, LockedCourse>();
  if (ids.length === 0) return map;
  // Only a course with a seat or stock count is locked (it is counted down in this transaction);
  // orders of unlimited courses do not wait for each other (POST order p99 at 100 rps).
  const limited = await q.query<LockedCourse>(
    'SELECT id, seats, stock FROM courses WHERE id = ANY($1::int[]) AND (seats IS NOT NULL OR stock IS NOT NULL) ORDER BY id FOR UPDATE',
    [ids],
  );
  for (const row of limited.rows) map.set(row.id, row);
  return map;
}

export interface LockedCoupon {
  id: number;
  code: string;
  usage_limit: number | null;
  used_count: number;
}

/** Locks the coupons (ascending id) and returns them by id. */
export async function lockCoupons(q: Queryable, couponIds: readonly number[]): Promise<Map<number, LockedCoupon>> {
  const ids = [...new Set(couponIds)].sort((a, b) => a - b);
  const map = new Map<number, LockedCoupon>();
  if (ids.length === 0) return map;
  const r = await q.query<LockedCoupon>('SELECT id, code, usage_limit, used_count FROM coupons WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE', [ids]);
  for (const row of r.rows) map.set(row.id, row);
  return map;
}

/** Quantity per course of an order's lines. */
function qtyByCourse(lines: readonly Pick<OrderCourseRow, 'course_id' | 'qty'>[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const l of lines) m.set(l.course_id, (m.get(l.course_id) ?? 0) + l.qty);
  return m;
}

export interface Shortage {
  course_id: number;
  kind: 'seats' | 'stock';
  wanted: number;
  left: number;
}

/**
 * Takes seats / stock for the lines from courses already locked by lockCourses. Returns the
 * shortages instead of taking anything when one line cannot be served.
 */
export async function takeSeatsAndStock(q: Queryable, locked: Map<number, LockedCourse>, lines: readonly Pick<OrderCourseRow, 'course_id' | 'qty'>[]): Promise<Shortage[]> {
  const want = qtyByCourse(lines);
  const shortages: Shortage[] = [];
  for (const [courseId, qty] of want) {
    const c = locked.get(courseId);
    if (!c) continue;
    if (c.seats !== null && c.seats < qty) shortages.push({ course_id: courseId, kind: 'seats', wanted: qty, left: c.seats });
    if (c.stock !== null && c.stock < qty) shortages.push({ course_id: courseId, kind: 'stock', wanted: qty, left: c.stock });
  }
  if (shortages.length > 0) return shortages;
  for (const [courseId, qty] of [...want].sort((a, b) => a[0] - b[0])) {
    const c = locked.get(courseId);
    if (!c || (c.seats === null && c.stock === null)) continue;
    await q.query(
      `UPDATE courses SET seats = CASE WHEN seats IS NULL THEN NULL ELSE seats - $2 END,
                          stock = CASE WHEN stock IS NULL THEN NULL ELSE stock - $2 END
        WHERE id = $1`,
      [courseId, qty],
    );
    if (c.seats !== null) c.seats -= qty;
    if (c.stock !== null) c.stock -= qty;
  }
  return [];
}

/** Coupons (already locked) whose usage limit is reached. */
export function fullCoupons(locked: Map<number, LockedCoupon>, couponIds: readonly number[]): LockedCoupon[] {
  return couponIds.map((id) => locked.get(id)).filter((c): c is LockedCoupon => !!c && c.usage_limit !== null && c.used_count >= c.usage_limit);
}

export async function takeCouponUses(q: Queryable, locked: Map<number, LockedCoupon>, couponIds: readonly number[], orderId: number, userId: number): Promise<void> {
  for (const id of [...new Set(couponIds)].sort((a, b) => a - b)) {
    await q.query('UPDATE coupons SET used_count = used_count + 1 WHERE id = $1', [id]);
    await q.query('INSERT INTO coupon_uses (coupon_id, order_id, user_id) VALUES ($1, $2, $3)', [id, orderId, userId]);
    const c = locked.get(id);
    if (c) c.used_count += 1;
  }
}

/** Gives an order's seats, stock and coupon uses back (once). The order row must be locked. */
export async function releaseResources(q: Queryable, order: OrderRow): Promise<void> {
  if (order.resources_released) return;
  const lines = await orderCourses(q, order.id);
  const want = qtyByCourse(lines);
  const locked = await lockCourses(q, [...want.keys()]);
  for (const [courseId, qty] of [...want].sort((a, b) => a[0] - b[0])) {
    const c = locked.get(courseId);
    if (!c || (c.seats === null && c.stock === null)) continue;
    await q.query(
      `UPDATE courses SET seats = CASE WHEN seats IS NULL THEN NULL ELSE seats + $2 END,
                          stock = CASE WHEN stock IS NULL THEN NULL ELSE stock + $2 END
        WHERE id = $1`,
      [courseId, qty],
    );
  }
  const uses = await q.query<{ id: number; coupon_id: number }>('SELECT id, coupon_id FROM coupon_uses WHERE order_id = $1 AND NOT released ORDER BY coupon_id', [order.id]);
  if (uses.rows.length > 0) {
    await lockCoupons(q, uses.rows.map((u) => u.coupon_id));
    for (const u of uses.rows) {
      await q.query('UPDATE coupons SET used_count = GREATEST(used_count - 1, 0) WHERE id = $1', [u.coupon_id]);
      await q.query('UPDATE coupon_uses SET released = true WHERE id = $1', [u.id]);
    }
  }
  await q.query('UPDATE orders SET resources_released = true WHERE id = $1', [order.id]);
  order.resources_released = true;
}

/**
 * Takes an order's resources again (a payment approved after the order was cancelled). Returns
 * false, taking nothing, when a seat, stock item or coupon use is no longer available.
 */
export async function retakeResources(q: Queryable, order: OrderRow): Promise<boolean> {
  if (!order.resources_released) return true;
  const lines = await orderCourses(q, order.id);
  const locked = await lockCourses(q, lines.map((l) => l.course_id));
  const uses = await q.query<{ id: number; coupon_id: number }>('SELECT id, coupon_id FROM coupon_uses WHERE order_id = $1 AND released ORDER BY coupon_id', [order.id]);
  const coupons = await lockCoupons(q, uses.rows.map((u) => u.coupon_id));
  if (fullCoupons(coupons, uses.rows.map((u) => u.coupon_id)).length > 0) return false;
  const shortages = await takeSeatsAndStock(q, locked, lines);
  if (shortages.length > 0) return false;
  for (const u of uses.rows) {
    await q.query('UPDATE coupons SET used_count = used_count + 1 WHERE id = $1', [u.coupon_id]);
    await q.query('UPDATE coupon_uses SET released = false WHERE id = $1', [u.id]);
  }
  await q.query('UPDATE orders SET resources_released = false WHERE id = $1', [order.id]);
  order.resources_released = false;
  return true;
}

/** The buyer cancelled the order: it is kept, marked deleted. */
export async function markOrderDeleted(q: Queryable, orderId: number, now: Date): Promise<void> {
  await q.query('UPDATE orders SET is_deleted = true, updated_at = $2 WHERE id = $1', [orderId, now]);
}

/** A buyer's orders, newest first: those they cancelled stay listed (other deleted orders do not). */
export async function ordersOfUser(q: Queryable, userId: number, limit: number): Promise<OrderRow[]> {
  const r = await q.query<OrderRow>(
    `SELECT * FROM orders WHERE user_id = $1 AND (NOT is_deleted OR status = 'cancelled') ORDER BY created_at DESC, id DESC LIMIT $2`,
    [userId, limit],
  );
  return r.rows;
}

/** The user has an approved order with this course. */
export async function hasApprovedOrderFor(q: Queryable, userId: number, courseId: number): Promise<boolean> {
  const r = await q.query(
    `SELECT 1 FROM order_courses oc JOIN orders o ON o.id = oc.order_id WHERE o.user_id = $1 AND oc.course_id = $2 AND o.status = 'approved' LIMIT 1`,
    [userId, courseId],
  );
  return r.rows.length > 0;
}

/** SQL: an order that counts as unpaid for the caps of server/orders/holds.ts. */
export const UNPAID = `status IN ('notYetReceived', 'pendingApproved') AND NOT is_deleted`;

/**
 * The account's unpaid orders as a scalar subquery for the per-account cap ($n is the student's
 * id), or NULL when that cap is off. The order creation reads it in its first statement after the
 * student's row lock (that lock serialises the account's orders, and a statement's snapshot is
 * taken when it starts, so the count must not share the statement that takes the lock).
 */
export function unpaidOfAccountSql(limits: AbuseLimits, userParam: string): string {
  return limits.unpaidOrdersPerAccount > 0 ? `(SELECT count(*)::int FROM orders WHERE user_id = ${userParam} AND ${UNPAID})` : 'NULL::int';
}

/** What the order creation reads once the student's row is locked (readOrderFacts). */
export interface OrderFacts {
  settings: StoredSettings;
  methodActive: boolean;
  /** The account's unpaid orders, or null when the per-account cap is off (server/orders/holds.ts). */
  accountUnpaid: number | null;
  /** The student's order status of every course (orderedCourses). */
  ordered: OrderedCourseRow[];
  /** Every plan of the ordered courses (plansOfCourses). */
  planRows: PlanRow[];
  /** Every promotion, active or not (activePromotions before its filter). */
  promotions: PromotionRow[];
  /** The ordered courses that are on sale (status 1), by id; a course missing here is not. */
  courses: Map<number, CourseRow>;
}

/**
 * Site settings, whether the payment method is active, the account's unpaid orders, the student's
 * order statuses, the ordered courses, their plans and the promotions: one statement, one round
 * trip (they were seven). It must run after the student's row lock: the unpaid count and the order
 * statuses are what the previous order of this account committed, and a statement sees what was
 * committed when it started.
 */
export async function readOrderFacts(q: Queryable, limits: AbuseLimits, userId: number, methodId: number, courseIds: readonly number[]): Promise<OrderFacts> {
  const r = await q.query<{
    settings: StoredSettings | null;
    method_active: boolean;
    account_unpaid: number | null;
    ordered: OrderedCourseRow[];
    plans: PlanRow[];
    promotions: Parameters<typeof promotionsFromJson>[0];
    courses: CourseJson[];
  }>(
    `SELECT (SELECT data FROM site_settings WHERE id = 1) AS settings,
            EXISTS (SELECT 1 FROM payment_methods WHERE id = $1 AND is_active) AS method_active,
            ${unpaidOfAccountSql(limits, '$2')} AS account_unpaid,
            ${orderedCoursesJson('$2')} AS ordered,
            ${plansOfCoursesJson('$3')} AS plans,
            ${PROMOTIONS_JSON} AS promotions,
            (SELECT coalesce(json_agg(c), '[]') FROM courses c WHERE c.id = ANY($3::int[]) AND c.status = 1) AS courses`,
    [methodId, userId, [...new Set(courseIds)]],
  );
  const row = r.rows[0]!;
  if (!row.settings) throw new Error('site settings missing: run `npm run db:reset`');
  return {
    settings: row.settings,
    methodActive: row.method_active,
    accountUnpaid: row.account_unpaid,
    ordered: row.ordered,
    planRows: row.plans,
    promotions: promotionsFromJson(row.promotions),
    courses: new Map(row.courses.map((c) => [c.id, courseFromJson(c)])),
  };
}

/** A course row as json_agg writes it: its timestamps as ISO text. */
type CourseJson = Omit<CourseRow, 'start_reg_date' | 'end_reg_date'> & { start_reg_date: string | null; end_reg_date: string | null };
function courseFromJson(c: CourseJson): CourseRow {
  return { ...c, start_reg_date: c.start_reg_date === null ? null : new Date(c.start_reg_date), end_reg_date: c.end_reg_date === null ? null : new Date(c.end_reg_date) };
}
