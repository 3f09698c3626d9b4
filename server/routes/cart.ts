/** Carts, coupons, promotions, pricing plans, shipping fees, book-store cart (tag cart). */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Handlers } from '../openapi/router';
import type { components } from '../../generated/api';
import { ApiError, requestLocale } from '../errors';
import { quoteOfChoices } from '../orders/quote';
import type { Queryable } from '../db/index';
import {
  activePromotions,
  couponByCode,
  couponForApi,
  couponForDomain,
  couponsByIds,
  coursesByIds,
  plansByIds,
  plansOfCourses,
  planForApi,
  planForDomain,
  promotionForApi,
  viewerFor,
  listShippingFees,
} from '../repos/catalogue';
import { loadSettings, pricingSettings } from '../repos/settings';
import { plansForViewer } from '../../domain/plans';
import { validateCoupon, priceCart } from '../../domain/discounts';
import { duplicateCourse } from '../../domain/order-checks';
import { MSG, msgOf, renderShown, type Shown } from '../../domain/messages';

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

/** The cart owner key: a student's own cart ('u:<id>') or a visitor's ('v:<id>'). */
function ownerKey(req: FastifyRequest, pathId: string): string {
  const u = req.user;
  if (u && u.role === 'student' && String(u.id) === pathId) return `u:${u.id}`;
  return `v:${pathId}`;
}

interface CartRow {
  id: number;
  owner: string;
  coupon_ids: number[];
  payment_method_id: number;
  updated_at: Date;
}

export async function readCart(q: Queryable, owner: string, userIdText: string): Promise<S['Cart']> {
  const c = (await q.query<CartRow>('SELECT * FROM carts WHERE owner = $1', [owner])).rows[0];
  if (!c) return { cart_id: null, user_id: userIdText, lines: [], coupon_ids: [], payment_method_id: 1, updated_at: null };
  const lines = await q.query<{ id: number; course_id: number; pricing_plan_id: number; qty: number; name: string; image: string | null; course_type: S['CourseType']; price: number; price_usd: number | null; pricing_type: 'default' | 'renew'; stock: number | null; is_product: boolean }>(
    `SELECT l.id, l.course_id, l.pricing_plan_id, l.qty, c.name, c.image, c.course_type, c.stock, c.is_product, p.price, p.price_usd, p.pricing_type
       FROM cart_lines l JOIN courses c ON c.id = l.course_id JOIN pricing_plans p ON p.id = l.pricing_plan_id
      WHERE l.cart_id = $1 ORDER BY l.position, l.id`,
    [c.id],
  );
  return {
    cart_id: c.id,
    user_id: userIdText,
    lines: lines.rows.map((l) => ({
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

async function saveCart(q: Queryable, owner: string, body: S['CartSave'], now: Date): Promise<void> {
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
  const method = await q.query('SELECT 1 FROM payment_methods WHERE id = $1 AND is_active', [body.payment_method_id]);
  if (method.rows.length === 0) throw new ApiError(404, 'NOT_FOUND', `Payment method ${body.payment_method_id} not found`);
  const cart = await q.query<{ id: number }>(
    `INSERT INTO carts (owner, coupon_ids, payment_method_id, updated_at) VALUES ($1, $2::int[], $3, $4)
     ON CONFLICT (owner) DO UPDATE SET coupon_ids = EXCLUDED.coupon_ids, payment_method_id = EXCLUDED.payment_method_id, updated_at = EXCLUDED.updated_at
     RETURNING id`,
    [owner, [...new Set(body.coupon_ids)], body.payment_method_id, now],
  );
  const cartId = cart.rows[0]!.id;
  await q.query('DELETE FROM cart_lines WHERE cart_id = $1', [cartId]);
  for (const [i, l] of lines.entries()) {
    await q.query('INSERT INTO cart_lines (cart_id, course_id, pricing_plan_id, qty, position) VALUES ($1, $2, $3, $4, $5)', [cartId, l.course_id, l.pricing_plan_id, l.qty, i]);
  }
}

export const cartHandlers: Handlers = {
  async getCartPublic(req, _reply, ctx) {
    return { success: true, data: await readCart(ctx.db, ownerKey(req, req.params.userId), req.params.userId) };
  },

  async saveCartPublic(req, _reply, ctx) {
    const owner = ownerKey(req, req.params.userId);
    const data = await ctx.db.tx(async (q) => {
      await saveCart(q, owner, req.body, ctx.clock.now());
      return readCart(q, owner, req.params.userId);
    });
    return { success: true, data };
  },

  async getCartPrivate(req, _reply, ctx) {
    return { success: true, data: await readCart(ctx.db, `u:${req.user!.id}`, String(req.user!.id)) };
  },

  async saveCartPrivate(req, _reply, ctx) {
    const owner = `u:${req.user!.id}`;
    const data = await ctx.db.tx(async (q) => {
      await saveCart(q, owner, req.body, ctx.clock.now());
      return readCart(q, owner, String(req.user!.id));
    });
    return { success: true, data };
  },

  async clearCart(req, _reply, ctx) {
    const id = req.body.user_id;
    let owner: string;
    if (/^\d+$/.test(id)) {
      if (!req.user || req.user.role !== 'student' || String(req.user.id) !== id) throw new ApiError(403, 'FORBIDDEN', "A student's cart can only be emptied by that student");
      owner = `u:${id}`;
    } else owner = `v:${id}`;
    await ctx.db.query('DELETE FROM carts WHERE owner = $1', [owner]);
    return { success: true };
  },

  async getCouponByCouponCode(req, _reply, ctx) {
    const b = req.body;
    const now = ctx.clock.now();
    const row = await couponByCode(ctx.db, b.coupon_code);
    if (!row || row.status !== 1) throw new ApiError(404, 'NOT_FOUND', MSG.NOT_FOUND);
    // Outside its dates the coupon exists: the buyer is told why it cannot be used.
    if (row.ends_at && row.ends_at <= now) throw new ApiError(422, 'COUPON_EXPIRED', MSG.COUPON_EXPIRED);
    if (row.starts_at && row.starts_at > now) throw new ApiError(422, 'COUPON_NOT_YET_VALID', MSG.COUPON_NOT_YET_VALID);
    if (row.usage_limit !== null && row.used_count >= row.usage_limit) {
      throw new ApiError(422, 'COUPON_NOT_AVAILABLE', msgOf('COUPON_NOT_AVAILABLE_CODES', { codes: row.code }), [row.code]);
    }
    const withContext = b.course_ids !== undefined || b.payment_method_id !== undefined || b.applied_coupon_ids !== undefined;
    if (withContext) {
      const settings = await loadSettings(ctx.db);
      const applied = (await couponsByIds(ctx.db, b.applied_coupon_ids ?? [])).map(couponForDomain);
      const check = validateCoupon(couponForDomain(row), {
        lines: (b.course_ids ?? []).map((course_id) => ({ course_id })),
        applied,
        paymentMethodId: b.payment_method_id === undefined ? 1 : b.payment_method_id,
        currency: 'THB',
        settings: pricingSettings(settings),
      });
      if (!check.ok) throw couponError(check.code, check.message);
    }
    return { success: true, data: couponForApi(row) };
  },

  async getAllCoupons(req, _reply, ctx) {
    return { success: true, data: (await couponsByIds(ctx.db, req.body.couponID)).map(couponForApi) };
  },

  async getAllPricingPlans(req, _reply, ctx) {
    const viewer = await viewerFor(ctx.db, req.user);
    const plans = await plansOfCourses(ctx.db, req.body.courseID);
    const out: S['PricingPlan'][] = [];
    for (const courseId of [...new Set(req.body.courseID)]) {
      const own = plans.filter((p) => p.course_id === courseId);
      const listed = plansForViewer(own.map(planForDomain), viewer).plans.map((l) => l.plan.id);
      out.push(...own.filter((p) => listed.includes(p.id)).map(planForApi));
    }
    return { success: true, data: out };
  },

  async getAllPromotions(_req, _reply, ctx) {
    return { success: true, data: (await activePromotions(ctx.db, ctx.clock.now())).map((p) => promotionForApi(p)) };
  },

  async listShippingFees(_req, _reply, ctx) {
    // A price per currency, as plans have; the cart offers in USD only the options with a USD price.
    const fees = await listShippingFees(ctx.db);
    return { success: true, data: fees.map((f) => ({ id: f.id, name: f.name, fee: Number(f.fee), fee_usd: f.fee_usd === null ? null : Number(f.fee_usd) })) };
  },

  async quoteCart(req, _reply, ctx) {
    const locale = requestLocale(req);
    const data = await quoteOfChoices(ctx.db, req.body, req.user && req.user.role === 'student' ? req.user.id : null, ctx.clock.now(), (m) => renderShown(m, locale));
    return { success: true, data };
  },

  async sendCartToChulabook(req, _reply, ctx) {
    const b = req.body;
    if (!req.user || req.user.role !== 'student' || req.user.id !== b.user_id) throw new ApiError(403, 'FORBIDDEN', "The cart can only be sent by its student");
    const settings = await loadSettings(ctx.db);
    if (!settings.is_bookstore_sync_cart) throw new ApiError(403, 'FORBIDDEN', 'Book-store sync cart mode is off');
    const courses = await coursesByIds(ctx.db, b.course_id);
    const missing = b.course_id.find((id) => !courses.has(id));
    if (missing !== undefined) throw new ApiError(400, 'VALIDATION_ERROR', `Course ${missing} not found`, [{ field: 'course_id', msg: `${missing} not found` }]);
    if ([...courses.values()].some((c) => c.requires_shipping)) {
      const addr = b.shipping_address_id
        ? await ctx.db.query('SELECT 1 FROM shipping_addresses WHERE id = $1 AND user_id = $2', [b.shipping_address_id, req.user.id])
        : { rows: [] };
      if (addr.rows.length === 0) throw new ApiError(400, 'SHIPPING_ADDRESS_REQUIRED', MSG.SHIPPING_ADDRESS_REQUIRED);
    }
    // The amounts sent are ignored: the cart is priced from the courses' default plans.
    const plans = (await plansOfCourses(ctx.db, b.course_id)).filter((p) => p.is_default && p.pricing_type === 'default');
    const lines = b.course_id.map((id) => ({ course_id: id, pricing_plan_id: plans.find((p) => p.course_id === id)?.id ?? 0, qty: 1 }));
    const priced = priceCart(lines, plans.map(planForDomain), [], null, 'THB', 1, pricingSettings(settings));
    if (!priced.ok) throw new ApiError(400, 'VALIDATION_ERROR', priced.message, [{ field: 'course_id', msg: priced.message }]);
    const ref = randomBytes(9).toString('base64url');
    const base = process.env.BOOKSTORE_URL || 'https://www.chulabook.com/cart';
    const items = priced.lines.map((l) => `${l.course_id}:${l.qty}`).join(',');
    req.log.info({ userId: req.user.id, ref, total: priced.total }, 'cart sent to the book store');
    return { sucess: true, location: `${base}?ref=${ref}&items=${encodeURIComponent(items)}&total=${priced.total}` };
  },
};
