/**
 * The /cart page's data: the visitor's cart merged into the student's first (at login), then
 * the cart with everything its checkout starts from — the plans of every line, promotions,
 * payment methods, owned courses, registration fields, and for books the shipping fees and the
 * student's addresses.
 */
import { redirect } from 'react-router';
import { returnLink } from '../../api/storage';
import { readsAsStudent } from '../../api/signed-in';
import { loadSiteSettings, type SiteSettings } from '../../api/settings';
import { optional } from '../../api/optional';
import { loadPurchaseLines, type PurchaseData } from '../checkout/purchase-data';
import { mergeVisitorCart, readShopCart, type ServerCart } from '../../api/shop-cart';

export interface CartPageData {
  cart: ServerCart;
  settings: SiteSettings;
  purchase: PurchaseData;
  /** Logged in as a student when the data was read (the page reloads it at login). */
  student: boolean;
}

/**
 * Logged in (from the header's login link) with nothing in the cart: the route goes back to the
 * page the visitor came from (the return link the course page kept) instead of an empty cart.
 */
export function followReturnLink(data: CartPageData): CartPageData {
  const back = returnLink();
  if (data.student && data.cart.lines.length === 0 && back) throw redirect(back);
  return data;
}

export async function cartLoader({ request }: { request: Request }): Promise<CartPageData> {
  return followReturnLink(await readCartPage(request));
}

async function readCartPage(request: Request): Promise<CartPageData> {
  const signal = request.signal;
  const student = await readsAsStudent(request);
  // A failed merge leaves both carts as they were; the student's cart is shown.
  if (student) await optional(mergeVisitorCart(signal), undefined);
  const [cart, settings] = await Promise.all([readShopCart(signal), loadSiteSettings(signal)]);
  const purchase = await loadPurchaseLines(
    { courseIds: cart.lines.map((l) => l.courseID), student, shipping: cart.lines.some((l) => l.courseType === 'Product') },
    signal,
  );
  return { cart, settings, student, purchase };
}
