/**
 * Effects every machine asks the app to perform. Machines name them in setup() with no-op
 * defaults; the app provides the real ones with machine.provide({ actions }) (tests provide spies).
 * Machines never touch window, location, localStorage or the DOM themselves.
 */

import type { Shown } from '../../domain/messages';
import type { PaymentFailureReason } from '../../domain/order-outcome';

export type NoticeKind = 'success' | 'info' | 'warning' | 'error';

/** A toast: the spec's notifications (top right, 4-5 s). */
export interface Notice {
  kind: NoticeKind;
  /** What the spec calls the notification kind (invalidCoupon, emptyCart, timeLeft, fail, ...). */
  topic: string;
  title?: Shown;
  message: Shown;
  /** Why a payment did not pay, in the shop's words (the catalogue's `payFail_<reason>`), never the provider's text. */
  reason?: PaymentFailureReason;
}

/** Go somewhere: an app route (`external` false) or another site (3-D Secure, hosted payment page). */
export interface Navigation {
  to: string;
  external: boolean;
  /** In-app only: the page left is replaced in the history (a return page that would act again if gone back to). */
  replace?: boolean;
}

/** Post a hidden form to a provider's page (PaySolutions, the 2C2P card gateway). */
export interface FormPost {
  action: string;
  fields: Record<string, string>;
}

/** The no-op defaults, spread into setup({ actions }). */
export const effectDefaults = {
  notify: (_: unknown, _params: Notice) => {},
  navigate: (_: unknown, _params: Navigation) => {},
  /** Save the whole flow's persisted snapshot (see persistence.ts) before the page may be left. */
  persistSnapshot: () => {},
  /** Forget the saved flow (it ended). */
  clearPersistedSnapshot: () => {},
  postForm: (_: unknown, _params: FormPost) => {},
  /** Failures the spec says are only logged (console in the app). */
  log: (_: unknown, _params: { message: string; detail?: unknown }) => {},
};

/** The order list's search parameter naming the order whose payment starts there (`?pay=`). */
export const PAY_ORDER_PARAM = 'pay';

/** The app's routes that machines and views link to: written once here. */
export const ROUTES = {
  orders: '/myaccount/student/order',
  /** The order list, starting the payment of this order (the course page's "continue paying", the thank-you page's "pay"). */
  payOrder: (orderId: number): string => `/myaccount/student/order?${PAY_ORDER_PARAM}=${orderId}`,
  thankYou: (orderToken: string | null | undefined): string =>
    orderToken ? `/thankyou?orderId=${encodeURIComponent(orderToken)}` : '/thankyou',
} as const;
