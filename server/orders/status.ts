/** The student's per-course order status (spec 4 "Course order status") from their orders. */
import type { Queryable } from '../db/index';

export interface OrderedCourseRow {
  course_id: number;
  order_id: number;
  status: 'notYetReceived' | 'pendingApproved' | 'approved' | 'rejected';
  pricing_plan_id: number;
}

/**
 * SQL: one row per course, the latest order of it that still counts (cancelled and deleted orders
 * do not), preferring an approved order over a later rejected one only when it is the latest.
 */
const ORDERED_COURSES = (userId: string, filter = '') => `SELECT DISTINCT ON (oc.course_id) oc.course_id, o.id AS order_id, o.status, oc.pricing_plan_id
       FROM order_courses oc JOIN orders o ON o.id = oc.order_id
      WHERE o.user_id = ${userId} AND o.status <> 'cancelled' AND NOT o.is_deleted${filter}
      ORDER BY oc.course_id, o.created_at DESC, o.id DESC`;

/** The student's order status of every course they ordered (or of `courseIds` only): ORDERED_COURSES. */
export async function orderedCourses(q: Queryable, userId: number, courseIds?: readonly number[]): Promise<OrderedCourseRow[]> {
  const params: unknown[] = [userId];
  let filter = '';
  if (courseIds) {
    params.push([...new Set(courseIds)]);
    filter = ' AND oc.course_id = ANY($2::int[])';
  }
  const r = await q.query<OrderedCourseRow>(ORDERED_COURSES('$1', filter), params);
  return r.rows;
}

/**
 * orderedCourses (every course) as one JSON array column (`userId`: a parameter such as '$2'), for
 * a statement that gathers several reads; its columns are integers and text, which JSON keeps.
 */
export const orderedCoursesJson = (userId: string) => `(SELECT coalesce(json_agg(x ORDER BY x.course_id), '[]') FROM (${ORDERED_COURSES(userId)}) x)`;
