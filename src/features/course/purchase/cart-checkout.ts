/**
 * The /cart page's checkout: the same checkout machine as the course page, started from the
 * server cart's lines (several courses and books), whose cart child saves every line change
 * (saveLines) to the server cart.
 */
import type { cartMachine } from '../../../../machines/cart/cart.machine';
import type { CartItem } from '../../../../machines/cart/cart-summary';
import type { CheckoutInput } from '../../../../machines/checkout/checkout.machine';
import type { SessionUser } from '../../../../machines/shared/api';
import { defaultPlan, isPlanSelectable } from '../../../../domain/plans';
import { checkoutLogic } from '../../../api/checkout-logic';
import { msg } from '../../../i18n/messages';
import { notify } from '../../../ui';
import type { CartPageData } from './cart-loader';
import { saveShopLines } from '../../../api/shop-cart';

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

const cartLogic = (checkoutLogic.implementations.actors.cart as typeof cartMachine).provide({ actions: { saveLines } });

export const cartPageLogic = checkoutLogic.provide({ actors: { cart: cartLogic } });

/** The checkout's input from the server cart: each line keeps its plan when this viewer may choose it, else gets the default one. */
export function cartCheckoutInput(data: CartPageData, user: SessionUser | null): CheckoutInput {
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
  // USD is offered only when every line has a plan with a USD price.
  const usdEnabled = lines.length > 0 && lines.every((l) => purchase.plans.some((p) => p.course_id === l.course_id && p.price_usd !== null && p.price_usd !== undefined));
  const taxSettings = {
    vat_value: settings.vat_value,
    is_enable_vat: settings.is_enable_vat,
    is_enable_tax_invoice: settings.is_enable_tax_invoice,
    is_enable_withholding_tax: settings.is_enable_withholding_tax,
  };
  return {
    layout: 1,
    registrationOnPage: false,
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
      plans: purchase.plans,
      promotions: purchase.promotions,
      paymentMethods: purchase.methods.map((m) => ({ id: m.id, name: m.name_web ?? m.name })),
      currency: settings.currency === 'USD' && !usdEnabled ? 'THB' : settings.currency,
      usdEnabled,
      loggedIn,
      ownedCourseIds: owned,
      settings: { is_one_coupon_only: settings.is_one_coupon_only, is_coupon_promotion_exclusive: settings.is_coupon_promotion_exclusive },
      taxSettings,
    },
  };
}
