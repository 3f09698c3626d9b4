/**
 * May this user buy this course now? (spec 4 "Course order status", decisions.md #7)
 * Returns a reason code (and its message by key), not just a boolean.
 */
import type { MessageKey } from './messages';
import { MSG, type Msg } from './messages';
import type { Instant } from './plans';
import { freeCourseIds, isFreeForStudentPlan, isRenewalPlan, ownsAll } from './plans';
import type { Flag, IdList, Open, PricingPlan } from './types';
import { idList, isOn, toEpochMs } from './values';

export const ONLINE = 'Online';
export const FLEX = 'Flex';
export const IN_CLASS = 'In-class';
export const PRIVATE_CLASSROOM = 'Private-Classroom';
export const LIVE_BROADCAST = 'Live-Broadcast';
export const LIVE_ROOM = 'Live-Room';
export const LIVE_ROOM_STUDENT_CAMERA = 'Live-Room-Student-Camera';
/** A physical product (book, goods); openapi.yaml's CourseType 'Product'. */
export const PRODUCT = 'Product';

export type CourseType =
  | typeof ONLINE
  | typeof FLEX
  | typeof IN_CLASS
  | typeof PRIVATE_CLASSROOM
  | typeof LIVE_BROADCAST
  | typeof LIVE_ROOM
  | typeof LIVE_ROOM_STUDENT_CAMERA
  | typeof PRODUCT;

export const LIVE_TYPES: readonly string[] = [LIVE_BROADCAST, LIVE_ROOM, LIVE_ROOM_STUDENT_CAMERA];

export type CourseOrderStatus = 'notYetReceived' | 'rejected' | 'approved' | 'pendingApproved' | 'Nostatus';

/** A physical product: course_type 'Product' (any case). */
export function isPhysicalProduct(courseType: string | null | undefined): boolean {
  return (courseType ?? '').toLowerCase() === 'product';
}

/** The course facts buyability reads (names as the API's Course / ProductDetail). */
export interface BuyableCourse {
  id: number;
  course_type: Open<CourseType>;
  /** Seats left for seat-limited types; null/undefined = not seat-limited. */
  seats_available?: number | null;
  /** Products: stock left; null/undefined = not tracked. */
  available_qty?: number | null;
  /** Registration window (UTC); null = no limit on that side. */
  start_reg_date?: Instant | null;
  end_reg_date?: Instant | null;
  /** Online/Flex: buying needs the free-course prerequisite (spec 4). */
  buy_course_free?: Flag;
  /** Course access rights by user group are on. */
  is_course_access_right?: Flag;
  access_group_ids?: IdList;
}

export interface Buyer {
  /** A student is logged in. */
  studentLoggedIn: boolean;
  /** An instructor is logged in (separately authenticated). */
  instructorLoggedIn?: boolean;
  /** The student's user group; null/undefined = none. */
  userGroupId?: number | null;
  /** Course ids the student owns (for free-course prerequisites). */
  ownedCourseIds?: readonly number[];
}

export interface BuyabilityInput {
  course: BuyableCourse;
  buyer: Buyer;
  /** The student's order status for this course; missing = Nostatus. */
  orderStatus?: Open<CourseOrderStatus> | null;
  /** The plan the buyer chose (renewal plans and free-for-student prerequisites depend on it). */
  plan?: Pick<PricingPlan, 'pricing_type' | 'free_for' | 'free_course_ids'> | null;
  now: Instant;
  /** Course data still loading. */
  loading?: boolean;
}

export type BuyBlockReason =
  | 'loading'
  | 'instructor_not_student'
  | 'access_denied'
  | 'order_not_yet_received'
  | 'order_rejected'
  | 'order_pending_approval'
  | 'have_course'
  | 'needs_free_course'
  | 'no_seats'
  | 'registration_not_open'
  | 'registration_closed'
  | 'out_of_stock';

export type Buyability = { buyable: true; reason: 'ok' } | { buyable: false; reason: BuyBlockReason; message: Msg };

const REASON_MESSAGE: Record<BuyBlockReason, MessageKey> = {
  loading: 'BUY_LOADING',
  instructor_not_student: 'BUY_INSTRUCTOR_NOT_STUDENT',
  access_denied: 'BUY_ACCESS_DENIED',
  order_not_yet_received: 'BUY_ORDER_NOT_YET_RECEIVED',
  order_rejected: 'BUY_ORDER_REJECTED',
  order_pending_approval: 'BUY_ORDER_PENDING_APPROVAL',
  have_course: 'HAVE_COURSE',
  needs_free_course: 'BUY_NEEDS_FREE_COURSE',
  no_seats: 'BUY_NO_SEATS',
  registration_not_open: 'BUY_REGISTRATION_NOT_OPEN',
  registration_closed: 'BUY_REGISTRATION_CLOSED',
  out_of_stock: 'BUY_OUT_OF_STOCK',
};

function blocked(reason: BuyBlockReason): Buyability {
  return { buyable: false, reason, message: MSG[REASON_MESSAGE[reason]] };
}
const OK: Buyability = { buyable: true, reason: 'ok' };

/**
 * Spec 4: "Course access denied when course access rights are enabled with user groups and the
 * user's group is missing or not in the course's list."
 */
export function hasCourseAccess(course: Pick<BuyableCourse, 'is_course_access_right' | 'access_group_ids'>, userGroupId: number | null | undefined): boolean {
  if (!isOn(course.is_course_access_right)) return true;
  return userGroupId !== null && userGroupId !== undefined && idList(course.access_group_ids).includes(userGroupId);
}

/**
 * The free-for-student prerequisite is met: the chosen plan is a free-for-student plan and the
 * logged-in student owns all its free_course_ids.
 */
export function freePrerequisiteMet(plan: BuyabilityInput['plan'], buyer: Buyer): boolean {
  return !!plan && buyer.studentLoggedIn && isFreeForStudentPlan(plan) && ownsAll(freeCourseIds(plan), buyer.ownedCourseIds);
}

/** The student's status for a course from their ordered-course list (OrderedCourse); Nostatus if none. */
export function courseOrderStatus(
  ordered: readonly { courseID: number; status: string }[],
  courseId: number,
): Open<CourseOrderStatus> {
  return ordered.find((o) => o.courseID === courseId)?.status ?? 'Nostatus';
}

/** Now within start_reg_date..end_reg_date (inclusive; a missing side is open). */
export function registrationWindow(course: Pick<BuyableCourse, 'start_reg_date' | 'end_reg_date'>, now: Instant): 'open' | 'not_open' | 'closed' {
  const t = toEpochMs(now);
  if (course.start_reg_date !== null && course.start_reg_date !== undefined && t < toEpochMs(course.start_reg_date)) return 'not_open';
  if (course.end_reg_date !== null && course.end_reg_date !== undefined && t > toEpochMs(course.end_reg_date)) return 'closed';
  return 'open';
}

/**
 * Checked in this order:
 * 1. loading; 2. an instructor logged in without a student login cannot buy;
 * 3. course access by user group;
 * 4. physical products: bought again while stock lasts, whatever earlier orders (decisions.md #7);
 * 5. order status: notYetReceived, rejected, pendingApproved block; approved blocks unless the
 *    chosen plan is a renewal plan (have_course);
 * 6. by type: Online/Flex need the free-course prerequisite only when buy_course_free is set;
 *    Private-Classroom and the Live types are buyable; other types (In-class) need seats above 0
 *    (null = not seat-limited) and now within the registration window unless the free-for-student
 *    prerequisite applies.
 */
export function canBuy(input: BuyabilityInput): Buyability {
  const { course, buyer, plan } = input;
  if (input.loading) return blocked('loading');
  if (input.buyer.instructorLoggedIn && !buyer.studentLoggedIn) return blocked('instructor_not_student');
  if (!hasCourseAccess(course, buyer.userGroupId)) return blocked('access_denied');

  if (isPhysicalProduct(course.course_type)) {
    const qty = course.available_qty;
    return qty === null || qty === undefined || qty > 0 ? OK : blocked('out_of_stock');
  }

  switch (input.orderStatus ?? 'Nostatus') {
    case 'notYetReceived':
      return blocked('order_not_yet_received');
    case 'rejected':
      return blocked('order_rejected');
    case 'pendingApproved':
      return blocked('order_pending_approval');
    case 'approved':
      if (!plan || !isRenewalPlan(plan)) return blocked('have_course');
      break;
    default:
      break;
  }

  const type = course.course_type;
  if (type === ONLINE || type === FLEX) {
    return isOn(course.buy_course_free) && !freePrerequisiteMet(plan, buyer) ? blocked('needs_free_course') : OK;
  }
  if (type === PRIVATE_CLASSROOM || LIVE_TYPES.includes(type)) return OK;

  const seats = course.seats_available;
  if (seats !== null && seats !== undefined && seats <= 0) return blocked('no_seats');
  if (freePrerequisiteMet(plan, buyer)) return OK;
  const w = registrationWindow(course, input.now);
  if (w === 'not_open') return blocked('registration_not_open');
  if (w === 'closed') return blocked('registration_closed');
  return OK;
}
