/**
 * Access time of an owned course from its approved orders, with domain/plans' calendar rules
 * (decisions.md #1). A renewal starts when the access before it ends (or at its approval, if later).
 */
import type { Queryable } from '../db/index';
import { accessEndsAt } from '../../domain/plans';
import { planForDomain, type PlanRow } from '../repos/catalogue';

export interface AccessPeriod {
  orderId: number;
  plan: PlanRow;
  start: Date;
  /** Epoch ms; null = unlimited. */
  end: number | null;
}

/** The access periods of a student's course in order; the last is the current one. Empty when not owned. */
export async function accessPeriods(q: Queryable, userId: number, courseId: number): Promise<AccessPeriod[]> {
  const r = await q.query<PlanRow & { order_id: number; approved_at: Date | null; created_at_order: Date }>(
    `SELECT p.*, o.id AS order_id, o.approved_at, o.created_at AS created_at_order
       FROM order_courses oc JOIN orders o ON o.id = oc.order_id JOIN pricing_plans p ON p.id = oc.pricing_plan_id
      WHERE o.user_id = $1 AND oc.course_id = $2 AND o.status = 'approved'
      ORDER BY coalesce(o.approved_at, o.created_at), o.id`,
    [userId, courseId],
  );
  const out: AccessPeriod[] = [];
  let prevEnd: number | null | undefined;
  for (const row of r.rows) {
    const approved = row.approved_at ?? row.created_at_order;
    if (prevEnd === null) {
      out.push({ orderId: row.order_id, plan: row, start: approved, end: null });
      continue;
    }
    const startMs = prevEnd !== undefined && prevEnd > approved.getTime() ? prevEnd : approved.getTime();
    const start = new Date(startMs);
    const end = accessEndsAt(planForDomain(row), start);
    out.push({ orderId: row.order_id, plan: row, start, end });
    prevEnd = end;
  }
  return out;
}
