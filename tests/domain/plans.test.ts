import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  accessEndsAt,
  accessSpan,
  addMonthsUTC,
  addTerm,
  defaultPlan,
  freeCourseIds,
  freeOrderApproval,
  isAccessExpired,
  isFreeForStudentPlan,
  isPlanSelectable,
  isRenewalPlan,
  ownsAll,
  parseTermUnit,
  planAvailability,
  planPrice,
  plansForViewer,
  remainingMs,
  splitDuration,
  offeredIn,
  shownCurrency,
  startingPrice,
  DAY_MS,
  HOUR_MS,
} from '../../domain/plans';
import type { PlanViewer } from '../../domain/plans';
import type { CountdownRecord, PricingPlan } from '../../domain/types';
import { plan } from './fixtures';
import { cardPrice } from '../../domain/money';
import { MSG, renderShown } from '../../domain/messages';

const RUNS = { numRuns: 1000 };
const out: PlanViewer = { loggedIn: false };
const student: PlanViewer = { loggedIn: true, ownedCourseIds: [3, 7] };

describe('spec 5 "Plan shown only when status_show is 1 and pricing_type is default"; member-only and free-for-student plans', () => {
  it.each<{ rule: string; p: PricingPlan; viewer: PlanViewer; expected: ReturnType<typeof planAvailability> }>([
    { rule: 'status_show 1 + default: shown and selectable', p: plan({ id: 1, course_id: 1 }), viewer: out, expected: { visible: true, selectable: true, reason: 'ok' } },
    { rule: 'status_show 0: hidden', p: plan({ id: 1, course_id: 1, status_show: 0 }), viewer: student, expected: { visible: false, selectable: false, reason: 'not_shown' } },
    { rule: 'pricing_type renew: hidden from a non-owner', p: plan({ id: 1, course_id: 1, pricing_type: 'renew' }), viewer: student, expected: { visible: false, selectable: false, reason: 'not_default_pricing' } },
    { rule: 'missing pricing_type reads as default', p: plan({ id: 1, course_id: 1, pricing_type: null }), viewer: out, expected: { visible: true, selectable: true, reason: 'ok' } },
    { rule: 'owner of the course sees its renewal plans (decisions.md #7)', p: plan({ id: 1, course_id: 7, pricing_type: 'renew' }), viewer: student, expected: { visible: true, selectable: true, reason: 'ok' } },
    { rule: 'owner of the course no longer sees default plans', p: plan({ id: 1, course_id: 7 }), viewer: student, expected: { visible: false, selectable: false, reason: 'not_default_pricing' } },
    { rule: '"Member-only plans disabled when not logged in"', p: plan({ id: 1, course_id: 1, is_for_member: true }), viewer: out, expected: { visible: true, selectable: false, reason: 'member_only' } },
    { rule: 'member-only plan selectable when logged in', p: plan({ id: 1, course_id: 1, is_for_member: 1 }), viewer: student, expected: { visible: true, selectable: true, reason: 'ok' } },
    { rule: '"Free-for-student plans ... hidden from non-logged-in users"', p: plan({ id: 1, course_id: 1, free_for: 'student', free_course_ids: '3' }), viewer: out, expected: { visible: false, selectable: false, reason: 'free_for_student' } },
    { rule: '"visible only to a logged-in user who owns all listed free course ids"', p: plan({ id: 1, course_id: 1, free_for: 'student', free_course_ids: '3,7' }), viewer: student, expected: { visible: true, selectable: true, reason: 'ok' } },
    { rule: 'free-for-student hidden when one free course is missing', p: plan({ id: 1, course_id: 1, free_for: 'student', free_course_ids: '3,8' }), viewer: student, expected: { visible: false, selectable: false, reason: 'free_for_student' } },
    { rule: 'free_for set without ids: logged-in only', p: plan({ id: 1, course_id: 1, free_for: '1' }), viewer: out, expected: { visible: false, selectable: false, reason: 'free_for_student' } },
    { rule: 'free_for set without ids: logged-in student sees it', p: plan({ id: 1, course_id: 1, free_for: '1' }), viewer: { loggedIn: true }, expected: { visible: true, selectable: true, reason: 'ok' } },
  ])('$rule', ({ p, viewer, expected }) => {
    expect(planAvailability(p, viewer)).toEqual(expected);
    expect(isPlanSelectable(p, viewer)).toBe(expected.selectable);
  });

  it.each([
    [{ free_for: null, free_course_ids: '' }, false],
    [{ free_for: '0', free_course_ids: null }, false],
    [{ free_for: '', free_course_ids: undefined }, false],
    [{ free_for: 0, free_course_ids: [] }, false],
    [{ free_for: false, free_course_ids: '' }, false],
    [{ free_for: 'student', free_course_ids: '' }, true],
    [{ free_for: 1, free_course_ids: '' }, true],
    [{ free_for: true, free_course_ids: '' }, true],
    [{ free_for: null, free_course_ids: '4' }, true],
  ] as const)('isFreeForStudentPlan(%j) = %j', (p, expected) => {
    expect(isFreeForStudentPlan(p)).toBe(expected);
  });

  it('ownsAll, freeCourseIds, isRenewalPlan', () => {
    expect(ownsAll([], undefined)).toBe(true);
    expect(ownsAll([1], undefined)).toBe(false);
    expect(ownsAll([1, 2], [2, 1, 5])).toBe(true);
    expect(freeCourseIds({ free_course_ids: '3, 7' })).toEqual([3, 7]);
    expect(isRenewalPlan({ pricing_type: 'renew' })).toBe(true);
    expect(isRenewalPlan({ pricing_type: undefined })).toBe(false);
  });
});

describe('spec 8 "Missing plan list shows \'ไม่มีรูปแบบราคาสำหรับคุณ\'"; default plan choice', () => {
  const plans = [
    plan({ id: 1, course_id: 1, price: 150000, is_for_member: true }),
    plan({ id: 2, course_id: 1, price: 99000 }),
    plan({ id: 3, course_id: 1, price: 0, is_default: true }),
    plan({ id: 4, course_id: 1, status_show: 0, is_default: true }),
  ];

  it('lists visible plans in order, member-only disabled for a visitor', () => {
    const r = plansForViewer(plans, out);
    expect(r.message).toBeNull();
    expect(r.plans.map((p) => [p.plan.id, p.selectable])).toEqual([
      [1, false],
      [2, true],
      [3, true],
    ]);
  });

  it('no plan left -> the Thai message', () => {
    expect(plansForViewer([plan({ id: 9, course_id: 1, status_show: 0 })], out)).toEqual({ plans: [], message: MSG.NO_PLAN_FOR_YOU });
    expect(renderShown(plansForViewer([], student).message)).toBe('ไม่มีรูปแบบราคาสำหรับคุณ');
  });

  it.each<{ rule: string; ps: PricingPlan[]; viewer: PlanViewer; id: number | null }>([
    { rule: 'the visible, selectable plan marked is_default', ps: plans, viewer: out, id: 3 },
    { rule: 'else the first visible, selectable plan', ps: plans.slice(0, 2), viewer: out, id: 2 },
    { rule: 'member-only first plan is chosen for a logged-in student', ps: plans.slice(0, 2), viewer: { loggedIn: true }, id: 1 },
    { rule: 'none -> null', ps: [plans[0] as PricingPlan], viewer: out, id: null },
  ])('default plan: $rule', ({ ps, viewer, id }) => {
    expect(defaultPlan(ps, viewer)?.id ?? null).toBe(id);
  });

  it('layout-4 sticky bar: starting price of the default plan (0 = Free), null hides it', () => {
    expect(startingPrice(plans, out, 'THB')).toBe(0);
    expect(startingPrice(plans.slice(0, 2), out, 'THB')).toBe(99000);
    expect(startingPrice([plan({ id: 5, course_id: 1, price_usd: null })], out, 'USD')).toBeNull();
    expect(startingPrice([], out, 'THB')).toBeNull();
  });

  it('a plan without a price in the viewer\'s currency is not offered (never shown as 0)', () => {
    const usd = plan({ id: 8, course_id: 1, price: 100000, price_usd: 3000, is_default: 1 });
    const thbOnly = plan({ id: 9, course_id: 1, price: 50000, price_usd: null });
    expect(planAvailability(thbOnly, { ...out, currency: 'USD' })).toEqual({ visible: false, selectable: false, reason: 'no_price_in_currency' });
    expect(planAvailability(thbOnly, { ...out, currency: 'THB' }).visible).toBe(true);
    expect(plansForViewer([usd, thbOnly], { ...out, currency: 'USD' }).plans.map((p) => p.plan.id)).toEqual([8]);
    expect(defaultPlan([thbOnly, usd], { ...out, currency: 'USD' })?.id).toBe(8);
    // The starting price in USD is the default plan among those priced in USD.
    expect(startingPrice([plan({ ...thbOnly, is_default: 1 }), { ...usd, is_default: 0 }], out, 'USD')).toBe(3000);
    expect(offeredIn([thbOnly], out, 'USD')).toBe(false);
    expect(offeredIn([thbOnly, usd], out, 'USD')).toBe(true);
    expect(offeredIn([thbOnly], out, 'THB')).toBe(true);
    expect(shownCurrency('USD', false)).toBe('THB');
    expect(shownCurrency('USD', true)).toBe('USD');
    expect(shownCurrency('THB', true)).toBe('THB');
  });

  it("cardPrice: a card shows the default plan's price in the currency its page opens in", () => {
    expect(cardPrice({ default_price: 99000, default_price_usd: 2900 }, 'USD')).toEqual({ amount: 2900, currency: 'USD' });
    expect(cardPrice({ default_price: 99000, default_price_usd: 2900 }, 'THB')).toEqual({ amount: 99000, currency: 'THB' });
    // No USD price: THB, as the course page would show it.
    expect(cardPrice({ default_price: 99000, default_price_usd: null }, 'USD')).toEqual({ amount: 99000, currency: 'THB' });
    expect(cardPrice({ default_price: 99000 }, 'USD')).toEqual({ amount: 99000, currency: 'THB' });
    expect(cardPrice({ default_price: null, default_price_usd: null }, 'THB')).toEqual({ amount: null, currency: 'THB' });
  });

  it('planPrice: THB price, USD price_usd (null/undefined = none)', () => {
    expect(planPrice({ price: 100, price_usd: 3 }, 'THB')).toBe(100);
    expect(planPrice({ price: 100, price_usd: 3 }, 'USD')).toBe(3);
    expect(planPrice({ price: 100, price_usd: null }, 'USD')).toBeNull();
    expect(planPrice({ price: 100 }, 'USD')).toBeNull();
  });

  it('spec 6: free plans needing approval -> NeedApprovedFree / "Need approved by admin", others AutoFree / "Auto approved"', () => {
    expect(freeOrderApproval([{ need_approval: false }, { need_approval: true }])).toEqual({ payment: 'NeedApprovedFree', description: 'Need approved by admin' });
    expect(freeOrderApproval([{ need_approval: 0 }])).toEqual({ payment: 'AutoFree', description: 'Auto approved' });
  });
});

const T0 = Date.UTC(2024, 0, 31, 10, 30); // 31 Jan 2024 10:30 UTC (leap year)

describe('spec 4 access time, one rule everywhere (decisions.md #1: calendar months/years in UTC, days/hours fixed)', () => {
  it.each<{ rule: string; p: PricingPlan; end: number | null }>([
    { rule: 'Period 1 Month(s): 31 Jan + 1 month = 29 Feb (clamped)', p: plan({ id: 1, course_id: 1, plan_type: 'Period', term: 1, term_unit: 'Month(s)' }), end: Date.UTC(2024, 1, 29, 10, 30) },
    { rule: 'Period 1 Year(s): calendar year (366 days in 2024)', p: plan({ id: 1, course_id: 1, plan_type: 'Period', term: 1, term_unit: 'Year(s)' }), end: Date.UTC(2025, 0, 31, 10, 30) },
    { rule: 'Period 30 Day(s): fixed days', p: plan({ id: 1, course_id: 1, plan_type: 'Period', term: 30, term_unit: 'Day(s)' }), end: T0 + 30 * DAY_MS },
    { rule: 'Period -1: unlimited', p: plan({ id: 1, course_id: 1, plan_type: 'Period', term: -1, term_unit: 'Day(s)' }), end: null },
    { rule: 'Period without a term: unlimited', p: plan({ id: 1, course_id: 1, plan_type: 'Period', term: null }), end: null },
    { rule: 'Actual 5 Hour(s)', p: plan({ id: 1, course_id: 1, plan_type: 'Actual', term: 5, term_unit: 'Hour(s)' }), end: T0 + 5 * HOUR_MS },
    { rule: 'Actual 1 Month(s) + second term 2 Day(s)', p: plan({ id: 1, course_id: 1, plan_type: 'Actual', term: 1, term_unit: 'Month(s)', term_2: 2, term_unit_2: 'Day(s)' }), end: Date.UTC(2024, 2, 2, 10, 30) },
    { rule: 'Actual second term 0 is ignored', p: plan({ id: 1, course_id: 1, plan_type: 'Actual', term: 2, term_unit: 'Year(s)', term_2: 0, term_unit_2: 'Day(s)' }), end: Date.UTC(2026, 0, 31, 10, 30) },
    { rule: 'One-Time Payment: unlimited', p: plan({ id: 1, course_id: 1, plan_type: 'One-Time Payment', term: 3, term_unit: 'Day(s)' }), end: null },
    { rule: 'Free: unlimited', p: plan({ id: 1, course_id: 1, plan_type: 'Free' }), end: null },
  ])('plan: $rule', ({ p, end }) => {
    expect(accessEndsAt(p, T0)).toBe(end);
  });

  const rec = (over: Partial<CountdownRecord>): CountdownRecord => ({ planType: 'Period', startDateTime: '2024-01-31T10:30:00Z', ...over });
  it.each<{ rule: string; r: CountdownRecord; end: number | null }>([
    { rule: 'Period courseDays -1 = unlimited', r: rec({ courseDays: -1, term: 1, termUnit: 'Day(s)' }), end: null },
    { rule: 'Period courseDays 10 = 10 days', r: rec({ courseDays: 10, term: 1, termUnit: 'Year(s)' }), end: T0 + 10 * DAY_MS },
    { rule: 'Period courseDays 0 falls back to term + unit', r: rec({ courseDays: 0, term: 1, termUnit: 'Month(s)' }), end: Date.UTC(2024, 1, 29, 10, 30) },
    { rule: 'Actual with isTermUnit2', r: rec({ planType: 'Actual', term: 1, termUnit: 'Day(s)', term2: 3, termUnit2: 'Hour(s)', isTermUnit2: true }), end: T0 + DAY_MS + 3 * HOUR_MS },
    { rule: 'Actual with isTermUnit2 false ignores term2', r: rec({ planType: 'Actual', term: 1, termUnit: 'Day(s)', term2: 3, termUnit2: 'Hour(s)', isTermUnit2: false }), end: T0 + DAY_MS },
    { rule: 'Actual without isTermUnit2 uses term2 when positive', r: rec({ planType: 'Actual', term: 1, termUnit: 'Day(s)', term2: 1, termUnit2: 'Month(s)' }), end: Date.UTC(2024, 2, 1, 10, 30) },
    { rule: 'Free: unlimited', r: rec({ planType: 'Free' }), end: null },
    { rule: 'zone-less start is UTC', r: rec({ startDateTime: '2024-01-31 10:30:00', courseDays: 1 }), end: T0 + DAY_MS },
  ])('countdown record: $rule', ({ r, end }) => {
    expect(accessEndsAt(r)).toBe(end);
  });

  it('remaining time floored at 0; null for unlimited', () => {
    const r = rec({ courseDays: 1 });
    expect(remainingMs(r, T0 + HOUR_MS)).toBe(DAY_MS - HOUR_MS);
    expect(remainingMs(r, T0 + 2 * DAY_MS)).toBe(0);
    expect(isAccessExpired(r, T0 + 2 * DAY_MS)).toBe(true);
    expect(isAccessExpired(r, T0)).toBe(false);
    expect(remainingMs(rec({ courseDays: -1 }), T0 + 999 * DAY_MS)).toBeNull();
    expect(isAccessExpired(rec({ courseDays: -1 }), T0 + 999 * DAY_MS)).toBe(false);
    const p = plan({ id: 1, course_id: 1, plan_type: 'Period', term: 2, term_unit: 'Day(s)' });
    expect(remainingMs(p, new Date(T0 + DAY_MS), T0)).toBe(DAY_MS);
  });

  it('the cart and the countdown agree: a plan bought at t and its countdown record end at the same instant', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.integer({ min: 1, max: 36 }),
        fc.constantFrom('Day(s)', 'Month(s)', 'Year(s)', 'Hour(s)'),
        (start, term, unit) => {
          const p = plan({ id: 1, course_id: 1, plan_type: 'Actual', term, term_unit: unit });
          const r: CountdownRecord = { planType: 'Actual', startDateTime: new Date(start).toISOString(), term, termUnit: unit };
          expect(accessEndsAt(r)).toBe(accessEndsAt(p, start));
          expect(accessEndsAt(p, start)).toBeGreaterThan(start);
        },
      ),
      RUNS,
    );
  });

  it.each([
    [Date.UTC(2024, 0, 31), 1, Date.UTC(2024, 1, 29)],
    [Date.UTC(2023, 0, 31), 1, Date.UTC(2023, 1, 28)],
    [Date.UTC(2024, 1, 29), 12, Date.UTC(2025, 1, 28)],
    [Date.UTC(2024, 10, 30), 3, Date.UTC(2025, 1, 28)],
    [Date.UTC(2024, 2, 31), -1, Date.UTC(2024, 1, 29)],
    [Date.UTC(2024, 0, 15, 23, 59, 59, 999), 1, Date.UTC(2024, 1, 15, 23, 59, 59, 999)],
  ])('addMonthsUTC(%i, %i) = %i (day clamped, time kept)', (from, n, to) => {
    expect(addMonthsUTC(from, n)).toBe(to);
  });

  it('addTerm for each unit; parseTermUnit accepts spellings and rejects unknown units', () => {
    expect(addTerm(0, { term: 2, unit: 'hour' })).toBe(2 * HOUR_MS);
    expect(addTerm(0, { term: 1, unit: 'year' })).toBe(Date.UTC(1971, 0, 1));
    expect(parseTermUnit('Days')).toBe('day');
    expect(parseTermUnit(' month ')).toBe('month');
    expect(parseTermUnit('Year(s)')).toBe('year');
    expect(() => parseTermUnit('Week(s)')).toThrow(RangeError);
    expect(() => parseTermUnit(null)).toThrow(RangeError);
    expect(() => accessEndsAt(plan({ id: 1, course_id: 1, plan_type: 'Period', term: 1.5, term_unit: 'Day(s)' }), 0)).toThrow(RangeError);
    expect(() => accessEndsAt(plan({ id: 1, course_id: 1 }), undefined as never)).toThrow(RangeError);
    expect(accessSpan(plan({ id: 1, course_id: 1, plan_type: 'Period', term: 3, term_unit: 'Month(s)' }))).toEqual({ unlimited: false, terms: [{ term: 3, unit: 'month' }] });
  });

  it('property: adding months never lands past the target month and keeps the time of day', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) }), fc.integer({ min: 0, max: 240 }), (t, n) => {
        const d = new Date(t);
        const e = new Date(addMonthsUTC(t, n));
        expect(e.getUTCFullYear() * 12 + e.getUTCMonth()).toBe(d.getUTCFullYear() * 12 + d.getUTCMonth() + n);
        expect(e.getUTCDate()).toBeLessThanOrEqual(d.getUTCDate());
        expect(t % DAY_MS).toBe(addMonthsUTC(t, n) % DAY_MS);
      }),
      RUNS,
    );
  });

  it('splitDuration for the countdown display', () => {
    expect(splitDuration(DAY_MS + 2 * HOUR_MS + 3 * 60_000 + 4_500)).toEqual({ days: 1, hours: 2, minutes: 3, seconds: 4 });
    expect(splitDuration(-5)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });
});
