/**
 * Pricing plans: which plans a viewer sees and may select, the default choice, the plan's price
 * in a currency, and access time (one rule for cart, countdown and server: decisions.md #1).
 */
import type { Currency } from './money';
import { message, MSG, type Msg } from './messages';
import type { CountdownRecord, PricingPlan } from './types';
import { idList, isOn, toEpochMs } from './values';

export type Instant = string | number | Date;

// ---------------------------------------------------------------------------------------------
// Visibility and selection (spec 4 last bullet, spec 5 "Cart and order")
// ---------------------------------------------------------------------------------------------

/** Who is looking at the plans. */
export interface PlanViewer {
  /** A student is logged in. */
  loggedIn: boolean;
  /** Course ids the student owns (approved orders). */
  ownedCourseIds?: readonly number[];
  /**
   * The currency the plans are offered in: a plan without a price in it is not offered (never
   * shown as 0). Absent: every plan, whatever its prices (the server's listings).
   */
  currency?: Currency;
}

export type PlanHiddenReason =
  | 'not_shown' // status_show is not 1
  | 'not_default_pricing' // pricing_type is not the one listed for this viewer
  | 'free_for_student' // free-for-student plan and the viewer is logged out or lacks a free course
  | 'no_price_in_currency'; // the plan has no price in the viewer's currency (USD: price_usd null)

export type PlanAvailability =
  | { visible: false; selectable: false; reason: PlanHiddenReason }
  | { visible: true; selectable: false; reason: 'member_only' }
  | { visible: true; selectable: true; reason: 'ok' };

/** The free courses a free-for-student plan requires the viewer to own (free_course_ids). */
export function freeCourseIds(plan: Pick<PricingPlan, 'free_course_ids'>): number[] {
  return idList(plan.free_course_ids);
}

/**
 * A free-for-student plan: one with free_course_ids, or with free_for set (1 / 'student' / true).
 */
export function isFreeForStudentPlan(plan: Pick<PricingPlan, 'free_for' | 'free_course_ids'>): boolean {
  if (freeCourseIds(plan).length > 0) return true;
  const f = plan.free_for;
  return f === true || (typeof f === 'number' && f > 0) || (typeof f === 'string' && f.trim() !== '' && f.trim() !== '0');
}

/** True when every id in `required` is in `owned` (vacuously true for an empty list). */
export function ownsAll(required: readonly number[], owned: readonly number[] | undefined): boolean {
  const have = new Set(owned ?? []);
  return required.every((id) => have.has(id));
}

/** The pricing_type listed for a viewer: 'renew' plans for an owner of the course, 'default' otherwise. */
export function listedPricingType(plan: Pick<PricingPlan, 'course_id'>, viewer: PlanViewer): 'default' | 'renew' {
  return viewer.loggedIn && (viewer.ownedCourseIds ?? []).includes(plan.course_id) ? 'renew' : 'default';
}

/** pricing_type, missing read as 'default'. */
export function pricingTypeOf(plan: Pick<PricingPlan, 'pricing_type'>): string {
  return plan.pricing_type ?? 'default';
}

/** A renewal plan (pricing_type 'renew'): the only way to buy a course the student already owns. */
export function isRenewalPlan(plan: Pick<PricingPlan, 'pricing_type'>): boolean {
  return pricingTypeOf(plan) === 'renew';
}

/**
 * Spec 5: "Plan shown only when status_show is 1 and pricing_type is default."
 * "Free-for-student plans are visible only to a logged-in user who owns all listed free course
 * ids; hidden from non-logged-in users. Member-only plans disabled when not logged in."
 * Spec 4: "Pricing plans are selectable unless member-only and the user is not logged in."
 * Decision (README): a viewer who owns the course sees its renewal plans instead (decisions.md #7).
 */
export function planAvailability(plan: PricingPlan, viewer: PlanViewer): PlanAvailability {
  if (!isOn(plan.status_show)) return { visible: false, selectable: false, reason: 'not_shown' };
  if (viewer.currency && planPrice(plan, viewer.currency) === null) return { visible: false, selectable: false, reason: 'no_price_in_currency' };
  if (pricingTypeOf(plan) !== listedPricingType(plan, viewer)) {
    return { visible: false, selectable: false, reason: 'not_default_pricing' };
  }
  if (isFreeForStudentPlan(plan) && (!viewer.loggedIn || !ownsAll(freeCourseIds(plan), viewer.ownedCourseIds))) {
    return { visible: false, selectable: false, reason: 'free_for_student' };
  }
  if (isOn(plan.is_for_member) && !viewer.loggedIn) return { visible: true, selectable: false, reason: 'member_only' };
  return { visible: true, selectable: true, reason: 'ok' };
}

export interface ListedPlan {
  plan: PricingPlan;
  selectable: boolean;
  reason: 'ok' | 'member_only';
}

export interface PlanList {
  /** Visible plans in input order; member-only ones disabled for logged-out viewers. */
  plans: ListedPlan[];
  /** 'ไม่มีรูปแบบราคาสำหรับคุณ' when no plan is left for the viewer, else null. */
  message: Msg | null;
}

/** The plans of one course as this viewer sees them, with the "no plan for you" message. */
export function plansForViewer(plans: readonly PricingPlan[], viewer: PlanViewer): PlanList {
  const listed: ListedPlan[] = [];
  for (const plan of plans) {
    const a = planAvailability(plan, viewer);
    if (a.visible) listed.push({ plan, selectable: a.selectable, reason: a.reason });
  }
  return { plans: listed, message: listed.length === 0 ? MSG.NO_PLAN_FOR_YOU : null };
}

/**
 * Default plan choice: the first visible, selectable plan marked is_default; otherwise the first
 * visible, selectable plan; null when there is none.
 */
export function defaultPlan(plans: readonly PricingPlan[], viewer: PlanViewer): PricingPlan | null {
  const selectable = plansForViewer(plans, viewer).plans.filter((p) => p.selectable);
  return (selectable.find((p) => isOn(p.plan.is_default)) ?? selectable[0])?.plan ?? null;
}

/** May this viewer select this plan (visible and not member-only while logged out)? */
export function isPlanSelectable(plan: PricingPlan, viewer: PlanViewer): boolean {
  return planAvailability(plan, viewer).selectable;
}

/**
 * Layout 4 sticky bar: the starting registration price = the default plan's price in the currency
 * (0 is shown as Free by the view); null hides it (no plan, or no price in that currency).
 */
export function startingPrice(plans: readonly PricingPlan[], viewer: PlanViewer, currency: Currency): number | null {
  const plan = defaultPlan(plans, { ...viewer, currency });
  return plan ? planPrice(plan, currency) : null;
}

/** A course is offered in a currency when the viewer may select one of its plans priced in it. */
export function offeredIn(plans: readonly PricingPlan[], viewer: PlanViewer, currency: Currency): boolean {
  return defaultPlan(plans, { ...viewer, currency }) !== null;
}

// shownCurrency lives with the money rules (the course page's first load needs it without the plan rules).
export { planPrice, shownCurrency } from './money';
import { planPrice } from './money';

/**
 * Spec 6: "free plans needing approval give report description 'Need approved by admin'
 * (payment label NeedApprovedFree); others 'Auto approved' (AutoFree)". A free order needs
 * approval when any of its plans has need_approval.
 */
export function freeOrderApproval(plans: readonly Pick<PricingPlan, 'need_approval'>[]): {
  payment: 'NeedApprovedFree' | 'AutoFree';
  description: string;
} {
  return plans.some((p) => isOn(p.need_approval))
    ? { payment: 'NeedApprovedFree', description: message('NEED_APPROVED_BY_ADMIN') }
    : { payment: 'AutoFree', description: message('AUTO_APPROVED') };
}

// ---------------------------------------------------------------------------------------------
// Access time (spec 4 "Plan types and access time"; decisions.md #1)
// ---------------------------------------------------------------------------------------------

export type AccessUnit = 'hour' | 'day' | 'month' | 'year';
export interface AccessTerm {
  term: number;
  unit: AccessUnit;
}
/** How long access lasts: unlimited, or the terms added to the start one after the other. */
export type AccessSpan = { unlimited: true } | { unlimited: false; terms: AccessTerm[] };

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** 'Day(s)', 'Days', 'day', 'Month(s)', 'Year(s)', 'Hour(s)' -> unit; throws RangeError otherwise. */
export function parseTermUnit(unit: string | null | undefined): AccessUnit {
  const u = (unit ?? '').trim().toLowerCase().replace(/\(s\)$/u, '').replace(/s$/u, '');
  if (u === 'hour' || u === 'day' || u === 'month' || u === 'year') return u;
  throw new RangeError(`unknown term unit: ${String(unit)}`);
}

function termOf(term: number | null | undefined, unit: string | null | undefined): AccessTerm | null {
  if (term === null || term === undefined || !Number.isFinite(term) || term <= 0) return null;
  if (!Number.isInteger(term)) throw new RangeError(`term must be a whole number, got ${term}`);
  return { term, unit: parseTermUnit(unit) };
}

function spanOf(terms: (AccessTerm | null)[]): AccessSpan {
  const t = terms.filter((x): x is AccessTerm => x !== null);
  return t.length === 0 ? { unlimited: true } : { unlimited: false, terms: t };
}

function isPlan(source: PricingPlan | CountdownRecord): source is PricingPlan {
  return 'plan_type' in source;
}

/**
 * The access span of a plan or a countdown record.
 * - One-Time Payment and Free: unlimited.
 * - Period: courseDays (record only): -1 unlimited, N > 0 = N days; otherwise term + unit.
 * - Actual: term + unit (Hour(s) allowed), then the second term when present
 *   (record: isTermUnit2 on, or term2 > 0 when isTermUnit2 is absent).
 * A plan or record with no positive term is unlimited (nothing limits it).
 */
export function accessSpan(source: PricingPlan | CountdownRecord): AccessSpan {
  if (isPlan(source)) {
    const type = source.plan_type;
    if (type === 'Period') return spanOf([termOf(source.term, source.term_unit)]);
    if (type === 'Actual') {
      return spanOf([termOf(source.term, source.term_unit), termOf(source.term_2, source.term_unit_2)]);
    }
    return { unlimited: true };
  }
  const type = source.planType;
  if (type === 'Period') {
    const days = source.courseDays;
    if (days === -1) return { unlimited: true };
    if (days !== null && days !== undefined && days > 0) return spanOf([termOf(days, 'day')]);
    return spanOf([termOf(source.term, source.termUnit)]);
  }
  if (type === 'Actual') {
    const second =
      source.isTermUnit2 === undefined || source.isTermUnit2 === null ? (source.term2 ?? 0) > 0 : isOn(source.isTermUnit2);
    return spanOf([termOf(source.term, source.termUnit), second ? termOf(source.term2, source.termUnit2) : null]);
  }
  return { unlimited: true };
}

function daysInMonthUTC(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/**
 * Calendar months in UTC with the day of month clamped: 31 Jan + 1 month = 28/29 Feb;
 * the time of day is kept.
 */
export function addMonthsUTC(epochMs: number, months: number): number {
  const d = new Date(epochMs);
  const total = d.getUTCMonth() + months;
  const year = d.getUTCFullYear() + Math.floor(total / 12);
  const month0 = ((total % 12) + 12) % 12;
  const day = Math.min(d.getUTCDate(), daysInMonthUTC(year, month0));
  return Date.UTC(year, month0, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

/** Add one term: months and years on the calendar (UTC, clamped), days and hours as fixed lengths. */
export function addTerm(epochMs: number, t: AccessTerm): number {
  switch (t.unit) {
    case 'hour':
      return epochMs + t.term * HOUR_MS;
    case 'day':
      return epochMs + t.term * DAY_MS;
    case 'month':
      return addMonthsUTC(epochMs, t.term);
    case 'year':
      return addMonthsUTC(epochMs, 12 * t.term);
  }
}

/**
 * When access ends (epoch ms, UTC), or null for unlimited access.
 * For a plan, `start` is when access starts (the purchase); for a countdown record it defaults to
 * the record's startDateTime. The cart, the countdown and the server all call this.
 */
export function accessEndsAt(plan: PricingPlan, start: Instant): number | null;
export function accessEndsAt(record: CountdownRecord, start?: Instant): number | null;
export function accessEndsAt(source: PricingPlan | CountdownRecord, start?: Instant): number | null {
  const from = start ?? (isPlan(source) ? undefined : source.startDateTime);
  if (from === undefined) throw new RangeError('accessEndsAt(plan, start) needs a start time');
  const span = accessSpan(source);
  if (span.unlimited) return null;
  return span.terms.reduce(addTerm, toEpochMs(from));
}

/**
 * Remaining access in ms at `now`, floored at 0 (spec 4: "remaining time floored at 0");
 * null for unlimited access.
 */
export function remainingMs(record: CountdownRecord, now: Instant): number | null;
export function remainingMs(plan: PricingPlan, now: Instant, start: Instant): number | null;
export function remainingMs(source: PricingPlan | CountdownRecord, now: Instant, start?: Instant): number | null {
  const end = isPlan(source) ? accessEndsAt(source, start as Instant) : accessEndsAt(source, start);
  return end === null ? null : Math.max(0, end - toEpochMs(now));
}

/** Has access run out at `now`? (never for unlimited access) */
export function isAccessExpired(record: CountdownRecord, now: Instant): boolean {
  return remainingMs(record, now) === 0;
}

/** Remaining ms split for a countdown display. */
export function splitDuration(ms: number): { days: number; hours: number; minutes: number; seconds: number } {
  const s = Math.floor(Math.max(0, ms) / 1000);
  return { days: Math.floor(s / 86400), hours: Math.floor((s % 86400) / 3600), minutes: Math.floor((s % 3600) / 60), seconds: s % 60 };
}
