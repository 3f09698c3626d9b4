import { describe, expect, it } from 'vitest';
import {
  canBuy,
  courseOrderStatus,
  freePrerequisiteMet,
  hasCourseAccess,
  isPhysicalProduct,
  registrationWindow,
} from '../../domain/buyability';
import type { BuyabilityInput, BuyableCourse, Buyer } from '../../domain/buyability';
import { plan } from './fixtures';
import { MSG } from '../../domain/messages';

const NOW = Date.UTC(2025, 5, 15, 12);
const student: Buyer = { studentLoggedIn: true, userGroupId: 2, ownedCourseIds: [50, 51] };
const online: BuyableCourse = { id: 1, course_type: 'Online' };
const inClass: BuyableCourse = {
  id: 2,
  course_type: 'In-class',
  seats_available: 5,
  start_reg_date: '2025-06-01T00:00:00Z',
  end_reg_date: '2025-06-30T00:00:00Z',
};
const renew = plan({ id: 9, course_id: 1, pricing_type: 'renew' });
const freeFor = plan({ id: 8, course_id: 2, free_for: 'student', free_course_ids: '50,51' });
const freeForMissing = plan({ id: 7, course_id: 2, free_for: 'student', free_course_ids: '50,99' });

const input = (over: Partial<BuyabilityInput>): BuyabilityInput => ({ course: online, buyer: student, now: NOW, ...over });

describe('spec 4 "Course order status" and buyability (reason codes)', () => {
  it.each<{ rule: string; over: Partial<BuyabilityInput>; reason: string }>([
    { rule: 'Nostatus Online course: buyable', over: {}, reason: 'ok' },
    { rule: 'not while loading ("buyable when course access is true and not loading")', over: { loading: true }, reason: 'loading' },
    { rule: '"An instructor logged in without a student login cannot buy"', over: { buyer: { studentLoggedIn: false, instructorLoggedIn: true } }, reason: 'instructor_not_student' },
    { rule: 'an instructor who is also logged in as a student may buy', over: { buyer: { ...student, instructorLoggedIn: true } }, reason: 'ok' },
    { rule: 'a logged-out visitor may buy (guest checkout)', over: { buyer: { studentLoggedIn: false } }, reason: 'ok' },
    { rule: '"Buying is not allowed when notYetReceived"', over: { orderStatus: 'notYetReceived' }, reason: 'order_not_yet_received' },
    { rule: '"... rejected"', over: { orderStatus: 'rejected' }, reason: 'order_rejected' },
    { rule: '"... or pendingApproved"', over: { orderStatus: 'pendingApproved' }, reason: 'order_pending_approval' },
    { rule: 'approved: an owned course only through a renewal plan (have_course)', over: { orderStatus: 'approved', plan: plan({ id: 1, course_id: 1 }) }, reason: 'have_course' },
    { rule: 'approved and no plan chosen: have_course', over: { orderStatus: 'approved' }, reason: 'have_course' },
    { rule: 'approved with a renewal plan: buyable (decisions.md #7)', over: { orderStatus: 'approved', plan: renew }, reason: 'ok' },
    { rule: 'Nostatus explicitly', over: { orderStatus: 'Nostatus' }, reason: 'ok' },
  ])('$rule -> $reason', ({ over, reason }) => {
    expect(canBuy(input(over)).reason).toBe(reason);
  });

  it.each<{ rule: string; course: BuyableCourse; over?: Partial<BuyabilityInput>; reason: string }>([
    { rule: 'Online/Flex: "no free-course prerequisite unless buy_course_free is set"', course: { id: 1, course_type: 'Flex' }, reason: 'ok' },
    { rule: 'Online with buy_course_free and no free-for-student plan chosen', course: { id: 1, course_type: 'Online', buy_course_free: true }, reason: 'needs_free_course' },
    { rule: 'Online with buy_course_free, free-for-student plan, owns the free courses', course: { id: 1, course_type: 'Online', buy_course_free: true }, over: { plan: freeFor }, reason: 'ok' },
    { rule: 'Online with buy_course_free, missing one free course', course: { id: 1, course_type: 'Online', buy_course_free: 1 }, over: { plan: freeForMissing }, reason: 'needs_free_course' },
    { rule: 'Private-Classroom is buyable', course: { id: 3, course_type: 'Private-Classroom', seats_available: 0 }, reason: 'ok' },
    { rule: 'Live-Broadcast is buyable', course: { id: 3, course_type: 'Live-Broadcast', end_reg_date: '2000-01-01' }, reason: 'ok' },
    { rule: 'Live-Room is buyable', course: { id: 3, course_type: 'Live-Room' }, reason: 'ok' },
    { rule: 'Live-Room-Student-Camera is buyable', course: { id: 3, course_type: 'Live-Room-Student-Camera' }, reason: 'ok' },
    { rule: 'In-class: seats above 0 and within startRegDate..endRegDate', course: inClass, reason: 'ok' },
    { rule: 'In-class: no seats left', course: { ...inClass, seats_available: 0 }, reason: 'no_seats' },
    { rule: 'In-class: not seat-limited (null)', course: { ...inClass, seats_available: null }, reason: 'ok' },
    { rule: 'In-class: before registration opens', course: { ...inClass, start_reg_date: '2025-06-16T00:00:00Z' }, reason: 'registration_not_open' },
    { rule: 'In-class: after registration closes', course: { ...inClass, end_reg_date: '2025-06-15T11:59:59Z' }, reason: 'registration_closed' },
    { rule: 'In-class: "unless a free-for-student prerequisite applies" (dates ignored)', course: { ...inClass, end_reg_date: '2025-01-01T00:00:00Z' }, over: { plan: freeFor }, reason: 'ok' },
    { rule: 'In-class: the free-for-student prerequisite does not create seats', course: { ...inClass, seats_available: 0 }, over: { plan: freeFor }, reason: 'no_seats' },
    { rule: 'In-class: no dates = always open', course: { id: 2, course_type: 'In-class', seats_available: 1, start_reg_date: null, end_reg_date: null }, reason: 'ok' },
    { rule: 'In-class: approved without renewal plan still blocked', course: inClass, over: { orderStatus: 'approved' }, reason: 'have_course' },
    { rule: 'Product with stock: buyable again even after an approved order (decisions.md #7)', course: { id: 4, course_type: 'Product', available_qty: 3 }, over: { orderStatus: 'approved' }, reason: 'ok' },
    { rule: 'Product with a pending order: still buyable while stock lasts', course: { id: 4, course_type: 'Product', available_qty: 1 }, over: { orderStatus: 'notYetReceived' }, reason: 'ok' },
    { rule: 'Product out of stock', course: { id: 4, course_type: 'Product', available_qty: 0 }, reason: 'out_of_stock' },
    { rule: 'Product stock not tracked', course: { id: 4, course_type: 'product' }, reason: 'ok' },
  ])('$rule -> $reason', ({ course, over, reason }) => {
    expect(canBuy(input({ course, ...over })).reason).toBe(reason);
  });

  it('a blocked result carries the Thai message', () => {
    expect(canBuy(input({ orderStatus: 'approved' }))).toEqual({ buyable: false, reason: 'have_course', message: MSG.HAVE_COURSE });
    expect(canBuy(input({}))).toEqual({ buyable: true, reason: 'ok' });
  });
});

describe('spec 4 "Course access denied when course access rights are enabled with user groups and the user\'s group is missing or not in the course\'s list"', () => {
  const restricted: BuyableCourse = { id: 1, course_type: 'Online', is_course_access_right: true, access_group_ids: [2, 3] };
  it.each<[string, BuyableCourse, number | null | undefined, boolean]>([
    ['access rights off', { ...restricted, is_course_access_right: false }, null, true],
    ['group listed', restricted, 2, true],
    ['group not listed', restricted, 4, false],
    ['group missing', restricted, null, false],
    ['group undefined', restricted, undefined, false],
    ['comma list of groups', { ...restricted, access_group_ids: '3,4' }, 4, true],
  ])('%s -> %j', (_rule, course, group, ok) => {
    expect(hasCourseAccess(course, group)).toBe(ok);
    expect(canBuy(input({ course, buyer: { ...student, userGroupId: group } })).reason).toBe(ok ? 'ok' : 'access_denied');
  });
});

describe('helpers', () => {
  it('courseOrderStatus from the ordered-course list (Nostatus when absent)', () => {
    const ordered = [
      { courseID: 1, status: 'approved' },
      { courseID: 2, status: 'rejected' },
    ];
    expect(courseOrderStatus(ordered, 2)).toBe('rejected');
    expect(courseOrderStatus(ordered, 3)).toBe('Nostatus');
  });

  it('registrationWindow is inclusive at both ends', () => {
    const c = { start_reg_date: NOW, end_reg_date: NOW };
    expect(registrationWindow(c, NOW)).toBe('open');
    expect(registrationWindow(c, NOW - 1)).toBe('not_open');
    expect(registrationWindow(c, NOW + 1)).toBe('closed');
  });

  it('freePrerequisiteMet needs a logged-in owner of all free courses of a free-for-student plan', () => {
    expect(freePrerequisiteMet(freeFor, student)).toBe(true);
    expect(freePrerequisiteMet(freeFor, { ...student, studentLoggedIn: false })).toBe(false);
    expect(freePrerequisiteMet(plan({ id: 1, course_id: 1 }), student)).toBe(false);
    expect(freePrerequisiteMet(null, student)).toBe(false);
  });

  it('isPhysicalProduct', () => {
    expect(isPhysicalProduct('Product')).toBe(true);
    expect(isPhysicalProduct('Online')).toBe(false);
    expect(isPhysicalProduct(null)).toBe(false);
  });
});
