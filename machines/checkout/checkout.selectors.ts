import type { AnyActorRef, SnapshotFrom } from 'xstate';
import { submitProblem } from '../../domain/order-checks';
import type { Notice } from '../shared/effects';
import type { Buyability } from '../../domain/buyability';
import { buyabilityOf, methodActor, submitWarning, type checkoutMachine } from './checkout.machine';
import { MSG, type Shown } from '../../domain/messages';

type S = SnapshotFrom<typeof checkoutMachine>;

export type SubmitBlock = 'emptyCart' | 'creating' | 'shippingAddress' | 'shippingFee';

/** Order creation (or the auth before it, or the payment) is in progress. */
export function selectCreating(s: S): boolean {
  return !s.matches('editing');
}

/**
 * Why submit is disabled (spec 5): the cart is empty, an order is being created, a required
 * shipping address or shipping fee is not chosen; null when it is enabled. (An unselected usable
 * promotion does not disable it: the click warns.)
 */
export function selectSubmitBlock(s: S): SubmitBlock | null {
  if (selectCreating(s)) return 'creating';
  const c = s.context.cart;
  const problem = submitProblem({ lines: c.lines, plans: c.plans, currency: c.currency, shippingAddressId: c.shippingAddressId, shippingFeeId: c.shippingFee?.id ?? null });
  if (!problem) return null;
  if (problem.code === 'empty_cart') return 'emptyCart';
  return problem.code === 'SHIPPING_ADDRESS_REQUIRED' ? 'shippingAddress' : 'shippingFee';
}

export const selectSubmitDisabled = (s: S): boolean => selectSubmitBlock(s) !== null;

/** What a click on the disabled button warns ('ยังไม่มีสินค้าในรถเข็น' / 'กรุณากรอกข้อมูลที่อยู่จัดส่ง'); null when enabled or creating. */
export function selectSubmitWarning(s: S): Notice | null {
  const block = selectSubmitBlock(s);
  if (block === null || block === 'creating') return null;
  return submitWarning({ code: block === 'emptyCart' ? 'empty_cart' : block === 'shippingAddress' ? 'SHIPPING_ADDRESS_REQUIRED' : 'SHIPPING_FEE_REQUIRED', message: MSG.EMPTY_CART });
}

/** The message of the last stopped submit (promotion not chosen, duplicate course, no USD price, ...). */
export const selectCheckoutProblem = (s: S): Shown | null => s.context.problem?.message ?? null;

/**
 * Where the buyer goes on from the last stopped submit: a course the buyer already has or has an
 * order of (have_course, the page's own check or the server's refusal) is on the order list, where
 * an unpaid order is paid or cancelled; null when the form itself is the way on.
 */
export const selectProblemWayOn = (s: S): 'orders' | null => (s.context.problem?.code === 'have_course' ? 'orders' : null);

/** The login/registration modal (not logged in at submit), open while its registration runs too. */
export const selectLoginModalOpen = (s: S): boolean => s.matches('awaitingLogin') || (s.matches('registeringMember') && s.context.memberRegistration?.thenOrder === true);

/** A registration with username (the modal's or /cart's) is being sent. */
export const selectRegistering = (s: S): boolean => s.matches('registeringMember');

export const selectOrder = (s: S) => s.context.order;

/** The cart panel's actor (its view sends cart events to it). */
export const selectCartRef = (s: S): AnyActorRef | undefined => s.children.cart as AnyActorRef | undefined;
/** The tax gate's actor while it runs (its modals render from it). */
export const selectTaxGateRef = (s: S): AnyActorRef | undefined => s.children.taxGate as AnyActorRef | undefined;
/** Layout 4's set-password child (the page's life): its form renders from it. */
export const selectSetPasswordRef = (s: S): AnyActorRef | undefined => s.children.setPassword as AnyActorRef | undefined;
/** The running payment machine and which one (its panel renders from it). */
export function selectPayment(s: S): { method: string; ref: AnyActorRef } | null {
  if (!s.matches('paying') || !s.context.order) return null;
  const method = methodActor(s.context.order.methodId);
  const ref = (s.children as Record<string, AnyActorRef | undefined>)[method];
  return ref ? { method, ref } : null;
}

/** The cart panel crashed: show the failure instead of the cart. */
export const selectCartFailed = (s: S): boolean => s.context.cartFailed;

/** The layout-4 registration was refused because the e-mail has an account (member or buyer): the way in to offer. */
export const selectEmailTaken = (s: S): { email: string; account: 'member' | 'buyer' } | null => s.context.emailTaken;

/** May this buyer buy the page's course now (the panel shows the reason; the submit warns it instead of ordering). */
/** The page's cart is a free course (priced, and its subtotal 0): its unpaid order is one left unrecorded, to record, not to pay. */
export const selectFreeCart = (s: S): boolean => s.context.cart.lines.length > 0 && s.context.cart.totals.pricingError === null && s.context.cart.totals.subtotal === 0;

export const selectBuyability = (s: S, now: number = Date.now()): Buyability => buyabilityOf(s.context, now);
