/**
 * The shop's cart on the server (spec "Cart line", `GET /private/cart` for a student,
 * `GET /public/cart/{userId}` for a visitor under the visitor id the browser keeps): read, add a
 * course or book with its default plan, save the lines the cart machine announces, and merge the
 * visitor's cart into the student's at login. Prices are never sent: the server prices the lines.
 */
import type { components } from '../../generated/api';
import { defaultPlan } from '../../domain/plans';
import type { CartItem } from '../../machines/cart/cart-summary';
import { cartRequests } from './requests/cart';
import { keptUserId, visitorId } from './storage';

export type ServerCart = components['schemas']['Cart'];
export type ServerCartLine = components['schemas']['CartLine'];
type SavedLine = components['schemas']['CartSave']['lines'][number];

/** A student is logged in (the kept id, which each navigation's loaders make agree with the server: signed-in.ts): the cart is the student's server cart. */
export const isStudent = (): boolean => keptUserId() !== null;

export async function readShopCart(signal?: AbortSignal): Promise<ServerCart> {
  if (isStudent()) return (await cartRequests.getCartPrivate.call(undefined, signal)).data;
  return (await cartRequests.getCartPublic.call({ userId: visitorId() }, signal)).data;
}

function body(cart: Pick<ServerCart, 'coupon_ids' | 'payment_method_id'>, lines: readonly SavedLine[]): components['schemas']['CartSave'] {
  return { lines: lines.map((l) => ({ course_id: l.course_id, pricing_plan_id: l.pricing_plan_id, qty: l.qty })), coupon_ids: cart.coupon_ids, payment_method_id: cart.payment_method_id };
}

async function write(lines: readonly SavedLine[], base: Pick<ServerCart, 'coupon_ids' | 'payment_method_id'>, student: boolean): Promise<ServerCart> {
  if (student) return (await cartRequests.saveCartPrivate.call({ cart: body(base, lines) })).data;
  return (await cartRequests.saveCartPublic.call({ userId: visitorId(), cart: body(base, lines) })).data;
}

const savedOf = (l: ServerCartLine): SavedLine => ({ course_id: l.courseID, pricing_plan_id: l.pricing_plan_id, qty: l.qty });

/** Saves the lines as the cart machine holds them (the saveLines effect of the /cart page). */
export async function saveShopLines(lines: readonly CartItem[]): Promise<ServerCart> {
  return write(
    lines.map((l) => ({ course_id: l.course_id, pricing_plan_id: l.pricing_plan_id, qty: l.qty ?? 1 })),
    { coupon_ids: [], payment_method_id: 1 },
    isStudent(),
  );
}

export type AddResult = { added: true; cart: ServerCart } | { added: false; reason: 'inCart' | 'noPlan' };

/** Adds a course or a book (`qty` copies, 1 for a course) with the plan this viewer gets by default; a course already in the cart stays once. */
export async function addToShopCart(courseId: number, qty = 1): Promise<AddResult> {
  const cart = await readShopCart();
  if (cart.lines.some((l) => l.courseID === courseId)) return { added: false, reason: 'inCart' };
  const plans = (await cartRequests.getAllPricingPlans.call({ courseID: [courseId] })).data;
  const plan = defaultPlan(
    plans.filter((p) => p.course_id === courseId),
    { loggedIn: isStudent(), ownedCourseIds: [] },
  );
  if (!plan) return { added: false, reason: 'noPlan' };
  const saved = await write([...cart.lines.map(savedOf), { course_id: courseId, pricing_plan_id: plan.id, qty }], cart, isStudent());
  return { added: true, cart: saved };
}

/**
 * At login: the visitor's cart joins the student's server cart (the student's line wins for a
 * course in both), then the visitor's cart is emptied. Nothing happens when the visitor's cart is empty.
 */
export async function mergeVisitorCart(signal?: AbortSignal): Promise<void> {
  if (!isStudent()) return;
  const visitor = (await cartRequests.getCartPublic.call({ userId: visitorId() }, signal)).data;
  if (visitor.lines.length === 0) return;
  const own = (await cartRequests.getCartPrivate.call(undefined, signal)).data;
  const merged = [...own.lines.map(savedOf), ...visitor.lines.filter((v) => !own.lines.some((o) => o.courseID === v.courseID)).map(savedOf)];
  await write(merged, own, true);
  await cartRequests.clearCart.call({ user_id: visitorId() }, signal);
}
