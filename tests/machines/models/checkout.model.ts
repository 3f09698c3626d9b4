import assert from 'node:assert/strict';
import type { EventObject } from 'xstate';
import { cartSummary, initialCartContext, type CartContext } from '../../../machines/cart/cart.machine';
import type { CartSummary } from '../../../machines/cart/cart-summary';
import { analyticsOf, checkoutMachine, orderContent, type CheckoutInput } from '../../../machines/checkout/checkout.machine';
import {
  selectCheckoutProblem,
  selectProblemWayOn,
  selectCreating,
  selectLoginModalOpen,
  selectBuyability,
  selectPayment,
  selectRegistering,
  selectSubmitBlock,
  selectSubmitWarning,
} from '../../../machines/checkout/checkout.selectors';
import { defineModel } from '../support/model';
import { cartInput, line, PR1, TAX_ON } from './cart-fixtures';
import { paymentOutcomes, student } from './fixtures';
import { MSG, msgOf } from '../../../domain/messages';

const summary = (overrides: Parameters<typeof cartInput>[0] = {}, patch: Partial<CartContext> = {}): CartSummary =>
  cartSummary({ ...initialCartContext(cartInput(overrides)), ...patch });

const ALL_METHODS = [1, 2, 3, 4, 8, 9, 10, 11, 12, 13].map((id) => ({ id, name: `method ${id}` }));
const base = (methodId = 1) => summary({ paymentMethods: ALL_METHODS, paymentMethodId: methodId });
const METHOD_IDS = [2, 3, 4, 8, 9, 10, 11, 12, 13];
// Written out here on purpose: the test checks the machine's map (machines/payments/methods.ts) against the spec's ids.
const METHOD_ACTORS: Record<number, string> = {
  1: 'bankTransfer', 2: 'paypal', 3: 'twoC2pCard', 4: 'scbQr', 8: 'omiseCard', 9: 'omisePromptPay', 10: 'twoC2pLink', 11: 'gbPrimeCard', 12: 'gbPrimePromptPay', 13: 'paySolutions',
};

export const CART = {
  method1: base(1),
  empty: summary({ lines: [] }),
  noAddress: summary({ lines: [line(13, 301, 'Product')] }),
  noFee: summary({ lines: [line(13, 301, 'Product')] }, { shippingAddressId: 7 }),
  promotionLeft: summary({ promotions: [PR1] }, { promotionId: null, promotionAutoSelected: true }),
  // The cart machine never starts or switches to USD with a line that has no USD price; the checkout still refuses such a cart.
  noUsdPrice: summary({ lines: [line(12, 201)], usdEnabled: true }, { currency: 'USD' }),
  ...Object.fromEntries(METHOD_IDS.map((id) => [`method${id}`, base(id)])),
} as Record<string, CartSummary>;

const changes = Object.entries(CART)
  .filter(([name]) => name !== 'method1')
  .map(([, cart]) => ({ type: 'cart.changed', cart }));

const detail = (total: number) => ({
  success: true,
  orderId: 501,
  order_detail: {
    id: 501, payment_status: 'notYetReceived', price: 150000, discount: 0, withholding_price: 0, shipping_fee: 0, total_amount: total,
    currency_code: 'THB', coupon_list_code: [], order_course_list: [], order_token: 'tok-501', cancel_at: '2030-01-02T00:00:00Z',
  },
});


/** The checkout's input in these models: a logged-in student, layout 3, the cart of cart-fixtures. */
export const input = (overrides: Partial<CheckoutInput> = {}): CheckoutInput => ({
  cart: cartInput({ paymentMethods: ALL_METHODS }),
  user: student,
  layout: 3,
  registrationOnPage: false,
  usernameRegistration: false,
  thankYouPage: true,
  slipRequired: false,
  taxSettings: TAX_ON,
  ...overrides,
});

const registration = { values: { firstname: 'สมชาย', lastname: 'ใจดี', email: 'somchai@example.com' }, credential: 'q3Zk0v8WlU2m6oTz4yB1cR9xN5aJ7dE0fG2hK4sL6pQ' };

type Snapshot = Parameters<typeof selectSubmitBlock>[0];

/** The order's content in the walk: a change of cart is offered only from the first cart, once. */
function isFirstCart(s: Snapshot): boolean {
  return s.context.cart === CART.method1 || JSON.stringify(s.context.cart) === JSON.stringify(CART.method1);
}

const outcomeOf = (e: EventObject) => (e as EventObject & { output?: unknown }).output;

/** The course of the model's have_course refusal (its `result`), and its order made in another tab. */
const ORDERED_ELSEWHERE = 11;
const ELSEWHERE_ORDER = 77;

export const checkoutModel = defineModel({
  machine: checkoutMachine,
  file: 'machines/checkout/checkout.machine.ts',
  input: input(),
  variants: [
    {
      name: 'logged out, order list after payment',
      input: input({ user: null, thankYouPage: false }),
      userEvents: [{ type: 'checkout.submit' }, { type: 'session.loggedIn', user: student }, { type: 'auth.dismiss' }, { type: 'registration.submit', ...registration }],
      callbacks: { cart: [] },
    },
    {
      // The course page's course has an unpaid order of this student: the submit warns, nothing is ordered.
      name: 'a course this buyer cannot buy',
      input: input({ buying: { course: { id: 12, course_type: 'Online' }, orderStatus: 'notYetReceived', orderId: 76, plan: null } }),
      userEvents: [{ type: 'checkout.submit' }],
      callbacks: { cart: [] },
    },
    {
      // The course page's course, ordered meanwhile in another tab: the server refuses the order
      // (have_course), and the buyer's ordered courses are read again (docs/decisions/0038).
      name: "the page's course ordered meanwhile in another tab",
      input: input({ buying: { course: { id: ORDERED_ELSEWHERE, course_type: 'Online' }, orderStatus: null, orderId: null, plan: null } }),
      userEvents: [{ type: 'checkout.submit' }],
      callbacks: { cart: [] },
    },
    {
      name: 'layout 4 visitor registers on the page',
      input: input({ user: null, layout: 4, registrationOnPage: true }),
      userEvents: [{ type: 'checkout.submit', registration }],
      callbacks: { cart: [] },
    },
  ],
  userEvents: [{ type: 'checkout.submit' }, { type: 'payment.resume' }, { type: 'payment.leave' }],
  callbacks: { cart: changes },
  outcomes: {
    taxGate: { done: [{ passed: true }, { passed: false, reason: 'declined' }], error: [new Error('tax gate crashed')] },
    registerAndLogin: { done: [{ ok: true, user: student }, { ok: false, reason: 'rejected', message: MSG.DUPLICATE_EMAIL }], error: [new Error('crashed')] },
    cart: { error: [new Error('cart crashed')] },
    setPassword: { error: [new Error('set password crashed')] },
    createOrder: {
      done: [detail(150000), detail(0)],
      error: [
        { status: 422, code: 'COUPON_NOT_AVAILABLE', msg: 'coupon full', result: ['SAVE100', 'PCT5'] },
        { status: 422, code: 'TIME_LEFT', msg: 'หมดเวลาลงทะเบียนแล้ว' },
        // have_course for an order of the course waiting for payment (made meanwhile in another tab), in the server's words
        { status: 409, code: 'have_course', msg: 'คุณมีคำสั่งซื้อคอร์สนี้ที่รอการชำระเงิน', result: [11] },
        { status: 403, code: 'FORBIDDEN', msg: 'คอร์สนี้เปิดให้เฉพาะกลุ่มผู้ใช้ที่กำหนด' },
        { status: 401, code: 'PERMISSION_DENIED', msg: 'Unauthorized' },
        { status: 404, code: 'NOT_FOUND', msg: 'Course 9 not found' },
        { status: 409, code: 'QUOTE_STALE', msg: 'ตะกร้าของคุณมีการเปลี่ยนแปลง' },
        { status: 0, code: 'NETWORK_ERROR', msg: 'Failed to fetch' },
      ],
    },
    // the profile read after the order's 401: the session is there after all, or the server says again it is not
    confirmSession: { done: [{ success: true, result: student }], error: [{ status: 401, code: 'PERMISSION_DENIED', msg: 'Unauthorized' }] },
    // the ordered courses read again after have_course: the other tab's order, waiting for payment (or no answer)
    readOrderedCourses: {
      done: [{ ownedCourseIds: [5], orderStatuses: { 5: 'approved', [ORDERED_ELSEWHERE]: 'notYetReceived' }, orderIds: { 5: 60, [ORDERED_ELSEWHERE]: ELSEWHERE_ORDER } }],
      error: [{ status: 0, code: 'NETWORK_ERROR', msg: 'Failed to fetch' }],
    },
    createPaymentReportPublic: { done: [{ success: true, orderPaymentId: 9, order_token: 'tok-501' }], error: [new Error('network')] },
    clearCart: { done: [{ success: true }], error: [new Error('network')] },
    ...Object.fromEntries(Object.values(METHOD_ACTORS).map((id) => [id, paymentOutcomes(id)])),
  },
  effects: ['notify', 'navigate', 'persistSnapshot', 'clearPersistedSnapshot', 'log', 'reloadCart'],
  label: (e) => (e.type === 'cart.changed' ? `cart.changed(${Object.entries(CART).find(([, v]) => v === (e as unknown as { cart: CartSummary }).cart)?.[0]})` : undefined),
  serialize: (s) => {
    const c = s.context;
    return JSON.stringify({
      value: s.value,
      cartFailed: c.cartFailed,
      cart: Object.entries(CART).find(([, v]) => JSON.stringify(v) === JSON.stringify(c.cart))?.[0] ?? 'other',
      user: c.user?.id ?? null,
      key: c.idempotencyKey && c.keyFor === orderContent(c.cart) ? 'made for this content' : 'missing or stale',
      order: c.order,
      problem: c.problem?.code ?? null,
      registration: !!c.registration,
      // The modal's registration goes on to the order; /cart's goes back to editing.
      memberRegistration: c.memberRegistration?.thenOrder ?? null,
    });
  },
  /**
   * Keep the walk small: other carts branch off once from the first one; in those branches (and
   * in the login variants) only the happy outcomes of the order and payment are walked — every
   * failure is walked with the first cart (bank transfer).
   */
  filter: (s, e) => {
    const main = isFirstCart(s) && s.context.settings.layout === 3 && s.context.user !== null && s.context.settings.thankYouPage;
    if (s.context.cartFailed && (e.type === 'cart.changed' || e.type === 'xstate.error.actor.cart')) return false;
    // The set-password child lives beside every state and changes none: its failure is walked once, from the first editing.
    if (e.type === 'xstate.error.actor.setPassword') return main && s.matches('editing') && s.context.order === null && !s.context.cartFailed;
    // The registration with username is the visitor's (the login modal, or /cart's visitor panel).
    if (e.type === 'registration.submit') return s.context.user === null;
    if (e.type === 'cart.changed') return isFirstCart(s) && s.context.order === null && !s.context.cartFailed;
    // the page's course ordered elsewhere: only the order's refusal and what follows it are walked there
    if (s.context.settings.buying?.course.id === ORDERED_ELSEWHERE) {
      if (e.type === 'xstate.done.actor.createOrder') return false;
      if (e.type === 'xstate.error.actor.createOrder') return (e as unknown as { error: { code: string } }).error.code === 'have_course';
      if (e.type.endsWith('.actor.readOrderedCourses')) return true;
      if (e.type === 'xstate.error.actor.cart' || e.type === 'xstate.error.actor.setPassword' || e.type === 'cart.changed') return false;
    }
    if (main) return true;
    const paymentActor = Object.values(METHOD_ACTORS).some((id) => e.type.endsWith(`.actor.${id}`));
    if (e.type.startsWith('xstate.error.actor.') && e.type !== 'xstate.error.actor.registerAndLogin' && !paymentActor) return false;
    if (e.type === 'xstate.done.actor.createOrder') return (outcomeOf(e) as { order_detail: { total_amount: number } }).order_detail.total_amount > 0;
    if (e.type === 'xstate.done.actor.taxGate') return (outcomeOf(e) as { passed: boolean }).passed;
    return true;
  },
  accepts: (s) => {
    if (s.matches('editing')) return ['checkout.submit', 'session.loggedIn', 'registration.submit'];
    if (s.matches('awaitingLogin')) return ['session.loggedIn', 'auth.dismiss', 'registration.submit'];
    if (s.matches('paying')) return ['payment.resume', 'payment.leave'];
    return [];
  },
  check: (s, step) => {
    const c = s.context;
    assert.equal(selectCreating(s), !s.matches('editing'));
    assert.equal(selectLoginModalOpen(s), s.matches('awaitingLogin') || (s.matches('registeringMember') && c.memberRegistration?.thenOrder === true));
    assert.equal(selectRegistering(s), s.matches('registeringMember'));
    if (s.matches('registeringMember')) {
      // The modal's registration (or /cart's) always has a username and logs in; the values are the form's.
      const given = step.scripts.inputsOf('registerAndLogin').at(-1) as { values: unknown; config: { withLogin: boolean }; credential: string };
      assert.deepEqual([given.values, given.config.withLogin, given.credential], [registration.values, true, registration.credential]);
    }
    if (s.matches('editing')) {
      const block = selectSubmitBlock(s);
      const expected = c.cart === CART.empty || c.cart.lines.length === 0 ? 'emptyCart' : c.cart.lines[0]!.course_type === 'Product' ? (c.cart.shippingAddressId ? 'shippingFee' : 'shippingAddress') : null;
      assert.equal(block, expected);
      const warning = selectSubmitWarning(s);
      if (block === 'emptyCart') assert.deepEqual(warning?.message, MSG.EMPTY_CART);
      if (block === 'shippingAddress' || block === 'shippingFee') assert.deepEqual(warning?.message, MSG.SHIPPING_ADDRESS_REQUIRED);
      const buy = selectBuyability(s);
      assert.equal(buy.buyable, c.settings.buying == null || c.settings.buying.orderStatus === null, "only a course with the buyer's unpaid order is refused");
      if (step.event.type === 'checkout.submit' && !buy.buyable) {
        assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'warning', topic: 'notBuyable', message: MSG.BUY_ORDER_NOT_YET_RECEIVED } }]);
      } else if (step.event.type === 'checkout.submit') {
        if (block) assert.deepEqual(step.effects.map((e) => e.params), [warning]);
        else if (c.cart.promotionId === null && c.cart.promotions.length) {
          assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'warning', topic: 'invalidData', message: MSG.PROMOTION_NOT_SELECTED } }]);
          assert.deepEqual(selectCheckoutProblem(s), MSG.PROMOTION_NOT_SELECTED);
        }
      }
    } else {
      assert.equal(selectSubmitBlock(s), 'creating');
    }
    // The order request: the key is made before it and kept for a retry of the same content.
    if (s.matches({ creatingOrder: 'postingOrder' })) {
      const calls = step.scripts.inputsOf('createOrder') as { idempotencyKey: string; body: { user_id: number; payment_method_id: number } }[];
      const last = calls.at(-1)!;
      assert.match(last.idempotencyKey, /^[0-9a-f-]{36}$/);
      assert.equal(last.body.user_id, 42);
      assert.equal(last.body.payment_method_id, c.cart.paymentMethodId);
      const previous = calls.at(-2);
      const lastOutcome = [...step.events]
        .reverse()
        .find((e) => e.type === 'xstate.error.actor.createOrder' || e.type === 'xstate.done.actor.createOrder' || e.type === 'xstate.error.actor.createPaymentReportPublic');
      if (previous && lastOutcome?.type === 'xstate.error.actor.createPaymentReportPublic') {
        assert.equal(last.idempotencyKey, previous.idempotencyKey, 'after a free order not recorded, the next click asks for the same order');
      }
      if (previous && lastOutcome?.type === 'xstate.error.actor.createOrder') {
        const failure = (lastOutcome as unknown as { error: { status: number } }).error;
        if (failure.status === 0) assert.equal(last.idempotencyKey, previous.idempotencyKey, 'a retry after no answer replays the same key');
        else assert.notEqual(last.idempotencyKey, previous.idempotencyKey, 'a refused order frees its key');
      }
    }
    if (step.event.type === 'xstate.error.actor.createOrder') {
      const code = (step.event as unknown as { error: { code: string } }).error.code;
      if (code === 'COUPON_NOT_AVAILABLE') {
        assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'warning', topic: 'invalidCoupon', message: msgOf('COUPON_NOT_AVAILABLE_CODES', { codes: 'SAVE100, PCT5' }) } }]);
      } else if (code === 'QUOTE_STALE') {
        // The cart changed since its quote: said by the code's catalogue message, then the page shows the server's cart (and the cart quotes again).
        assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'error', topic: 'cartChanged', message: MSG.QUOTE_STALE } }, { type: 'reloadCart', params: undefined }]);
      } else if (code === 'TIME_LEFT') {
        assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'error', topic: 'timeLeft', message: 'หมดเวลาลงทะเบียนแล้ว' } }]);
      } else if (code === 'have_course') {
        // Another refusal, inline and as a toast (docs/decisions/0038): have_course stands for "owned" and for
        // "an order waiting for payment or approval", so it is told in the server's words, never as "you own it".
        assert.deepEqual(step.effects.map((e) => e.type), ['notify', 'log']);
        assert.deepEqual(step.effects[0]!.params, { kind: 'error', topic: 'invalidData', message: 'คุณมีคำสั่งซื้อคอร์สนี้ที่รอการชำระเงิน' });
        assert.deepEqual(selectCheckoutProblem(s), 'คุณมีคำสั่งซื้อคอร์สนี้ที่รอการชำระเงิน');
        assert.equal(s.context.problem?.course_id, 11);
        // its way on: the order list, where the unpaid order is paid or cancelled
        assert.equal(selectProblemWayOn(s), 'orders');
        // on the page's course: the buyer's ordered courses are read again (as the page's loader reads them)
        if (c.settings.buying) assert.ok(s.matches({ creatingOrder: 'rereadingOrders' }) && selectSubmitBlock(s) === 'creating');
      } else if (code === 'FORBIDDEN') {
        // A buyability refusal: the server's catalogue text (in the page's language), as a toast.
        assert.deepEqual(step.effects.map((e) => e.type), ['notify', 'log']);
        assert.deepEqual(step.effects[0]!.params, { kind: 'error', topic: 'fail', message: 'คอร์สนี้เปิดให้เฉพาะกลุ่มผู้ใช้ที่กำหนด' });
        assert.equal(selectCheckoutProblem(s), null);
        assert.equal(selectProblemWayOn(s), null);
      } else if (code === 'PERMISSION_DENIED') {
        // The session ended on the server: never its English "Unauthorized", the catalogue's "log in
        // again"; then the profile is read once more (its own 401 ends the session in the page).
        assert.deepEqual(step.effects.map((e) => e.type), ['notify', 'log']);
        assert.deepEqual(step.effects[0]!.params, { kind: 'error', topic: 'fail', message: MSG.SESSION_ENDED });
        assert.ok(s.matches({ creatingOrder: 'confirmingSession' }), 'the session is confirmed with the server');
        // one profile read per 401 (the order's failures so far that were 401s)
        const unauthorized = step.events.filter((e) => e.type === 'xstate.error.actor.createOrder' && (e as unknown as { error: { status: number } }).error.status === 401).length;
        assert.equal(step.scripts.inputsOf('confirmSession').length, unauthorized);
        assert.equal(selectSubmitBlock(s), 'creating');
      } else if (code === 'NOT_FOUND') {
        // Any other code: the catalogue's "try again", never the server's own text.
        assert.deepEqual(step.effects[0]!.params, { kind: 'error', topic: 'fail', message: MSG.CART_FAIL });
      } else {
        // No answer: said, the next click retries the same order (docs/decisions/0038).
        assert.deepEqual(step.effects, [{ type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.CART_FAIL } }, step.effects[1]]);
        assert.equal(step.effects[1]!.type, 'log');
      }
      if (code !== 'PERMISSION_DENIED' && !(code === 'have_course' && c.settings.buying)) assert.ok(s.matches('editing') && selectSubmitBlock(s) === null, 'submit is enabled again');
    }
    // The ordered courses read again: the other tab's order is the page's now ("continue paying" it, the
    // submit refused as on a reload), and the refusal's message gives way; a read that fails leaves the refusal said.
    if (step.event.type === 'xstate.done.actor.readOrderedCourses') {
      assert.ok(s.matches('editing'));
      assert.deepEqual([c.settings.buying?.orderStatus, c.settings.buying?.orderId, c.cartInput.ownedCourseIds], ['notYetReceived', ELSEWHERE_ORDER, [5]]);
      assert.deepEqual(selectBuyability(s), { buyable: false, reason: 'order_not_yet_received', message: MSG.BUY_ORDER_NOT_YET_RECEIVED });
      assert.equal(selectCheckoutProblem(s), null);
      assert.deepEqual(step.effects, []);
      assert.deepEqual(step.scripts.inputsOf('readOrderedCourses').length, 1);
    }
    if (step.event.type === 'xstate.error.actor.readOrderedCourses') {
      assert.ok(s.matches('editing'));
      assert.deepEqual([c.settings.buying?.orderStatus, c.settings.buying?.orderId], [null, null]);
      assert.equal(selectCheckoutProblem(s), 'คุณมีคำสั่งซื้อคอร์สนี้ที่รอการชำระเงิน');
      assert.deepEqual(step.effects, []);
    }
    // Whatever the profile read answers, the form is back, with nothing more said (the session's modal says the rest).
    if (step.event.type === 'xstate.done.actor.confirmSession' || step.event.type === 'xstate.error.actor.confirmSession') {
      assert.ok(s.matches('editing') && selectSubmitBlock(s) === null, 'submit is enabled again');
      assert.deepEqual(step.effects, []);
    }
    if (s.matches('paying')) {
      const payment = selectPayment(s);
      const method = METHOD_ACTORS[c.order!.methodId]!;
      assert.equal(payment?.method, method);
      const given = step.scripts.inputsOf(method).at(-1) as { order: { orderId: number; orderToken: string; amount: number } };
      assert.deepEqual([given.order.orderId, given.order.orderToken, given.order.amount], [501, 'tok-501', 150000]);
      if (step.event.type === 'xstate.done.actor.createOrder') assert.deepEqual(step.effects, [{ type: 'persistSnapshot', params: undefined }]);
    }
    if (s.matches('filingFreeReport')) {
      const report = step.scripts.inputsOf('createPaymentReportPublic').at(-1) as Record<string, unknown>;
      assert.deepEqual([report.order_id, report.transfer_amount, report.payment, report.description], [501, 0, 'AutoFree', 'Auto approved']);
      assert.match(String(report.transfer_datetime), /^\d{4}-\d{2}-\d{2}$/);
    }
    if (step.event.type === 'xstate.error.actor.createPaymentReportPublic') {
      // the free order not recorded: said, back to the form, the key kept (the next click gets the same order back: below)
      assert.ok(s.matches('editing'), 'the free order not recorded leaves the buyer on the form');
      assert.deepEqual(step.effects.filter((e) => e.type === 'notify'), [{ type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.FREE_ORDER_NOT_RECORDED } }]);
    }
    if (s.matches('clearingCart')) assert.deepEqual(step.scripts.inputsOf('clearCart').at(-1), { user_id: '42' });
    if (s.matches('completed')) {
      const to = c.settings.thankYouPage ? '/thankyou?orderId=tok-501' : '/myaccount/student/order';
      assert.deepEqual(step.effects, [{ type: 'navigate', params: { to, external: false } }, { type: 'clearPersistedSnapshot', params: undefined }]);
      assert.deepEqual(s.output, { orderId: 501, to });
      // 500 ms before the thank-you page, 1000 ms before the order list (spec 9).
      assert.ok(step.event.type.startsWith(c.settings.thankYouPage ? 'xstate.after.redirectDelay' : 'xstate.after.ordersRedirectDelay'));
    }
    if (s.matches('leftForOrders')) {
      assert.deepEqual(step.effects.filter((e) => e.type === 'navigate'), [{ type: 'navigate', params: { to: '/myaccount/student/order', external: false } }]);
    }
    if (step.event.type === 'xstate.done.actor.registerAndLogin' && s.matches('creatingOrder')) {
      assert.deepEqual(step.effects, [
        { type: 'emitted', params: { type: 'session.established', user: student } },
        { type: 'emitted', params: analyticsOf(c, 'begin_checkout') },
      ]);
    }
    // Analytics (spec 7): begin_checkout as the order creation starts, purchase as the cart is cleared after paying.
    const analytics = step.effects.filter((e) => e.type === 'emitted' && (e.params as { type: string }).type === 'analytics').map((e) => e.params);
    if (s.matches('creatingOrder') && step.event.type === 'checkout.submit') assert.deepEqual(analytics, [analyticsOf(c, 'begin_checkout')]);
    else if (s.matches('clearingCart') && step.event.type.startsWith('xstate.') && step.event.type !== 'xstate.error.actor.cart') {
      assert.deepEqual(analytics, [analyticsOf(c, 'purchase')]);
      assert.equal((analytics[0] as { ecommerce: { transaction_id?: string } }).ecommerce.transaction_id, 'tok-501');
    } else if (!s.matches('creatingOrder')) assert.deepEqual(analytics, [], 'analytics only when the order creation starts or the cart is cleared');
    if (s.matches('editing') && step.event.type.startsWith('xstate.done.actor.') && (outcomeOf(step.event) as { orderDeleted?: boolean })?.orderDeleted) {
      assert.equal(c.order, null);
      const used = (step.scripts.inputsOf('createOrder').at(-1) as { idempotencyKey: string }).idempotencyKey;
      assert.notEqual(c.idempotencyKey, used, 'PayPal deleted the order: the next click makes a new one, with a new key');
    }
    // The key exists before any click, for the cart's content.
    assert.match(c.idempotencyKey, /^[0-9a-f-]{36}$/);
  },
});
