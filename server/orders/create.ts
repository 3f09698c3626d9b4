/**
 * POST /private/cart/order: one order per Idempotency-Key, everything recomputed from ids with
 * domain/ (order checks, buyability, plan visibility) and the quote (server/orders/quote.ts: priceCart, tax,
 * shipping, payment-method minimum: the amounts the page showed),
 * seats / stock / coupon uses taken atomically.
 *
 * Concurrency: the whole request is one transaction.
 *  - The idempotency row is inserted first (INSERT … ON CONFLICT DO NOTHING). A concurrent request
 *    with the same key blocks on that insert until the first commits, then reads and replays its
 *    stored answer; if the first rolled back (a refused order), the second runs the checks itself.
 *  - The student's row is locked (one order of a student at a time: have_course stays true), then
 *    the courses with a seat or stock count (ascending id) and coupons (ascending id) FOR UPDATE: seats, stock and coupon
 *    uses are read and taken under the lock, so nothing is oversold. On PGlite the transaction
 *    is exclusive anyway.
 *  - Round trips (POST order p99 on two shared cores: each one costs the server a write, a wake-up
 *    and a parse, and a wait behind whatever else runs): after the student's row lock, one read
 *    gathers site settings, the payment method, the account's unpaid orders, the student's order
 *    statuses, the courses, their plans and the promotions (repository.ts readOrderFacts); a course
 *    read without a seat or stock count is not asked for again for the lock; the order (with its
 *    address and hold), its lines, the cart clean-up and the Idempotency-Key's stored answer are
 *    one statement. A one-line order of an unlimited course without coupons: 4 statements between
 *    BEGIN and COMMIT, 7 with the session read (bench/order-cost.ts counts them).
 */
import { createHash } from 'node:crypto';
import type { components } from '../../generated/api';
import type { AppContext } from '../context';
import type { Queryable } from '../db/index';
import { afterCommit } from '../db/index';
import { ApiError } from '../errors';
import { MSG, msgOf, type Shown } from '../../domain/messages';
import { orderProblem, type OrderProblemCode } from '../../domain/order-checks';
import { canBuy, type BuyBlockReason } from '../../domain/buyability';
import { canonicalJson } from '../../domain/values';
import { isPlanSelectable } from '../../domain/plans';
import { withholdingEligibility } from '../../domain/tax';
import { planForDomain, type CourseRow } from '../repos/catalogue';
import type { UserRow } from '../repos/users';
import { computeQuote, quoteLines } from './quote';
import { fullCoupons, lockCoupons, lockCourses, readOrderFacts, takeCouponUses, takeSeatsAndStock, type OrderRow } from './repository';
import { newOrderToken } from './service';
import { addressHash, checkCouponUsesPerAccount, checkUnpaidCaps, holdEnd } from './holds';

type S = components['schemas'];
export type CreateOrderResponse = S['CreateOrderResponse'];

export interface CreateOrderResult {
  status: number;
  body: CreateOrderResponse;
  replayed: boolean;
}

const PROBLEM_STATUS: Record<OrderProblemCode, number> = {
  empty_cart: 400,
  SHIPPING_ADDRESS_REQUIRED: 400,
  SHIPPING_FEE_REQUIRED: 400,
  promotion_not_selected: 422,
  duplicate_course: 400,
  dont_have_pricing: 422,
  have_course: 409,
  dont_have_payment: 400,
  cart_pricing_usd_failed: 422,
  METHOD_CURRENCY_NOT_SUPPORTED: 400,
  PAYMENT_MINIMUM: 422,
};

function problemError(code: OrderProblemCode, message: Shown, courseId?: number): ApiError {
  return new ApiError(PROBLEM_STATUS[code], code, message, courseId === undefined ? undefined : [courseId]);
}

/** Buyability reasons as API errors; TIME_LEFT ones are raised last (contract's check order). */
const TIME_LEFT_REASONS: readonly BuyBlockReason[] = ['no_seats', 'registration_not_open', 'registration_closed', 'out_of_stock'];
function buyError(reason: BuyBlockReason, message: Shown, courseId: number): ApiError {
  if (TIME_LEFT_REASONS.includes(reason)) return new ApiError(422, 'TIME_LEFT', message, [courseId]);
  if (reason === 'access_denied' || reason === 'instructor_not_student') return new ApiError(403, 'FORBIDDEN', message);
  if (reason === 'needs_free_course') return new ApiError(422, 'dont_have_pricing', message, [courseId]);
  return new ApiError(409, 'have_course', message, [courseId]);
}

function invalid(msg: string): ApiError {
  return new ApiError(400, 'VALIDATION_ERROR', msg, [{ field: 'body', msg }]);
}

export async function createOrder(ctx: AppContext, userId: number, body: S['OrderCreate'], idempotencyKey: string, clientAddress: string | null = null, locale: 'th' | 'en' = 'th'): Promise<CreateOrderResult> {
  const requestHash = createHash('sha256').update(canonicalJson(body)).digest('hex');
  return ctx.db.tx(async (q) => {
    const inserted = await q.query(
      `INSERT INTO idempotency_keys (user_id, key, request_hash, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING key`,
      [userId, idempotencyKey, requestHash, ctx.clock.now()],
    );
    if (inserted.rows.length === 0) {
      const prev = await q.query<{ request_hash: string; status_code: number | null; response: string | null }>(
        'SELECT request_hash, status_code, response FROM idempotency_keys WHERE user_id = $1 AND key = $2 FOR UPDATE',
        [userId, idempotencyKey],
      );
      const p = prev.rows[0];
      if (p && p.request_hash !== requestHash) {
        throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with another request body');
      }
      if (p && p.status_code !== null && p.response) return { status: p.status_code, body: JSON.parse(p.response) as CreateOrderResponse, replayed: true };
    }
    // The stored answer (201, its text, the order id) is written by the order's own statement.
    const result = await placeOrder(ctx, q, userId, body, clientAddress === null ? null : addressHash(clientAddress), locale, idempotencyKey);
    return { status: 201, body: result, replayed: false };
  });
}

/**
 * Where the stored answer's text holds the order id until the INSERT has made it. It starts with NUL:
 * PostgreSQL text cannot hold that character, so no string the answer carries (names and codes read
 * from the database, the token made here) can be this one, and its JSON text (`"\u0000order_id"`)
 * appears only where the id goes.
 */
const ORDER_ID_SLOT = '\u0000order_id';

async function placeOrder(ctx: AppContext, q: Queryable, userId: number, body: S['OrderCreate'], address: string | null, locale: 'th' | 'en', idempotencyKey: string): Promise<CreateOrderResponse> {
  const now = ctx.clock.now();
  if (body.course_id.length !== body.pricingplan_id.length) throw invalid('course_id and pricingplan_id must have the same length');
  const user = (await q.query<UserRow>('SELECT * FROM users WHERE id = $1 FOR UPDATE', [userId])).rows[0];
  if (!user) throw new ApiError(401, 'PERMISSION_DENIED', 'Unauthorized');
  // Settings, the payment method, the unpaid count, the student's order statuses, the courses, their
  // plans and the promotions: one read after the lock (server/orders/repository.ts readOrderFacts).
  const { settings, methodActive, accountUnpaid, ordered, planRows, promotions, courses } = await readOrderFacts(q, ctx.config.abuse, userId, body.payment_method_id, body.course_id);
  // Abuse limits (server/orders/holds.ts): unpaid orders per account and per address.
  await checkUnpaidCaps(q, ctx.config.abuse, accountUnpaid, address, now);
  const currency = body.currency_code;
  const methodId = body.payment_method_id;

  // 1. Tax: withholding needs a juristic person asking for a tax invoice; an invoice needs valid tax data.
  if (body.is_withholding && withholdingEligibility(user) !== 'ok') throw new ApiError(400, 'TAX_INVOICE_INVALID', MSG.WITHHOLDING_NEEDS_JURISTIC);

  // 2. Duplicates and pricing.
  const lines = quoteLines(body, courses);
  const missingCourse = body.course_id.find((id) => !courses.has(id));
  // Every plan of the ordered courses (read above): a line's plan id must be one of its own course's plans.
  const plans = planRows.map(planForDomain);
  // The student's order status of every course (read above): what they own, and below each line's status.
  const owned = ordered.filter((o) => o.status === 'approved').map((o) => o.course_id);
  const first = orderProblem({ lines, plans, currency, ownedCourseIds: owned, paymentMethodId: methodId });
  if (first?.code === 'duplicate_course') throw problemError(first.code, first.message, first.course_id);
  if (missingCourse !== undefined) throw new ApiError(404, 'NOT_FOUND', `Course ${missingCourse} not found`);
  if (first) throw problemError(first.code, first.message, first.course_id);
  if (!methodActive) throw problemError('dont_have_payment', MSG.DONT_HAVE_PAYMENT);

  // Buyability (order status, access group, type rules) and plan visibility, per line.
  const statuses = ordered.filter((o) => body.course_id.includes(o.course_id));
  // A layout-4 non-member (guest) session is a buyer, not a member: member-only and free-for-student plans need a member.
  const viewer = { loggedIn: user.is_member, ownedCourseIds: owned };
  let deferred: ApiError | null = null;
  const buyCheck = (c: CourseRow, planIdx: number) => {
    const plan = plans.find((p) => p.id === body.pricingplan_id[planIdx])!;
    return canBuy({
      course: {
        id: c.id,
        course_type: c.course_type,
        seats_available: c.seats,
        available_qty: c.is_product ? c.stock : null,
        start_reg_date: c.start_reg_date,
        end_reg_date: c.end_reg_date,
        buy_course_free: planRows.some((p) => p.course_id === c.id && p.buy_course_free),
        is_course_access_right: c.is_course_access,
        access_group_ids: c.user_group_ids,
      },
      buyer: { studentLoggedIn: true, userGroupId: user.user_group_id, ownedCourseIds: owned },
      orderStatus: statuses.find((s) => s.course_id === c.id)?.status ?? 'Nostatus',
      plan,
      now,
    });
  };
  for (const [i, id] of body.course_id.entries()) {
    const c = courses.get(id)!;
    const b = buyCheck(c, i);
    if (!b.buyable) {
      const err = buyError(b.reason, b.message, id);
      if (err.code === 'TIME_LEFT') deferred ??= err;
      else throw err;
    }
    const plan = plans.find((p) => p.id === body.pricingplan_id[i])!;
    if (!c.is_product && !isPlanSelectable(plan, viewer)) throw problemError('dont_have_pricing', MSG.DONT_HAVE_PRICING, id);
  }

  // Price: the quote of these choices, the same computation the page showed (server/orders/quote.ts).
  const quote = await computeQuote(q, body, { courses, planRows, settings, user, now, promotions });
  // The buyer agreed to another quote: the cart changed elsewhere or the back office changed a price.
  if (body.quote_version && body.quote_version !== quote.version) throw new ApiError(409, 'QUOTE_STALE', MSG.QUOTE_STALE);
  if (quote.problem) throw quote.problem;
  const { priced, shippingFee, payable, wantsInvoice } = quote;
  const couponIds = [...new Set(body.coupon_id ?? [])];

  // Seats, stock and coupon uses, under row locks. Only a course that has a seat or stock count is
  // locked (lockCourses); a course this transaction read without one is not asked for again (an
  // order of unlimited courses makes no lock statement at all).
  const lockedCourses = await lockCourses(q, body.course_id.filter((id) => courses.get(id)!.seats !== null || courses.get(id)!.stock !== null));
  for (const [i, id] of body.course_id.entries()) {
    const fresh = { ...courses.get(id)!, seats: lockedCourses.get(id)?.seats ?? null, stock: lockedCourses.get(id)?.stock ?? null };
    const b = buyCheck(fresh, i);
    if (!b.buyable && TIME_LEFT_REASONS.includes(b.reason)) throw buyError(b.reason, b.message, id);
  }
  if (deferred) throw deferred;
  const lockedCoupons = await lockCoupons(q, couponIds);
  // One coupon's uses per account (server/orders/holds.ts), counted under the student's row lock.
  await checkCouponUsesPerAccount(q, ctx.config.abuse, userId, priced.coupons.map((c) => lockedCoupons.get(c.id)).filter((c) => c !== undefined));
  const full = fullCoupons(lockedCoupons, priced.coupons.map((c) => c.id));
  if (full.length > 0) {
    const codes = full.map((c) => c.code);
    throw new ApiError(422, 'COUPON_NOT_AVAILABLE', msgOf('COUPON_NOT_AVAILABLE_CODES', { codes: codes.join(', ') }), codes);
  }
  const shortages = await takeSeatsAndStock(q, lockedCourses, lines);
  if (shortages.length > 0) {
    const s = shortages[0]!;
    throw new ApiError(422, 'TIME_LEFT', s.kind === 'seats' ? MSG.BUY_NO_SEATS : MSG.BUY_OUT_OF_STOCK, [s.course_id]);
  }

  const cancelAt = settings.auto_cancel > 0 ? new Date(now.getTime() + settings.auto_cancel * 3_600_000) : null;
  // The short hold on scarce things (seats, stock, limited coupons), written with the order.
  const holdsScarce = lockedCourses.size > 0 || priced.coupons.some((c) => lockedCoupons.get(c.id)?.usage_limit != null);
  const holdUntil = holdEnd(now, ctx.config.abuse, holdsScarce, cancelAt);
  // The order (with the address it came from and its hold), its lines and the ordered courses
  // leaving the student's cart: one statement, one round trip. The lines keep the order of the
  // request (ORDER BY their position).
  const pricedLines = priced.lines;
  const col = <T>(f: (l: (typeof pricedLines)[number]) => T) => pricedLines.map(f);
  const courseLines: S['OrderCourseLine'][] = pricedLines.map((l) => ({
    course_id: l.course_id,
    course_name: courses.get(l.course_id)!.name,
    pricingplan_id: l.pricingplan_id,
    discount: l.discount,
    original_pricing_price: l.original_pricing_price,
    qty: l.qty,
    coupon_code: l.coupon_code,
  }));
  // The answer, from the values the INSERT writes; only the order's id comes from it.
  const orderToken = newOrderToken();
  const answer = (orderId: number): CreateOrderResponse => ({
    success: true,
    orderId,
    order_detail: {
      id: orderId,
      payment_status: 'notYetReceived',
      price: priced.subtotal,
      discount: priced.discount,
      withholding_price: quote.withholdingPrice,
      shipping_fee: shippingFee,
      total_amount: payable,
      currency_code: currency,
      coupon_list_code: priced.coupon_list_code,
      order_course_list: courseLines,
      order_token: orderToken,
      cancel_at: cancelAt ? cancelAt.toISOString() : null,
      hold_until: holdUntil ? holdUntil.toISOString() : null,
    },
  });
  // The Idempotency-Key's stored answer is written by the same statement (one round trip less): its
  // text is the answer's JSON with the new id put in the slot, byte for byte what is sent now.
  const stored = JSON.stringify(answer(ORDER_ID_SLOT as unknown as number));
  const order = (
    await q.query<OrderRow>(
      `WITH o AS (
         INSERT INTO orders (order_token, user_id, status, payment_status, currency_code, payment_method_id, price, discount, shipping_fee,
                             withholding_price, is_withholding, withholding_percent, vat_price, total, coupon_ids, coupon_list_code, promotion_id,
                             shipping_address_id, shipping_fee_id, email, tel, is_require_tax_invoice, cancel_at, created_at, updated_at, locale, address_hash, hold_until)
         VALUES ($1, $2, 'notYetReceived', 'notYetReceived', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::int[], $14::text[], $15, $16, $17, $18, $19, $20, $21, $22, $22, $34, $35, $36)
         RETURNING *
       ), lines AS (
         INSERT INTO order_courses (order_id, course_id, pricing_plan_id, course_name, course_type, qty, original_pricing_price, discount, price, coupon_code)
         SELECT o.id, l.a, l.b, l.c, l.d, l.e, l.f, l.g, l.h, l.i
           FROM o, unnest($23::int[], $24::int[], $25::text[], $26::text[], $27::int[], $28::bigint[], $29::bigint[], $30::bigint[], $31::text[]) WITH ORDINALITY AS l(a, b, c, d, e, f, g, h, i, n)
          ORDER BY l.n
       ), cart AS (
         DELETE FROM cart_lines WHERE course_id = ANY($32::int[]) AND cart_id IN (SELECT id FROM carts WHERE owner = $33)
       ), answer AS (
         UPDATE idempotency_keys k SET status_code = 201, response = replace($37::text, $38::text, o.id::text), order_id = o.id
           FROM o WHERE k.user_id = $2 AND k.key = $39
       )
       SELECT * FROM o`,
      [
        orderToken, userId, currency, methodId, priced.subtotal, priced.discount, shippingFee, quote.withholdingPrice, quote.withholdingPercent !== null,
        quote.withholdingPercent, quote.vat, payable, priced.coupons.map((c) => c.id), priced.coupon_list_code, priced.promotion_id,
        body.shipping_address_id ?? null, quote.shippingFeeId, user.email, user.tel, wantsInvoice, cancelAt, now,
        col((l) => l.course_id),
        col((l) => l.pricingplan_id),
        col((l) => courses.get(l.course_id)!.name),
        col((l) => courses.get(l.course_id)!.course_type),
        col((l) => l.qty),
        col((l) => l.original_pricing_price),
        col((l) => l.discount),
        col((l) => l.total),
        col((l) => l.coupon_code),
        body.course_id,
        `u:${userId}`,
        locale,
        address,
        holdUntil,
        stored,
        JSON.stringify(ORDER_ID_SLOT),
        idempotencyKey,
      ],
    )
  ).rows[0]!;
  await takeCouponUses(q, lockedCoupons, priced.coupons.map((c) => c.id), order.id, userId);
  afterCommit(q, () => ctx.events.emit('order.statusChanged', { orderId: order.id, userId, status: order.status, paymentStatus: order.payment_status }));

  return answer(order.id);
}
