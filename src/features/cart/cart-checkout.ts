/**
 * The /cart page's checkout: the same checkout machine as the course page, started from the
 * server cart's lines (several courses and books), whose cart child saves every line change
 * (saveLines) to the server cart.
 */
import type { cartMachine } from '../../../machines/cart/cart.machine';
import type { CartItem } from '../../../machines/cart/cart-summary';
import type { Currency } from '../../../domain/money';
import type { CheckoutInput } from '../../../machines/checkout/checkout.machine';
import type { SessionUser } from '../../../machines/shared/api';
import { defaultPlan, isPlanSelectable, offeredIn } from '../../../domain/plans';
import { pageCheckoutInput } from '../checkout/checkout-actor';
import { checkoutLogic, quoteAfter } from '../../api/checkout-logic';
import { msg } from '../../i18n/messages';
import { notify } from '../../ui';
import type { CartPageData } from './loader';
import { saveShopLines } from '../../api/shop-cart';

let saving: Promise<unknown> = Promise.resolve();

/** Saves in order (a later change never lands before an earlier one); a failed save is told, the page keeps the lines. */
function saveLines(_: unknown, lines: CartItem[]) {
  saving = saving.then(() =>
    saveShopLines(lines).catch((error: unknown) => {
      console.warn('[cart] save failed', error);
      notify({ kind: 'error', topic: 'fail', message: msg('CART_FAIL') });
    }),
  );
}

// The quote after the saves before it (quoteAfter): the saved cart it is bound to is the one shown.
const cartLogic = (checkoutLogic.implementations.actors.cart as typeof cartMachine).provide({ actions: { saveLines }, actors: { quoteCart: quoteAfter(() => saving) } });

let reload: () => void = () => {};

/** The page registers how to read the server's cart again (shown after an order refused as stale). */
export function setCartReloader(fn: () => void): () => void {
  reload = fn;
  return () => {
    if (reload === fn) reload = () => {};
  };
}

export const cartPageLogic = checkoutLogic.provide({ actors: { cart: cartLogic }, actions: { reloadCart: () => saving.then(() => reload()) } });

/** The checkout's input from the server cart: each line keeps its plan when this viewer may choose it, else gets the default one. */
export function cartCheckoutInput(data: CartPageData, user: SessionUser | null, chosenCurrency?: Currency): CheckoutInput {
  const { settings, purchase } = data;
  const loggedIn = user !== null;
  const owned = purchase.ownedCourseIds ?? [];
  const viewer = { loggedIn, ownedCourseIds: owned };
  const lines: CartItem[] = data.cart.lines.map((l) => {
    const own = purchase.plans.filter((p) => p.course_id === l.courseID);
    const kept = own.find((p) => p.id === l.pricing_plan_id && isPlanSelectable(p, viewer));
    const plan = kept ?? defaultPlan(own, viewer);
    const planId = plan?.id ?? l.pricing_plan_id;
    return {
      key: `${l.courseID}-${planId}`,
      course_id: l.courseID,
      pricing_plan_id: planId,
      qty: l.qty,
      course_type: l.courseType,
      course_name: l.course_name,
      course_image: l.course_image,
      stock: l.stock ?? null,
    };
  });
  // The switch shows when a line has a USD price; the cart machine offers USD only when every line has one.
  const usdEnabled = lines.some((l) => offeredIn(purchase.plans.filter((p) => p.course_id === l.course_id), viewer, 'USD'));
  const input = pageCheckoutInput({ settings, purchase, user, layout: 1, registrationOnPage: false, lines, plans: purchase.plans, usdEnabled });
  // A student's /cart is the saved cart: its quote (and the order) are bound to it, so a change made elsewhere is caught.
  // Read again (login, merge, a stale quote): the buyer's THB/USD choice is kept; the cart machine
  // still falls back to THB when a line has no price in it.
  return { ...input, cart: { ...input.cart, ...(chosenCurrency ? { currency: chosenCurrency } : {}), fromCart: loggedIn && data.student } };
}
