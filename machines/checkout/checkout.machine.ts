/**
 * Checkout submission of the course page (spec section 4 "Checkout flow", section 5 "Cart and
 * order", section 8 "Order response"). The cart panel runs as the child `cart` and announces every
 * change (cart.changed). Submit:
 * 0. a course page's course that this buyer cannot buy (domain canBuy: an unpaid or pending
 *    order, owned, no seats, closed registration, ...) is not ordered: the reason is warned;
 * 1. the cart is not empty, the shipping address and fee are chosen when needed, no usable
 *    promotion is left unselected (domain submitProblem) — else the spec's warning;
 * 2. not logged in: the login/registration modal (the session machine logs in and the app
 *    forwards session.loggedIn; or the modal's registration, `registration.submit`, registers
 *    with username then logs in: registerAndLogin), or for the layout-4 visitor registration then
 *    login (registerAndLogin); the order creation then continues. The /cart page's visitor panel
 *    registers the same way from `editing` (no order follows: the page reads its cart again);
 * 3. create order: the tax gate (taxGate), the duplicate and pricing checks (domain
 *    orderProblem), then POST with an Idempotency-Key made before the request and kept while the
 *    order's content is the same (a retry replays the same order);
 *    COUPON_NOT_AVAILABLE: the failing codes as an invalid-coupon warning, submit enabled again;
 *    TIME_LEFT: the server's msg as an error; other failures are logged and loading stops;
 * 4. total 0: the free payment report (AutoFree / NeedApprovedFree) — else the chosen method's
 *    payment machine runs (persisted first, so a refresh or a return resumes the same order);
 * 5. the cart is cleared, then the thank-you page (/thankyou?orderId={order token}) or the order
 *    list, per is_thank_you_page, after 500 ms / 1000 ms.
 * Analytics (spec 7): the machine emits `analytics` begin_checkout when the order creation starts
 * and purchase when the cart is cleared after a payment; the app forwards them to the data layer.
 */
import { assign, emit, sendParent, sendTo, setup } from 'xstate';
import type { RegistrationConfig, RegistrationValues } from '../../domain/forms/registration';
import { canBuy, type Buyability, type BuyableCourse } from '../../domain/buyability';
import { MSG, msgOf, type Msg } from '../../domain/messages';
import type { PricingPlan } from '../../domain/types';
import type { OrderCheckInput, OrderProblem, SubmitCheckInput } from '../../domain/order-checks';
import { orderProblem, problemOfRefusal, submitProblem } from '../../domain/order-checks';
import { isFreeOrder, toMajor } from '../../domain/money';
import { freeOrderApproval, type Instant } from '../../domain/plans';
import type { TaxSettings } from '../../domain/types';
import { cartMachine, cartSummary, initialCartContext, type CartInput } from '../cart/cart.machine';
import type { CartSummary } from '../cart/cart-summary';
import { endsFor, methodActor, PAYMENT_MACHINES, payingStates, type PaymentActorId } from '../payments/methods';
import { freeOrderReport, type PaymentOrder, type PaymentOutput } from '../payments/payment';
import { registerAndLoginMachine, type RegisterAndLoginOutput } from '../registration/register-and-login.machine';
import { setPasswordMachine } from '../registration/set-password.machine';
import { failureOf, shownOf } from '../shared/api-error';
import type {
  ClearCartRequest,
  CreateOrderResponse,
  DataResponse,
  OrderCreate,
  OrderedFacts,
  PaymentMethodId,
  PaymentReportPublic,
  PaymentReportResponse,
  SessionUser,
  Student,
  SuccessResponse,
} from '../shared/api';
import { effectDefaults, ROUTES, type Notice } from '../shared/effects';
import { newIdempotencyKey } from '../shared/idempotency';
import { thaiLocalNow } from '../shared/time';
import { taxGateMachine, type TaxGateOutput } from '../tax/tax-gate.machine';
import { providedByApp } from '../shared/provided';

export interface CheckoutSettings {
  /** layout_course_detail (1-4, default 3). */
  layout: 1 | 2 | 3 | 4;
  /** Layout 4 with the embedded registration (is_layout_course_registration). */
  registrationOnPage: boolean;
  /** The layout-4 registration has username and password (else non-member purchase). */
  usernameRegistration: boolean;
  /** is_thank_you_page. */
  thankYouPage: boolean;
  /** A payment slip is required for bank transfers. */
  slipRequired: boolean;
  taxSettings: TaxSettings;
  registration?: RegistrationConfig;
  /** The course page's course, whose buyability the submit checks (absent on /cart: its lines are checked by the server). */
  buying?: BuyingFacts | null;
}

/** What buyability reads of the page's course besides the buyer (domain canBuy). */
export interface BuyingFacts {
  course: BuyableCourse;
  /** The student's latest order status for this course; null = none. */
  orderStatus: string | null;
  /** That order (the page's "continue paying" link); null = none. */
  orderId: number | null;
  /** The course's default plan: buyability reads the plan chosen in the cart, this one when none is. */
  plan: Pick<PricingPlan, 'pricing_type' | 'free_for' | 'free_course_ids'> | null;
}

/**
 * May this buyer buy the page's course now (spec 4 "Course order status")? Always true without a
 * course (/cart). The plan is the one chosen in the cart for the page's course (an owner renews with
 * a renewal plan, decisions.md #7), else the course's default.
 */
export function buyabilityOf(context: Pick<CheckoutContext, 'settings' | 'user' | 'cartInput' | 'cart'>, now: number = Date.now()): Buyability {
  const facts = context.settings.buying;
  if (!facts) return { buyable: true, reason: 'ok' };
  const user = context.user;
  const line = context.cart.lines.find((l) => l.course_id === facts.course.id);
  const chosen = line ? context.cart.plans.find((p) => p.id === line.pricing_plan_id) : undefined;
  return canBuy({
    course: facts.course,
    buyer: {
      studentLoggedIn: user !== null && user.role === 'student',
      instructorLoggedIn: user?.role === 'instructor',
      userGroupId: user?.user_group_id ?? null,
      ownedCourseIds: context.cartInput.ownedCourseIds ?? [],
    },
    orderStatus: facts.orderStatus,
    plan: chosen ?? facts.plan,
    now,
  });
}

export interface CheckoutInput extends CheckoutSettings {
  cart: CartInput;
  user: SessionUser | null;
}

/** The created order. */
export interface CreatedOrder {
  id: number;
  token: string;
  /** Payable total (minor units). */
  total: number;
  methodId: PaymentMethodId;
}

export interface CheckoutContext {
  settings: CheckoutSettings;
  /** What the cart child starts from. */
  cartInput: CartInput;
  /** The cart as last announced. */
  cart: CartSummary;
  user: SessionUser | null;
  /** Made before the click for the order's content (`keyFor`); kept while that content stays the same. */
  idempotencyKey: string;
  keyFor: string;
  /** The layout-4 visitor's registration, from the submit. */
  registration: { values: RegistrationValues; credential: string } | null;
  /** The modal's (or /cart's) registration with username; `thenOrder` when the order waits for it (the login modal). */
  memberRegistration: { values: RegistrationValues; credential: string; thenOrder: boolean } | null;
  order: CreatedOrder | null;
  /** Why the last submit stopped (shown inline). */
  problem: OrderProblem | null;
  /** The cart panel failed (a bug): the page shows an error instead of the cart. */
  cartFailed: boolean;
  /** The layout-4 registration was refused with DUPLICATE_EMAIL: the page offers the way in (log in, or a sign-in link). */
  emailTaken: { email: string; account: 'member' | 'buyer' } | null;
}

export type CheckoutEvent =
  | { type: 'checkout.submit'; registration?: { values: RegistrationValues; credential: string } }
  | { type: 'cart.changed'; cart: CartSummary }
  | { type: 'session.loggedIn'; user: SessionUser }
  | { type: 'auth.dismiss' }
  | { type: 'registration.submit'; values: RegistrationValues; credential: string }
  | { type: 'payment.resume' }
  | { type: 'payment.leave' };

/** One e-commerce item of an analytics event (amounts in major units, as the data layer expects). */
export interface AnalyticsItem {
  item_id: string;
  item_name: string;
  coupon: string | undefined;
  discount: number;
  price: number;
  quantity: number;
}

/** Spec 7: the data layer's begin_checkout and purchase, with their items. */
export interface AnalyticsEmitted {
  type: 'analytics';
  event: 'begin_checkout' | 'purchase';
  ecommerce: { items: AnalyticsItem[]; currency: string; value: number; transaction_id?: string };
}

export type CheckoutEmitted = { type: 'session.established'; user: SessionUser } | AnalyticsEmitted;

export interface CheckoutOutput {
  orderId: number | null;
  /** Where the buyer was sent. */
  to: string;
}

export interface CreateOrderInput {
  idempotencyKey: string;
  body: OrderCreate;
}

// ---------------------------------------------------------------------------------------------

/** The order body from the cart (amounts are sent for compatibility; the server recomputes them). */
export function orderBody(context: Pick<CheckoutContext, 'cart' | 'user'>): OrderCreate {
  const c = context.cart;
  const priced = c.totals.priced;
  return {
    user_id: context.user?.id ?? 0,
    course_id: c.lines.map((l) => l.course_id),
    pricingplan_id: c.lines.map((l) => l.pricing_plan_id),
    payment_method_id: (c.paymentMethodId ?? 1) as PaymentMethodId,
    coupon_id: c.coupons.map((x) => x.id),
    promotion_id: c.promotionId,
    status: 'notYetReceived',
    price: c.totals.subtotal,
    discount: c.totals.discount,
    shipping_fee: c.totals.shippingFee,
    currency_code: c.currency,
    courses: (priced?.lines ?? []).map((l) => ({
      course_id: l.course_id,
      pricingplan_id: l.pricingplan_id,
      qty: l.qty,
      price: l.original_pricing_price,
      discount: l.discount,
      coupon_code: l.coupon_code,
    })),
    shipping_address_id: c.shippingAddressId,
    shipping_fee_id: c.shippingFee?.id ?? null,
    is_withholding: c.withholding && c.totals.withholdingOffered,
    ...(c.withholding && c.totals.withholdingOffered ? { withholding_percent: c.withholdingPercent } : {}),
    // The quote the buyer was shown: the server refuses the order (QUOTE_STALE) when its own quote now differs.
    ...(c.fromCart ? { from_cart: true } : {}),
    ...(c.totals.quote ? { quote_version: c.totals.quote.version } : {}),
  };
}

/** What the key stands for: the order's content (not the user, which is the session's). */
export function orderContent(cart: CartSummary): string {
  const { user_id: _u, ...body } = orderBody({ cart, user: null });
  return JSON.stringify(body);
}

function freshKey(content: string): { idempotencyKey: string; keyFor: string } {
  return { idempotencyKey: newIdempotencyKey(), keyFor: content };
}

/** The cart as the domain's order checks read it (what may be submitted, what may be ordered). */
function cartChecked(c: CartSummary): SubmitCheckInput & OrderCheckInput {
  return {
    lines: c.lines,
    plans: c.plans,
    currency: c.currency,
    shippingAddressId: c.shippingAddressId,
    shippingFeeId: c.shippingFee?.id ?? null,
    promotions: c.promotions,
    promotionId: c.promotionId,
    couponCount: c.coupons.length,
    ownedCourseIds: c.ownedCourseIds,
    paymentMethodId: c.paymentMethodId,
    payable: c.totals.payable,
  };
}

const submitProblemOf = (c: CartSummary): OrderProblem | null => submitProblem(cartChecked(c));
const orderProblemOf = (c: CartSummary): OrderProblem | null => orderProblem(cartChecked(c));

/** The analytics event of the cart as it is: begin_checkout (the cart's payable) or purchase (the order's total and token). */
export function analyticsOf(context: Pick<CheckoutContext, 'cart' | 'order'>, event: AnalyticsEmitted['event']): AnalyticsEmitted {
  const cart = context.cart;
  const lines = cart.totals.priced?.lines ?? [];
  const items = cart.lines.map((l) => {
    const priced = lines.find((p) => p.course_id === l.course_id);
    return {
      item_id: String(l.course_id),
      item_name: l.course_name,
      coupon: priced?.coupon_code ?? undefined,
      discount: toMajor(priced?.discount ?? 0),
      price: toMajor(priced?.unit_price ?? 0),
      quantity: l.qty ?? 1,
    };
  });
  if (event === 'begin_checkout') return { type: 'analytics', event, ecommerce: { items, currency: cart.currency, value: toMajor(cart.totals.payable) } };
  return { type: 'analytics', event, ecommerce: { items, currency: cart.currency, value: toMajor(context.order?.total ?? 0), transaction_id: context.order?.token } };
}

/** Spec 5: a click while submit is disabled warns; empty cart, or 'กรุณากรอกข้อมูลที่อยู่จัดส่ง' for a missing address or fee. */
export function submitWarning(problem: OrderProblem): Notice {
  switch (problem.code) {
    case 'empty_cart':
      return { kind: 'warning', topic: 'emptyCart', message: MSG.EMPTY_CART };
    case 'SHIPPING_ADDRESS_REQUIRED':
      return { kind: 'warning', topic: 'requiredShippingAddress', message: MSG.SHIPPING_ADDRESS_REQUIRED };
    case 'SHIPPING_FEE_REQUIRED':
      return { kind: 'warning', topic: 'requiredShippingfee', message: MSG.SHIPPING_ADDRESS_REQUIRED };
    default:
      return { kind: 'warning', topic: 'invalidData', message: problem.message };
  }
}

function orderNotice(problem: OrderProblem): Notice {
  const topic = problem.code === 'cart_pricing_usd_failed' ? 'priceUsdIsNull' : problem.code === 'dont_have_pricing' ? 'notFoundPricing' : 'invalidData';
  return { kind: 'error', topic, message: problem.message };
}

/**
 * An order the server refused with a code of its own checks: that problem (shown inline), else null.
 * `have_course` is also the server's refusal of a course with an open order (waiting for payment
 * or approval: one made meanwhile in another tab), so its message is the server's own, which says
 * which (the catalogue's text in the page's language); "you already own this course" would be
 * untrue of an unpaid order.
 */
function refusalProblem(error: unknown): OrderProblem | null {
  const f = failureOf(error);
  const problem = problemOfRefusal(f.code, f.result);
  return problem?.code === 'have_course' && f.msg !== f.code ? { ...problem, message: f.msg } : problem;
}

/**
 * What the buyer is told of a refused order (docs/decisions/0038): the check's message (a 401, the
 * session the server no longer knows, has a transition of its own); for a buyability refusal (FORBIDDEN) the
 * server's own catalogue text in the page's language; for any other code, CART_FAIL (the server's
 * other texts are not the buyer's: "Unauthorized", "Course 9 not found").
 */
function refusalNotice(error: unknown): Notice {
  const p = refusalProblem(error);
  if (p) return orderNotice(p);
  const f = failureOf(error);
  return { kind: 'error', topic: 'fail', message: f.code === 'FORBIDDEN' ? f.msg : MSG.CART_FAIL };
}

/** The failed call's error, as the order's error transitions' guards and actions read it. */
const refusalOf = ({ event }: { event: { error: unknown } }) => event.error;

/**
 * What every refusal the server answered does (docs/decisions/0038): a new key for the next click,
 * the problem shown inline, said as a toast, logged.
 */
const REFUSED = [
  'renewKey',
  { type: 'keepRefusal', params: refusalOf },
  { type: 'notify', params: ({ event }: { event: { error: unknown } }) => refusalNotice(event.error) },
  { type: 'log', params: ({ event }: { event: { error: unknown } }) => ({ message: 'order refused', detail: failureOf(event.error) }) },
] as const;

function couponNotAvailableNotice(error: unknown): Notice {
  const f = failureOf(error);
  const codes = Array.isArray(f.result) ? f.result.filter((x): x is string => typeof x === 'string') : [];
  return { kind: 'warning', topic: 'invalidCoupon', message: codes.length > 0 ? msgOf('COUPON_NOT_AVAILABLE_CODES', { codes: codes.join(', ') }) : MSG.COUPON_NOT_AVAILABLE };
}

export function paymentOrder(context: CheckoutContext): PaymentOrder {
  const order = context.order as CreatedOrder;
  const user = context.user as SessionUser;
  return {
    orderId: order.id,
    orderToken: order.token,
    amount: order.total,
    currency: context.cart.currency,
    methodId: order.methodId,
    email: user.email,
    name: `${user.firstname} ${user.lastname}`.trim(),
    tel: null,
  };
}

function freeReport(context: CheckoutContext, now: Instant = new Date()): PaymentReportPublic {
  const order = context.order as CreatedOrder;
  const user = context.user as SessionUser;
  const plans = context.cart.lines.map((l) => context.cart.plans.find((p) => p.id === l.pricing_plan_id)).filter((p) => p !== undefined);
  return freeOrderReport({ id: order.id, token: order.token }, { name: `${user.firstname} ${user.lastname}`.trim(), email: user.email }, freeOrderApproval(plans), new Date(now));
}

/** What the method's payment machine takes: the order, plus the bank-transfer form's defaults or GB Prime's thank-you choice. */
export function paymentInput(context: CheckoutContext, id: PaymentActorId): unknown {
  const order = paymentOrder(context);
  if (id === 'gbPrimeCard') return { order, thankYouPage: context.settings.thankYouPage };
  if (id !== 'bankTransfer') return { order };
  const local = thaiLocalNow();
  const user = context.user as SessionUser;
  return {
    order,
    slipRequired: context.settings.slipRequired,
    // Spec 2: 'later' is hidden in layout 4 for a buyer without registration.
    canNotifyLater: !(context.settings.layout === 4 && user.is_non_member),
    defaults: { contact_name: `${user.firstname} ${user.lastname}`.trim(), tel: '', transfer_datetime: local.date, time: local.time },
  };
}

const outputOf = ({ event }: { event: { output: unknown } }) => event.output as PaymentOutput;

/** How a payment machine's end leads on, for the ends it has (methods.ts `endsFor`): bank transfer's are all 'pending'. */
const paymentSettled = (id: PaymentActorId) =>
  endsFor(id, [
    [['paid', 'pending'], { guard: { type: 'paymentSucceeded', params: outputOf }, target: '#checkout.clearingCart' }],
    [['failed'], { guard: { type: 'paymentFailed', params: outputOf }, target: '#checkout.editing', actions: { type: 'afterPaymentFailure', params: outputOf } }],
    [['toOrders'], { target: '#checkout.leftForOrders' }],
  ] as const);

/** What the registration machine is given: the form as submitted, the shop's registration rules, and whether it logs in after. */
function registerAndLoginInput(form: { values: RegistrationValues; credential: string } | null, settings: CheckoutSettings, withLogin: boolean) {
  return { values: form?.values ?? {}, config: { ...settings.registration, withLogin }, credential: form?.credential ?? '' };
}

const registeredUser = ({ event }: { event: { output: unknown } }) => (event.output as { user: SessionUser }).user;

/** Registered and logged in (the modal's or the visitor's registration): the user kept, the session told, the cart told. */
const SIGNED_UP = [{ type: 'keepUser', params: registeredUser }, { type: 'announceSession', params: registeredUser }, 'tellCartLoggedIn'] as const;

const paymentCrashed = { target: '#checkout.leftForOrders', actions: { type: 'log', params: { message: 'payment machine failed' } } } as const;

export const checkoutMachine = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    input: {} as CheckoutInput,
    output: {} as CheckoutOutput,
    emitted: {} as CheckoutEmitted,
  },
  actors: {
    cart: cartMachine.provide({
      actions: {
        // The cart tells its parent, the checkout.
        announceChange: sendParent((_, summary: CartSummary) => ({ type: 'cart.changed', cart: summary })),
      },
    }),
    registerAndLogin: registerAndLoginMachine,
    setPassword: setPasswordMachine,
    taxGate: taxGateMachine,
    createOrder: providedByApp<CreateOrderResponse, CreateOrderInput>('createOrder'),
    /**
     * The buyer's profile read once more after the order's 401: its answer is not used; its own 401
     * goes through the API client's auth events to the session (spec section 6: Unauthorized on the
     * profile shows the session-expired modal), so the page stops showing a session the server has ended.
     */
    confirmSession: providedByApp<DataResponse<Student>, void>('confirmSession'),
    /** The buyer's ordered courses read again after a `have_course` for the page's course (GET /private/cart/ordercourse). */
    readOrderedCourses: providedByApp<OrderedFacts, void>('readOrderedCourses'),
    createPaymentReportPublic: providedByApp<PaymentReportResponse, PaymentReportPublic>('createPaymentReportPublic'),
    clearCart: providedByApp<SuccessResponse, ClearCartRequest>('clearCart'),
    ...PAYMENT_MACHINES,
  },
  guards: {
    notBuyable: ({ context }) => !buyabilityOf(context).buyable,
    submitBlocked: ({ context }) => submitProblemOf(context.cart) !== null,
    loggedIn: ({ context }) => context.user !== null,
    visitorRegisters: ({ context, event }) =>
      context.settings.layout === 4 && context.settings.registrationOnPage && event.type === 'checkout.submit' && !!event.registration,
    registered: (_, output: RegisterAndLoginOutput) => output.ok,
    orderWaits: ({ context }) => context.memberRegistration?.thenOrder === true,
    taxPassed: (_, output: TaxGateOutput) => output.passed,
    orderRefused: ({ context }) => orderProblemOf(context.cart) !== null,
    couponNotAvailable: (_, error: unknown) => failureOf(error).code === 'COUPON_NOT_AVAILABLE',
    // TIME_LEFT, and UNPAID_ORDERS_LIMIT (too many unpaid orders: the server's msg says to pay or cancel one first).
    timeLeft: (_, error: unknown) => ['TIME_LEFT', 'UNPAID_ORDERS_LIMIT'].includes(failureOf(error).code),
    quoteStale: (_, error: unknown) => failureOf(error).code === 'QUOTE_STALE',
    /** The server no longer knows the session (401). */
    sessionEnded: (_, error: unknown) => failureOf(error).status === 401,
    /** `have_course` for the page's course: an order of it the page did not know of (another tab). */
    pageCourseOrdered: ({ context }, error: unknown) => context.settings.buying != null && failureOf(error).code === 'have_course',
    /** The server answered with a refusal: that key made no order; the next submit makes a new one. */
    answeredRefusal: (_, error: unknown) => {
      const status = failureOf(error).status;
      return status >= 400 && status < 500;
    },
    freeOrder: ({ context }) => context.order !== null && context.order !== undefined && isFreeOrder(context.order.total),
    paymentSucceeded: (_, output: PaymentOutput) => output.result === 'paid' || output.result === 'pending',
    paymentFailed: (_, output: PaymentOutput) => output.result === 'failed',
    thankYouPage: ({ context }) => context.settings.thankYouPage,
    orderList: ({ context }) => !context.settings.thankYouPage,
  },
  actions: {
    ...effectDefaults,
    /** A cart with other content is another order: it gets its own key, before any click. */
    takeCart: assign(({ context }, cart: CartSummary) => {
      const content = orderContent(cart);
      return context.keyFor === content ? { cart, problem: null } : { cart, problem: null, ...freshKey(content) };
    }),
    /** The key sent is the one made for this content (made again only if the content changed unseen). */
    prepareKey: assign(({ context }) => {
      const content = orderContent(context.cart);
      return context.idempotencyKey && context.keyFor === content ? {} : freshKey(content);
    }),
    /** The server refused the order made with this key: the next click is a new attempt with a new key. */
    renewKey: assign(({ context }) => freshKey(orderContent(context.cart))),
    /** The refusal's problem, shown inline (a code of the order checks; else none). */
    keepRefusal: assign((_, error: unknown) => ({ problem: refusalProblem(error) })),
    /** The buyer's ordered courses as read again: the page's course's order and the owned courses; the refusal's message gives way when the course is now refused by what was read. */
    takeOrderedCourses: assign(({ context }, facts: OrderedFacts) => {
      const buying = context.settings.buying;
      if (!buying) return {};
      const settings = { ...context.settings, buying: { ...buying, orderStatus: facts.orderStatuses[buying.course.id] ?? null, orderId: facts.orderIds[buying.course.id] ?? null } };
      const cartInput = { ...context.cartInput, ownedCourseIds: facts.ownedCourseIds };
      return { settings, cartInput, problem: buyabilityOf({ ...context, settings, cartInput }).buyable ? context.problem : null };
    }),
    keepRegistration: assign(({ event }) => ({ registration: event.type === 'checkout.submit' ? (event.registration ?? null) : null, emailTaken: null })),
    keepUser: assign((_, user: SessionUser) => ({ user })),
    keepMemberRegistration: assign(({ event }, thenOrder: boolean) =>
      event.type === 'registration.submit' ? { memberRegistration: { values: event.values, credential: event.credential, thenOrder } } : {},
    ),
    tellCartLoggedIn: sendTo('cart', { type: 'session.loggedIn' as const }),
    /** The order was refused as stale: the cart asks the server for a fresh quote. */
    refreshQuote: sendTo('cart', { type: 'quote.refresh' as const }),
    /** The page shows the server's cart again (the /cart page reads it; elsewhere nothing). */
    reloadCart: () => {},
    announceSession: emit((_, user: SessionUser) => ({ type: 'session.established' as const, user })),
    emitBeginCheckout: emit(({ context }) => analyticsOf(context, 'begin_checkout')),
    emitPurchase: emit(({ context }) => analyticsOf(context, 'purchase')),
    warnSubmit: assign(({ context }) => ({ problem: submitProblemOf(context.cart) })),
    keepOrder: assign(({ context }, answer: CreateOrderResponse) => ({
      order: {
        id: answer.orderId,
        token: answer.order_detail.order_token,
        total: answer.order_detail.total_amount,
        methodId: (context.cart.paymentMethodId ?? 1) as PaymentMethodId,
      },
      problem: null,
    })),
    afterPaymentFailure: assign(({ context }, output: PaymentOutput) =>
      // PayPal deleted the order: the next click needs a new one (a new key).
      output.orderDeleted ? { order: null, ...freshKey(orderContent(context.cart)) } : { order: context.order },
    ),
    forwardResume: sendTo(({ context }) => methodActor(context.order?.methodId), { type: 'payment.resume' as const }),
  },
  delays: {
    /** Thank-you page after a payment (spec 9). */
    redirectDelay: 500,
    /** The order list (spec 9). */
    ordersRedirectDelay: 1000,
  },
}).createMachine({
  id: 'checkout',
  context: ({ input }) => ({
    settings: {
      layout: input.layout,
      registrationOnPage: input.registrationOnPage,
      usernameRegistration: input.usernameRegistration,
      thankYouPage: input.thankYouPage,
      slipRequired: input.slipRequired,
      taxSettings: input.taxSettings,
      registration: input.registration,
      buying: input.buying ?? null,
    },
    cartInput: input.cart,
    cart: cartSummary(initialCartContext(input.cart)),
    user: input.user,
    // Made before the click (providers.md): double clicks, two tabs and retries make one order.
    ...freshKey(orderContent(cartSummary(initialCartContext(input.cart)))),
    registration: null,
    order: null,
    problem: null,
    memberRegistration: null,
    cartFailed: false,
    emailTaken: null,
  }),
  invoke: [
    {
      id: 'cart',
      src: 'cart',
      input: ({ context }) => ({ ...context.cartInput, loggedIn: context.user !== null }),
      onError: {
        actions: [
          assign({ cartFailed: true }),
          { type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.CART_FAIL } },
          { type: 'log', params: ({ event }) => ({ message: 'cart failed', detail: event.error }) },
        ],
      },
    },
    {
      // Layout 4: a buyer signed in by a link may choose a username and password, whatever the checkout is doing.
      id: 'setPassword',
      src: 'setPassword',
      onError: { actions: { type: 'log', params: ({ event }) => ({ message: 'set password failed', detail: event.error }) } },
    },
  ],
  initial: 'editing',
  states: {
    editing: {
      on: {
        'checkout.submit': [
          {
            // A course that cannot be bought is not ordered: the reason (an unpaid order, owned, ...) is warned.
            guard: 'notBuyable',
            actions: { type: 'notify', params: ({ context }) => ({ kind: 'warning', topic: 'notBuyable', message: (buyabilityOf(context) as { message: Msg }).message }) },
          },
          {
            guard: 'submitBlocked',
            actions: ['warnSubmit', { type: 'notify', params: ({ context }) => submitWarning(submitProblemOf(context.cart) as OrderProblem) }],
          },
          { guard: 'loggedIn', target: 'creatingOrder' },
          { guard: 'visitorRegisters', target: 'registeringVisitor', actions: 'keepRegistration' },
          { target: 'awaitingLogin' },
        ],
        'cart.changed': { actions: { type: 'takeCart', params: ({ event }) => event.cart } },
        'session.loggedIn': { actions: [{ type: 'keepUser', params: ({ event }) => event.user }, 'tellCartLoggedIn'] },
        'registration.submit': { target: 'registeringMember', actions: { type: 'keepMemberRegistration', params: false } },
      },
    },
    /** The login/registration modal is open; the session machine logs in. */
    awaitingLogin: {
      on: {
        'session.loggedIn': { target: 'creatingOrder', actions: [{ type: 'keepUser', params: ({ event }) => event.user }, 'tellCartLoggedIn'] },
        'auth.dismiss': 'editing',
        'registration.submit': { target: 'registeringMember', actions: { type: 'keepMemberRegistration', params: true } },
      },
    },
    /** The modal's (or /cart's) registration with username, then its login; the session is told (session.established). */
    registeringMember: {
      invoke: {
        id: 'registerAndLogin',
        src: 'registerAndLogin',
        input: ({ context }) => registerAndLoginInput(context.memberRegistration, context.settings, true),
        onDone: [
          {
            guard: { type: 'registered', params: ({ event }) => event.output },
            target: 'signedUp',
            actions: SIGNED_UP,
          },
          // Refused (the registration machine said why): the form stays, in the modal when the order waits.
          { guard: 'orderWaits', target: 'awaitingLogin' },
          { target: 'editing' },
        ],
        onError: [
          { guard: 'orderWaits', target: 'awaitingLogin', actions: { type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.CART_FAIL } } },
          { target: 'editing', actions: { type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.CART_FAIL } } },
        ],
      },
    },
    /** Registered and logged in: the order goes on when it waited for the login, else the page goes on editing. */
    signedUp: {
      always: [{ guard: 'orderWaits', target: 'creatingOrder' }, { target: 'editing' }],
    },
    registeringVisitor: {
      invoke: {
        id: 'registerAndLogin',
        src: 'registerAndLogin',
        input: ({ context }) => registerAndLoginInput(context.registration, context.settings, context.settings.usernameRegistration),
        onDone: [
          {
            guard: { type: 'registered', params: ({ event }) => event.output },
            target: 'creatingOrder',
            actions: SIGNED_UP,
          },
          {
            target: 'editing',
            actions: assign(({ event }) => {
              const o = event.output as { code?: string | null; account?: 'member' | 'buyer' | null; email?: string };
              return { emailTaken: o.code === 'DUPLICATE_EMAIL' && o.account ? { email: o.email ?? '', account: o.account } : null };
            }),
          },
        ],
        onError: { target: 'editing', actions: { type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.CART_FAIL } } },
      },
    },
    creatingOrder: {
      entry: 'emitBeginCheckout',
      initial: 'checkingTax',
      states: {
        checkingTax: {
          invoke: {
            id: 'taxGate',
            src: 'taxGate',
            input: ({ context }) => ({
              price: context.cart.totals.subtotal,
              discount: context.cart.totals.discount,
              currency: context.cart.currency,
              settings: context.settings.taxSettings,
              withholding: context.cart.withholding && context.cart.totals.withholdingOffered,
            }),
            onDone: [{ guard: { type: 'taxPassed', params: ({ event }) => event.output }, target: 'checkingOrder' }, { target: '#checkout.editing' }],
            onError: { target: '#checkout.editing', actions: { type: 'log', params: { message: 'tax gate failed' } } },
          },
        },
        checkingOrder: {
          always: [
            {
              guard: 'orderRefused',
              target: '#checkout.editing',
              actions: [
                assign(({ context }) => ({ problem: orderProblemOf(context.cart) })),
                { type: 'notify', params: ({ context }) => orderNotice(orderProblemOf(context.cart) as OrderProblem) },
              ],
            },
            { target: 'postingOrder', actions: 'prepareKey' },
          ],
        },
        postingOrder: {
          invoke: {
            id: 'createOrder',
            src: 'createOrder',
            input: ({ context }) => ({ idempotencyKey: context.idempotencyKey, body: orderBody(context) }),
            onDone: { target: '#checkout.orderCreated', actions: { type: 'keepOrder', params: ({ event }) => event.output } },
            onError: [
              {
                guard: { type: 'couponNotAvailable', params: refusalOf },
                target: '#checkout.editing',
                actions: ['renewKey', { type: 'notify', params: ({ event }) => couponNotAvailableNotice(event.error) }],
              },
              {
                guard: { type: 'timeLeft', params: refusalOf },
                target: '#checkout.editing',
                actions: ['renewKey', { type: 'notify', params: ({ event }) => ({ kind: 'error', topic: 'timeLeft', message: shownOf(event.error) }) }],
              },
              {
                // The cart or a price changed since the buyer saw the quote: say so, show the server's cart and its quote.
                guard: { type: 'quoteStale', params: refusalOf },
                target: '#checkout.editing',
                actions: ['renewKey', { type: 'notify', params: ({ event }) => ({ kind: 'error', topic: 'cartChanged', message: shownOf(event.error) }) }, 'refreshQuote', 'reloadCart'],
              },
              {
                // The session ended on the server as the order went: "log in again" (never the server's
                // "Unauthorized"), then the session is confirmed with the server (docs/decisions/0038).
                guard: { type: 'sessionEnded', params: refusalOf },
                target: 'confirmingSession',
                actions: [
                  'renewKey',
                  { type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.SESSION_ENDED } },
                  { type: 'log', params: ({ event }) => ({ message: 'order refused', detail: failureOf(event.error) }) },
                ],
              },
              {
                // The page's course ordered meanwhile (in another tab): told as any refusal, then the
                // buyer's ordered courses are read again, as the page's loader reads them (docs/decisions/0038).
                guard: { type: 'pageCourseOrdered', params: refusalOf },
                target: 'rereadingOrders',
                actions: REFUSED,
              },
              {
                // Any other refusal is told too (another course of the cart bought meanwhile in another tab:
                // have_course), never a silent button (docs/decisions/0038).
                guard: { type: 'answeredRefusal', params: refusalOf },
                target: '#checkout.editing',
                actions: REFUSED,
              },
              // No answer (network, 5xx): said, and the key is kept, so the next click retries the same order.
              {
                target: '#checkout.editing',
                actions: [
                  { type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.CART_FAIL } },
                  { type: 'log', params: ({ event }) => ({ message: 'order failed', detail: failureOf(event.error) }) },
                ],
              },
            ],
          },
        },
        /**
         * After a `have_course` for the page's course: the buyer's ordered courses read again. The
         * page's course then has its order (waiting for payment or approval: "continue paying"), or
         * is owned, as the page's loader would read it, and the refusal's own message gives way to that. A
         * read that fails leaves the page as it was, with the refusal said.
         */
        rereadingOrders: {
          invoke: {
            id: 'readOrderedCourses',
            src: 'readOrderedCourses',
            onDone: { target: '#checkout.editing', actions: { type: 'takeOrderedCourses', params: ({ event }) => event.output } },
            onError: '#checkout.editing',
          },
        },
        /** After the order's 401: the profile read once more (its 401 ends the session in the page), then back to the form. */
        confirmingSession: {
          invoke: { id: 'confirmSession', src: 'confirmSession', onDone: '#checkout.editing', onError: '#checkout.editing' },
        },
      },
    },
    orderCreated: {
      always: [{ guard: 'freeOrder', target: 'filingFreeReport' }, { target: 'paying' }],
    },
    filingFreeReport: {
      invoke: {
        id: 'createPaymentReportPublic',
        src: 'createPaymentReportPublic',
        input: ({ context }) => freeReport(context),
        onDone: { target: 'clearingCart' },
        // Not recorded (no answer): the order stays unrecorded on the server, so no thank-you page;
        // said, and the key kept: the next click gets the same order back (its Idempotency-Key) and
        // files its free report again (the server answers a second report with the first).
        onError: {
          target: 'editing',
          actions: [
            { type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.FREE_ORDER_NOT_RECORDED } },
            { type: 'log', params: ({ event }) => ({ message: 'free order report failed', detail: failureOf(event.error) }) },
          ],
        },
      },
    },
    paying: {
      entry: 'persistSnapshot',
      on: {
        'payment.resume': { actions: 'forwardResume' },
        // The buyer closed the payment: the order stays payable from the order list (and the course page).
        'payment.leave': { target: 'leftForOrders' },
      },
      // The server accepted the order, so its method is one of the ten (domain orderProblem checked it).
      ...payingStates<CheckoutContext>({
        methodOf: (context) => context.order?.methodId,
        input: paymentInput,
        onDone: paymentSettled,
        onError: paymentCrashed,
      }),
    },
    clearingCart: {
      entry: 'emitPurchase',
      invoke: {
        id: 'clearCart',
        src: 'clearCart',
        input: ({ context }) => ({ user_id: String((context.user as SessionUser).id) }),
        onDone: { target: 'leaving' },
        onError: { target: 'leaving', actions: { type: 'log', params: { message: 'clearing the cart failed' } } },
      },
    },
    leaving: {
      after: {
        redirectDelay: {
          guard: 'thankYouPage',
          target: 'completed',
          actions: { type: 'navigate', params: ({ context }) => ({ to: ROUTES.thankYou(context.order?.token), external: false }) },
        },
        ordersRedirectDelay: { guard: 'orderList', target: 'completed', actions: { type: 'navigate', params: { to: ROUTES.orders, external: false } } },
      },
    },
    completed: {
      type: 'final',
      entry: 'clearPersistedSnapshot',
    },
    leftForOrders: {
      type: 'final',
      entry: ['clearPersistedSnapshot', { type: 'navigate', params: { to: ROUTES.orders, external: false } }],
    },
  },
  output: ({ context }) => ({
    orderId: context.order?.id ?? null,
    to: context.settings.thankYouPage && context.order ? ROUTES.thankYou(context.order.token) : ROUTES.orders,
  }),
});

export { methodActor };
