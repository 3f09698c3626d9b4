/** Carts, coupons, promotions, pricing plans, shipping fees, book-store cart (tag cart). */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Handlers } from '../openapi/router';
import type { components } from '../../generated/api';
import { ApiError, requestLocale } from '../errors';
import { quoteOfChoices } from '../orders/quote';
import { couponError, readCart, saveAndReadCart } from '../cart/service';
import { deleteCart } from '../repos/carts';
import { addressBelongsTo } from '../repos/addresses';
import {
  activePromotions,
  couponByCode,
  couponForApi,
  couponForDomain,
  couponsByIds,
  coursesByIds,
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
import { MSG, msgOf, renderShown } from '../../domain/messages';

type S = components['schemas'];

/** The cart owner key: a student's own cart ('u:<id>') or a visitor's ('v:<id>'). */
function ownerKey(req: FastifyRequest, pathId: string): string {
  const u = req.user;
  if (u && u.role === 'student' && String(u.id) === pathId) return `u:${u.id}`;
  return `v:${pathId}`;
}

export const cartHandlers: Handlers = {
  async getCartPublic(req, _reply, ctx) {
    return { success: true, data: await readCart(ctx.db, ownerKey(req, req.params.userId), req.params.userId) };
  },

  async saveCartPublic(req, _reply, ctx) {
    return { success: true, data: await saveAndReadCart(ctx, ownerKey(req, req.params.userId), req.body, req.params.userId) };
  },

  async getCartPrivate(req, _reply, ctx) {
    return { success: true, data: await readCart(ctx.db, `u:${req.user!.id}`, String(req.user!.id)) };
  },

  async saveCartPrivate(req, _reply, ctx) {
    return { success: true, data: await saveAndReadCart(ctx, `u:${req.user!.id}`, req.body, String(req.user!.id)) };
  },

  async clearCart(req, _reply, ctx) {
    const id = req.body.user_id;
    let owner: string;
    if (/^\d+$/.test(id)) {
      if (!req.user || req.user.role !== 'student' || String(req.user.id) !== id) throw new ApiError(403, 'FORBIDDEN', "A student's cart can only be emptied by that student");
      owner = `u:${id}`;
    } else owner = `v:${id}`;
    await deleteCart(ctx.db, owner);
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
      const own = b.shipping_address_id ? await addressBelongsTo(ctx.db, b.shipping_address_id, req.user.id) : false;
      if (!own) throw new ApiError(400, 'SHIPPING_ADDRESS_REQUIRED', MSG.SHIPPING_ADDRESS_REQUIRED);
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
