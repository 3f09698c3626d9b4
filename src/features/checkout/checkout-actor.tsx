/**
 * The course page's one actor: the checkout (machines/checkout) with the app's real actors. Its
 * input is built from the loader's data; a flow saved before the page was left (a QR shown, a
 * provider's page) is restored for the same course and resumed.
 */
import { createActorContext } from '@xstate/react';
import { useEffect, useRef, type ReactNode } from 'react';
import type { Snapshot } from 'xstate';
import type { CartItem } from '../../../machines/cart/cart-summary';
import type { AnalyticsEmitted, CheckoutInput } from '../../../machines/checkout/checkout.machine';
import type { PricingPlan } from '../../../domain/types';
import { FLOW_ROOT } from '../../../machines/shared/persistence';
import type { SessionUser } from '../../../machines/shared/api';
import { actorOptions } from '../../api/actor-options';
import { checkoutLogic } from '../../api/checkout-logic';
import { flowPersistence } from '../../api/effects';
import { SessionContext } from '../../session';
import type { PurchasePageData as CoursePageData } from './purchase-data';
import type { LayoutId } from './purchase-data';
import { defaultPlan } from '../../../domain/plans';

export const CheckoutContext = createActorContext(checkoutLogic);

/** What a page gives the checkout: the site's settings, the purchase data, who buys, and the cart's first lines. */
export interface PageCheckout {
  settings: CoursePageData['settings'];
  purchase: Pick<CoursePageData['purchase'], 'customLabels' | 'plans' | 'promotions' | 'methods' | 'ownedCourseIds'>;
  user: SessionUser | null;
  layout: LayoutId;
  registrationOnPage: boolean;
  lines: CartItem[];
  plans: PricingPlan[];
  /** The THB/USD switch is offered (the cart machine still refuses USD while a line has no USD price). */
  usdEnabled: boolean;
}

/** The checkout's input, the same for the course page, the product page and /cart. */
export function pageCheckoutInput({ settings, purchase, user, layout, registrationOnPage, lines, plans, usdEnabled }: PageCheckout): CheckoutInput {
  const taxSettings = {
    vat_value: settings.vat_value,
    is_enable_vat: settings.is_enable_vat,
    is_enable_tax_invoice: settings.is_enable_tax_invoice,
    is_enable_withholding_tax: settings.is_enable_withholding_tax,
  };
  return {
    layout,
    registrationOnPage,
    // The contract has no setting for a layout-4 registration with username: non-member purchase.
    usernameRegistration: false,
    thankYouPage: settings.is_thank_you_page,
    slipRequired: settings.is_require_payment_slip,
    taxSettings,
    registration: {
      registerForm: settings.registerForm,
      is_student_select_group: settings.is_student_select_group,
      customLabels: purchase.customLabels,
      taxInvoice: settings.is_enable_tax_invoice,
      withLogin: false,
    },
    user,
    cart: {
      lines,
      plans,
      promotions: purchase.promotions,
      paymentMethods: purchase.methods.map((m) => ({ id: m.id, name: m.name_web ?? m.name })),
      // The cart machine starts in THB when a line has no price in the site's currency.
      currency: settings.currency,
      usdEnabled,
      loggedIn: user !== null,
      ownedCourseIds: purchase.ownedCourseIds ?? [],
      settings: { is_one_coupon_only: settings.is_one_coupon_only, is_coupon_promotion_exclusive: settings.is_coupon_promotion_exclusive },
      taxSettings,
    },
  };
}

export function checkoutInput(data: CoursePageData, user: SessionUser | null, layout: LayoutId): CheckoutInput {
  const { course, settings, purchase } = data;
  const plans = purchase.plans.filter((p) => p.course_id === course.id);
  // The cart machine moves the line to a plan priced in the cart's currency (USD: only plans with a USD price).
  const plan = defaultPlan(plans, { loggedIn: user !== null, ownedCourseIds: purchase.ownedCourseIds ?? [] });
  const input = pageCheckoutInput({
    settings,
    purchase,
    user,
    layout,
    registrationOnPage: layout === 4 && (course.is_layout_course_registration ?? settings.is_layout_course_registration) === true,
    lines: plan
      ? [{ key: `${course.id}-${plan.id}`, course_id: course.id, pricing_plan_id: plan.id, qty: 1, course_type: course.course_type, course_name: course.name, course_image: course.image, stock: data.stock ?? null }]
      : [],
    plans,
    usdEnabled: course.default_price_usd !== null && course.default_price_usd !== undefined,
  });
  // The page's course: the checkout decides whether this buyer may buy it (the panel shows its reason).
  const buying = {
    course,
    orderStatus: purchase.orderStatuses[course.id] ?? null,
    orderId: purchase.orderIds?.[course.id] ?? null,
    plan: purchase.plans.find((p) => p.course_id === course.id && p.is_default) ?? null,
  };
  return { ...input, buying };
}

/** A saved flow of this course that was paying, or null. */
function savedFlowFor(courseId: number): Snapshot<unknown> | null {
  const saved = flowPersistence.restore() as (Snapshot<unknown> & { value?: unknown; context?: { cart?: { lines?: { course_id: number }[] } } }) | null;
  if (!saved || saved.status !== 'active') return null;
  const paying = typeof saved.value === 'object' && saved.value !== null && 'paying' in saved.value;
  const same = saved.context?.cart?.lines?.some((l) => l.course_id === courseId) ?? false;
  return paying && same ? saved : null;
}

/** Spec 7: the e-commerce data-layer events (begin_checkout, purchase) the checkout emits, pushed as they come. */
function pushDataLayer({ event, ecommerce }: AnalyticsEmitted) {
  const w = window as unknown as { dataLayer?: unknown[] };
  w.dataLayer = w.dataLayer ?? [];
  w.dataLayer.push({ event, ecommerce });
}

/** The checkout's analytics events go to the data layer (the machine decides when; this only forwards). */
export function DataLayer() {
  const checkout = CheckoutContext.useActorRef();
  useEffect(() => {
    const sub = checkout.on('analytics', pushDataLayer);
    return () => sub.unsubscribe();
  }, [checkout]);
  return null;
}

/**
 * Session <-> checkout: a login continues the order (`forwardLogin`; /cart instead reads its data
 * again at login and starts a new checkout); a registration in the checkout logs the session in.
 */
export function SessionLink({ forwardLogin = true }: { forwardLogin?: boolean }) {
  const checkout = CheckoutContext.useActorRef();
  const session = SessionContext.useActorRef();
  useEffect(() => {
    const a = forwardLogin ? session.on('session.loggedIn', (e) => checkout.send({ type: 'session.loggedIn', user: e.user })) : null;
    const b = checkout.on('session.established', (e) => session.send({ type: 'session.established', user: e.user }));
    return () => {
      a?.unsubscribe();
      b.unsubscribe();
    };
  }, [checkout, session, forwardLogin]);
  return null;
}

/** A saved flow resumes: at start, and when the browser brings the page back from its back/forward cache. */
function ResumeBridge({ resumed }: { resumed: boolean }) {
  const checkout = CheckoutContext.useActorRef();
  const once = useRef(false);
  useEffect(() => {
    if (resumed && !once.current) {
      once.current = true;
      checkout.send({ type: 'payment.resume' });
    }
  }, [resumed, checkout]);
  // The back button from a provider page may bring this page back from the browser's back/forward
  // cache, alive as it was left (no restore, no timers run meanwhile): resume it the same way.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) checkout.send({ type: 'payment.resume' });
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [checkout]);
  return null;
}

export type CheckoutLogic = typeof checkoutLogic;

export function CheckoutProvider({ data, layout, children, logic }: { data: CoursePageData; layout: LayoutId; children: ReactNode; logic?: CheckoutLogic }) {
  const user = SessionContext.useSelector((s) => s.context.user);
  const saved = useRef<Snapshot<unknown> | null | undefined>(undefined);
  if (saved.current === undefined) saved.current = savedFlowFor(data.course.id);
  const input = checkoutInput(data, user, layout);
  return (
    <CheckoutContext.Provider
      logic={logic}
      options={{
        ...actorOptions('checkout'),
        systemId: FLOW_ROOT,
        input,
        ...(saved.current ? { snapshot: saved.current as never } : {}),
      }}
    >
      <SessionLink />
      <ResumeBridge resumed={saved.current !== null} />
      <DataLayer />
      {children}
    </CheckoutContext.Provider>
  );
}
