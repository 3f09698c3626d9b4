// src/api/requests/orders.ts orderedFacts: the buyer's ordered courses as the course page's loader
// and the checkout (after a have_course refusal) read them.
import { describe, expect, it } from 'vitest';
import { canBuy } from '../../domain/buyability';
import { orderedFacts } from '../../src/api/requests/orders';

describe('orderedFacts', () => {
  it("owned = approved; each course's status and order (a later row of a course wins); nothing ordered, nothing known", () => {
    const facts = orderedFacts([
      { courseID: 2, order_id: 10, status: 'rejected' },
      { courseID: 5, order_id: 11, status: 'approved' },
      { courseID: 2, order_id: 12, status: 'notYetReceived' },
    ]);
    expect(facts).toEqual({ ownedCourseIds: [5], orderStatuses: { 2: 'notYetReceived', 5: 'approved' }, orderIds: { 2: 12, 5: 11 } });
    // what canBuy makes of the latest status: an unpaid order of course 2 is continued, not ordered again
    const buyer = { studentLoggedIn: true, instructorLoggedIn: false, userGroupId: null, ownedCourseIds: facts.ownedCourseIds };
    expect(canBuy({ course: { id: 2, course_type: 'Online' }, buyer, orderStatus: facts.orderStatuses[2] ?? null, now: Date.UTC(2026, 0, 1) }).reason).toBe('order_not_yet_received');
    expect(orderedFacts([])).toEqual({ ownedCourseIds: [], orderStatuses: {}, orderIds: {} });
  });
});
