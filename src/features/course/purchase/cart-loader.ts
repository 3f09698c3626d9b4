/**
 * The /cart page's data: the visitor's cart merged into the student's first (at login), then
 * the cart with everything its checkout starts from — the plans of every line, promotions,
 * payment methods, owned courses, registration fields, and for books the shipping fees and the
 * student's addresses.
 */
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { loadSiteSettings, type PurchaseData, type SiteSettings } from '../loader';
import { isStudent, mergeVisitorCart, readShopCart, type ServerCart } from '../../../api/shop-cart';

export interface CartPageData {
  cart: ServerCart;
  settings: SiteSettings;
  purchase: PurchaseData;
  /** Logged in as a student when the data was read (the page reloads it at login). */
  student: boolean;
}

async function optional<T>(p: Promise<T>, fallback: T): Promise<T> {
  try {
    return await p;
  } catch {
    return fallback;
  }
}

export async function cartLoader({ request }: { request: Request }): Promise<CartPageData> {
  const signal = request.signal;
  const student = isStudent();
  // A failed merge leaves both carts as they were; the student's cart is shown.
  if (student) await optional(mergeVisitorCart(signal), undefined);
  const [cart, settings] = await Promise.all([readShopCart(signal), loadSiteSettings(signal)]);
  const ids = [...new Set(cart.lines.map((l) => l.courseID))];
  const physical = cart.lines.some((l) => l.courseType === 'Product');
  const [plans, promotions, methods, owned, customLabels, userGroups, shippingFees, shippingAddresses] = await Promise.all([
    ids.length ? api.POST('/public/cart/getallpriecingplan', { body: { courseID: ids }, signal }).then((r) => unwrap(r, 'getAllPricingPlans').data) : Promise.resolve([]),
    optional(api.GET('/public/cart/promotion/all', { signal }).then((r) => unwrap(r, 'getAllPromotions').data), []),
    api.GET('/public/cart/payments/methods', { signal }).then((r) => unwrap(r, 'getCartPaymentMethods').data),
    student ? optional(api.GET('/private/cart/ordercourse', { signal }).then((r) => unwrap(r, 'listOrderedCourses').data), null) : Promise.resolve(null),
    optional(api.GET('/public/customlabel', { signal }).then((r) => unwrap(r, 'listCustomLabels').data), []),
    optional(api.GET('/api/user/group', { signal }).then((r) => unwrap(r, 'listUserGroups').data), []),
    physical ? api.GET('/public/shipping/fees', { signal }).then((r) => unwrap(r, 'listShippingFees').data) : Promise.resolve(undefined),
    physical && student ? api.GET('/private/shipping/addresses', { signal }).then((r) => unwrap(r, 'listShippingAddresses').data) : Promise.resolve(physical ? [] : undefined),
  ]);
  return {
    cart,
    settings,
    student,
    purchase: {
      plans,
      promotions,
      methods,
      ownedCourseIds: owned ? owned.filter((c) => c.status === 'approved').map((c) => c.courseID) : null,
      orderStatuses: Object.fromEntries((owned ?? []).map((c) => [c.courseID, c.status])),
      customLabels,
      userGroups,
      ...(shippingFees ? { shippingFees } : {}),
      ...(shippingAddresses ? { shippingAddresses } : {}),
    },
  };
}
