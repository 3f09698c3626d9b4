/**
 * Saved carts: reading one in the contract's shape, and saving one after checking its lines
 * (courses, plans, quantities, stock), coupons and payment method. The rows are
 * server/repos/carts.ts's and the catalogue's.
 */
import type { components } from '../../generated/api';
import type { Queryable } from '../db/index';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { MSG, type Shown } from '../../domain/messages';
import { duplicateCourse } from '../../domain/order-checks';
import { couponsByIds, coursesByIds, plansByIds } from '../repos/catalogue';
import { paymentMethodIsActive } from '../repos/settings';
import { cartLines, findCart, replaceCart } from '../repos/carts';

type S = components['schemas'];

const COUPON_STATUS: Record<string, number> = {
  NOT_FOUND: 404,
  COUPON_DUPLICATE: 409,
  COUPON_ONLY_ONE: 409,
};

/** A domain coupon failure as the API's error (every domain coupon code is an API ErrorCode). */
export function couponError(code: string, message: Shown): ApiError {
  return new ApiError(COUPON_STATUS[code] ?? 422, code, message);
}

export async function readCart(q: Queryable, owner: string, userIdText: string): Promise<S['Cart']> {
  const c = await findCart(q, owner);
  if (!c) return { cart_id: null, user_id: userIdText, lines: [], coupon_ids: [], payment_method_id: 1, updated_at: null };
  const lines = await cartLines(q, c.id);
  return {
    cart_id: c.id,
    user_id: userIdText,
    lines: lines.map((l) => ({
      key: `${l.course_id}-${l.pricing_plan_id}`,
      course_name: l.name,
      course_image: l.image,
      pricing_plan_id: l.pricing_plan_id,
      price: l.price,
      price_usd: l.price_usd,
      courseID: l.course_id,
      cartID: l.id,
      courseType: l.course_type,
      qty: l.qty,
      pricingType: l.pricing_type,
      stock: l.is_product && l.stock !== null ? Math.max(0, l.stock) : null,
    })),
    coupon_ids: c.coupon_ids,
    payment_method_id: c.payment_method_id as S['PaymentMethodId'],
    updated_at: c.updated_at.toISOString(),
  };
}

export async function saveCart(q: Queryable, owner: string, body: S['CartSave'], now: Date): Promise<void> {
  const lines = body.lines.map((l) => ({ course_id: l.course_id, pricing_plan_id: l.pricing_plan_id, qty: l.qty }));
  const dup = duplicateCourse(lines);
  if (dup !== null) throw new ApiError(400, 'duplicate_course', MSG.DUPLICATE_COURSE, [dup]);
  const courses = await coursesByIds(q, lines.map((l) => l.course_id));
  const plans = await plansByIds(q, lines.map((l) => l.pricing_plan_id));
  for (const l of lines) {
    const c = courses.get(l.course_id);
    if (!c) throw new ApiError(404, 'NOT_FOUND', `Course ${l.course_id} not found`);
    const p = plans.find((x) => x.id === l.pricing_plan_id);
    if (!p) throw new ApiError(404, 'NOT_FOUND', `Pricing plan ${l.pricing_plan_id} not found`);
    if (p.course_id !== c.id) throw new ApiError(422, 'dont_have_pricing', MSG.DONT_HAVE_PRICING, [c.id]);
    if (!c.is_product && l.qty !== 1) throw new ApiError(400, 'VALIDATION_ERROR', 'A course line has qty 1', [{ field: 'lines.qty', msg: MSG.INVALID_QTY }]);
    if (c.is_product && c.stock !== null && l.qty > c.stock) throw new ApiError(400, 'VALIDATION_ERROR', `Only ${c.stock} left of course ${c.id}`, [{ field: 'lines.qty', msg: MSG.INVALID_QTY }]);
  }
  const coupons = await couponsByIds(q, body.coupon_ids);
  const missing = body.coupon_ids.find((id) => !coupons.some((c) => c.id === id));
  if (missing !== undefined) throw new ApiError(404, 'NOT_FOUND', `Coupon ${missing} not found`);
  if (!(await paymentMethodIsActive(q, body.payment_method_id))) throw new ApiError(404, 'NOT_FOUND', `Payment method ${body.payment_method_id} not found`);
  await replaceCart(q, owner, { couponIds: body.coupon_ids, paymentMethodId: body.payment_method_id, lines }, now);
}

/** Saves the owner's cart and answers it as saved (one transaction). */
export async function saveAndReadCart(ctx: AppContext, owner: string, body: S['CartSave'], userIdText: string): Promise<S['Cart']> {
  return ctx.db.tx(async (q) => {
    await saveCart(q, owner, body, ctx.clock.now());
    return readCart(q, owner, userIdText);
  });
}
