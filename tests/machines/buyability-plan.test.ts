/**
 * The course page's buyability reads the plan chosen in the cart (domain canBuy: "the plan the
 * buyer chose"), not the course's default plan: a student who owns the course is offered its renewal
 * plan, and buying it is allowed (decisions.md #7); on any other plan the course is refused as owned.
 * Before, the default plan was read, so an owner on the renewal plan was told "you have this course"
 * and the submit only warned.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { cartSummary, initialCartContext } from '../../machines/cart/cart.machine';
import { buyabilityOf, checkoutMachine } from '../../machines/checkout/checkout.machine';
import { selectBuyability } from '../../machines/checkout/checkout.selectors';
import { cartInput, line, METHODS, PLANS, TAX_ON } from './models/cart-fixtures';
import { student } from './models/fixtures';
import { input as checkoutInput } from './models/checkout.model';

const RENEWAL = { id: 103, course_id: 11, name: 'renew 6 months', plan_type: 'Period', term: 6, term_unit: 'Month(s)', price: 59000, price_usd: null, pricing_type: 'renew', status_show: 1 };
const plans = [...PLANS, RENEWAL];
const owner = (planId: number | null): Parameters<typeof buyabilityOf>[0] => {
  const cart = cartInput({ lines: planId === null ? [] : [line(11, planId)], plans: plans as never, loggedIn: true, ownedCourseIds: [11] });
  return {
    settings: { layout: 3, registrationOnPage: false, usernameRegistration: false, thankYouPage: true, slipRequired: false, taxSettings: TAX_ON, buying: { course: { id: 11, course_type: 'Online' }, orderStatus: 'approved', orderId: null, plan: { pricing_type: 'default', free_for: null, free_course_ids: null } } },
    user: student,
    cartInput: cart,
    // the lines as given (the cart machine itself moves an owner's line to a renewal plan)
    cart: cartSummary({ ...initialCartContext(cart), lines: cart.lines }),
  } as Parameters<typeof buyabilityOf>[0];
};

describe("the page's course: buyability by the plan in the cart", () => {
  it('an owner with the renewal plan chosen may buy it', () => {
    expect(buyabilityOf(owner(RENEWAL.id))).toEqual({ buyable: true, reason: 'ok' });
  });

  it('an owner on another plan is refused as owning the course', () => {
    expect(buyabilityOf(owner(101))).toMatchObject({ buyable: false, reason: 'have_course' });
  });

  it("without the course's line in the cart, the course's default plan decides", () => {
    expect(buyabilityOf(owner(null))).toMatchObject({ buyable: false, reason: 'have_course' });
  });

  it('the running checkout follows the cart: the renewal plan chosen, the submit is not refused', () => {
    const input = checkoutInput({
      cart: cartInput({ lines: [line(11, RENEWAL.id)], plans: plans as never, paymentMethods: METHODS, loggedIn: true, ownedCourseIds: [11] }),
      buying: { course: { id: 11, course_type: 'Online' }, orderStatus: 'approved', orderId: null, plan: { pricing_type: 'default', free_for: null, free_course_ids: null } },
    });
    const actor = createActor(checkoutMachine, { input });
    actor.start();
    expect(selectBuyability(actor.getSnapshot())).toEqual({ buyable: true, reason: 'ok' });
    actor.stop();
  });
});
