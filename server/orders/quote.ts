/**
 * The quote: every amount of an order (lines, discounts, shipping, withholding, VAT, total) from
 * the ids alone, read from the database, priced by domain priceCart / orderTax / orderAmount.
 * One computation serves both `POST /public/cart/quote` (what the buyer sees before paying) and
 * `POST /private/cart/order` (what the order is): the browser never prices anything itself.
 *
 * `version` is a digest of the quote's inputs, its amounts and, for a quote of the student's saved
 * cart (`from_cart`), the saved cart's lines. An order carrying the version it was shown
 * (`quote_version`) is refused with QUOTE_STALE when the server's quote for the same order now
 * differs: the cart changed in another tab or by a login merge, or the back office changed a
 * price, a coupon, a promotion or a shipping fee in between.
 */
import { createHash } from 'node:crypto';
import type { components } from '../../generated/api';
import type { Queryable } from '../db/index';
import { ApiError } from '../errors';
import { MSG, msgOf, type Shown } from '../../domain/messages';
import { duplicateCourse, needsShippingAddress, needsShippingFee, type OrderLine } from '../../domain/order-checks';
import { bestPromotion, cartParts, priceCart, type PricedCart } from '../../domain/discounts';
import { isJuristicPerson, needsTaxInvoiceCheck, orderTax } from '../../domain/tax';
import { orderAmount, type Currency } from '../../domain/money';
import { canonicalJson } from '../../domain/values';
import { checkPaymentMethod } from '../../domain/payment-methods';
import {
  activePromotions,
  activeOf,
  couponForDomain,
  couponsByIds,
  findPromotion,
  isActive,
  planForDomain,
  plansOfCourses,
  promotionForDomain,
  type CourseRow,
  type PlanRow,
  type PromotionRow,
} from '../repos/catalogue';
import { pricingSettings, type StoredSettings } from '../repos/settings';
import type { UserRow } from '../repos/users';
import { taxInfoIssues } from '../students/registration';
import { couponError } from '../cart/service';

type S = components['schemas'];

/** What a quote is computed from: the order body's choices (amounts in it are never read). */
export interface QuoteInput {
  course_id: number[];
  pricingplan_id: number[];
  courses?: { course_id: number; qty?: number }[];
  coupon_id?: number[];
  promotion_id?: number | null;
  currency_code: Currency;
  payment_method_id: number;
  shipping_address_id?: number | null;
  shipping_fee_id?: number | null;
  is_withholding?: boolean;
  withholding_percent?: number | null;
  from_cart?: boolean;
}

/** What the quote reads from the database besides the ids (the order creation has them already). */
export interface QuoteFacts {
  courses: Map<number, CourseRow>;
  planRows: PlanRow[];
  settings: StoredSettings;
  /** The buyer; null for a visitor (no withholding, no address book). */
  user: UserRow | null;
  now: Date;
  /** Every promotion, active or not, when the caller read them already (else they are read here). */
  promotions?: readonly PromotionRow[];
}

export interface ServerQuote {
  lines: (OrderLine & { qty: number })[];
  priced: PricedCart;
  shippingFee: number;
  shippingFeeId: number | null;
  withholdingPrice: number;
  withholdingPercent: number | null;
  withholdingOffered: boolean;
  vat: number;
  payable: number;
  wantsInvoice: boolean;
  /** The usable promotion with the largest discount (the one the page preselects), null when none. */
  bestPromotionId: number | null;
  /** The first refusal the order would give for these choices (seats, stock and owned courses aside). */
  problem: ApiError | null;
  version: string;
}

/** The order lines of the choices: a product keeps its quantity, a course is one. */
export function quoteLines(input: Pick<QuoteInput, 'course_id' | 'pricingplan_id' | 'courses'>, courses: Map<number, CourseRow>): (OrderLine & { qty: number })[] {
  const qtyOf = new Map((input.courses ?? []).map((c) => [c.course_id, c.qty ?? 1]));
  return input.course_id.map((id, i) => ({
    course_id: id,
    pricing_plan_id: input.pricingplan_id[i]!,
    qty: courses.get(id)?.is_product ? (qtyOf.get(id) ?? 1) : 1,
    course_type: courses.get(id)?.course_type ?? null,
  }));
}

/** The saved cart's lines of a student (what a quote `from_cart` is bound to). */
async function savedCartLines(q: Queryable, userId: number): Promise<[number, number, number][]> {
  const r = await q.query<{ course_id: number; pricing_plan_id: number; qty: number }>(
    `SELECT l.course_id, l.pricing_plan_id, l.qty FROM cart_lines l JOIN carts c ON c.id = l.cart_id WHERE c.owner = $1 ORDER BY l.position, l.id`,
    [`u:${userId}`],
  );
  return r.rows.map((l) => [l.course_id, l.pricing_plan_id, l.qty]);
}

/**
 * The quote of the choices, from the facts given. Throws what makes pricing impossible (a coupon,
 * promotion or shipping fee that does not exist or is not active, a plan without a price in the
 * currency, a promotion that does not apply, coupons with a promotion on an exclusive site);
 * every other refusal of the order is returned as `problem`.
 */
export async function computeQuote(q: Queryable, input: QuoteInput, facts: QuoteFacts): Promise<ServerQuote> {
  const { courses, planRows, settings, user, now } = facts;
  const currency = input.currency_code;
  const methodId = input.payment_method_id;
  const lines = quoteLines(input, courses);
  const plans = planRows.map(planForDomain);

  // Coupons and the promotion must exist and be active.
  const couponIds = [...new Set(input.coupon_id ?? [])];
  const couponRows = await couponsByIds(q, couponIds);
  for (const id of couponIds) {
    const c = couponRows.find((x) => x.id === id);
    if (!c || !isActive(c, now)) throw new ApiError(404, 'NOT_FOUND', msgOf('COUPON_NOT_FOUND_ID', { id }));
  }
  let promotion = null;
  if (input.promotion_id) {
    const p = await findPromotion(q, input.promotion_id);
    if (!p || !isActive(p, now)) throw new ApiError(404, 'NOT_FOUND', `Promotion ${input.promotion_id} not found`);
    promotion = promotionForDomain(p);
  }

  const priced = priceCart(lines, plans, couponRows.map(couponForDomain), promotion, currency, methodId, pricingSettings(settings));
  if (!priced.ok) {
    if (priced.code === 'dont_have_pricing' || priced.code === 'cart_pricing_usd_failed') throw new ApiError(422, priced.code, priced.message, priced.course_id === undefined ? undefined : [priced.course_id]);
    if (priced.code === 'invalid_qty') throw new ApiError(400, 'VALIDATION_ERROR', priced.message, [{ field: 'body', msg: priced.message }]);
    if (priced.code === 'coupon_promotion_exclusive') throw new ApiError(409, 'COUPON_PROMOTION_EXCLUSIVE', priced.message);
    throw new ApiError(422, 'PROMOTION_NOT_USABLE', priced.message);
  }

  // The best usable promotion (spec 4: auto-selected; spec 5: an unselected usable one blocks ordering).
  const parts = cartParts(lines, plans, currency);
  const promotions = (facts.promotions ? activeOf(facts.promotions, now) : await activePromotions(q, now)).map(promotionForDomain);
  const best = parts.ok ? bestPromotion(promotions, parts.parts, currency) : null;

  const problems: ApiError[] = [];
  // decisions.md 11: a usable promotion left unselected (and no coupon chosen instead) is refused.
  if (!input.promotion_id && couponIds.length === 0 && best) problems.push(new ApiError(422, 'PROMOTION_NOT_SELECTED', MSG.PROMOTION_NOT_SELECTED));

  // Shipping: a fee has a price per currency; a fee without one is not offered in that currency.
  let shippingFee = 0;
  let shippingFeeId: number | null = null;
  const withBooks = lines.map((l) => ({ ...l, free_physical_book: courses.get(l.course_id)?.requires_shipping }));
  if (needsShippingAddress(withBooks)) {
    if (!input.shipping_address_id) problems.push(new ApiError(400, 'SHIPPING_ADDRESS_REQUIRED', MSG.SHIPPING_ADDRESS_REQUIRED));
    else {
      const a = user ? await q.query('SELECT 1 FROM shipping_addresses WHERE id = $1 AND user_id = $2', [input.shipping_address_id, user.id]) : { rows: [] };
      if (a.rows.length === 0) problems.push(new ApiError(404, 'NOT_FOUND', `Shipping address ${input.shipping_address_id} not found`));
    }
  }
  if (needsShippingFee(lines)) {
    if (!input.shipping_fee_id) problems.push(new ApiError(400, 'SHIPPING_FEE_REQUIRED', MSG.SHIPPING_FEE_REQUIRED));
    else {
      const f = (await q.query<{ fee: number; fee_usd: number | null }>('SELECT fee, fee_usd FROM shipping_fees WHERE id = $1', [input.shipping_fee_id])).rows[0];
      if (!f) throw new ApiError(404, 'NOT_FOUND', `Shipping fee ${input.shipping_fee_id} not found`);
      const fee = currency === 'USD' ? f.fee_usd : f.fee;
      if (fee === null) throw new ApiError(422, 'cart_pricing_usd_failed', MSG.CART_PRICING_USD_FAILED);
      shippingFee = Number(fee);
      shippingFeeId = input.shipping_fee_id;
    }
  }

  // Tax figures (withholding on the pre-VAT amount) and the payable total.
  const taxInput = {
    price: priced.subtotal,
    discount: priced.discount,
    currency,
    settings,
    withholding: input.is_withholding ?? false,
    withholding_percent: input.withholding_percent ?? null,
    student: user,
  };
  let tax = orderTax(taxInput);
  if (!tax.ok) {
    problems.push(new ApiError(400, 'TAX_INVOICE_INVALID', tax.message));
    tax = orderTax({ ...taxInput, withholding: false });
  }
  if (!tax.ok) throw new Error('tax without withholding cannot fail');
  const wantsInvoice = !!user?.is_require_tax_invoice && (!!input.is_withholding || needsTaxInvoiceCheck(tax.base, currency, settings));
  if (user && wantsInvoice && taxInfoIssues(user).length > 0) problems.push(new ApiError(400, 'TAX_INVOICE_INVALID', MSG.TAX_INVOICE_INVALID));
  const payable = orderAmount({ price: priced.subtotal, discount: priced.discount, shipping_fee: shippingFee, withholding_price: tax.withholding_price });
  const pm = checkPaymentMethod(methodId, payable, currency);
  if (!pm.ok) problems.push(new ApiError(pm.code === 'PAYMENT_MINIMUM' ? 422 : 400, pm.code, pm.message));
  const rejected = priced.rejected_coupons[0];
  if (rejected) problems.push(couponError(rejected.reason, rejected.message));

  const saved = input.from_cart && user ? await savedCartLines(q, user.id) : null;
  const version = createHash('sha256')
    .update(
      canonicalJson({
        in: {
          lines: lines.map((l) => [l.course_id, l.pricing_plan_id, l.qty]),
          coupons: [...couponIds].sort((a, b) => a - b),
          promotion: input.promotion_id ?? null,
          currency,
          method: methodId,
          fee: shippingFeeId,
          withholding: tax.withholding_percent,
        },
        out: {
          lines: priced.lines.map((l) => [l.course_id, l.pricingplan_id, l.qty, l.original_pricing_price, l.discount, l.total, l.coupon_code]),
          price: priced.subtotal,
          discount: priced.discount,
          shipping: shippingFee,
          withholding: tax.withholding_price,
          total: payable,
        },
        cart: saved,
      }),
    )
    .digest('hex')
    .slice(0, 32);

  return {
    lines,
    priced,
    shippingFee,
    shippingFeeId,
    withholdingPrice: tax.withholding_price,
    withholdingPercent: tax.withholding_percent,
    // Withholding is for juristic persons (spec 5): not offered to a logged-in natural person (a
    // visitor may still register as a company). A juristic buyer without a tax invoice set is
    // offered it; the order's tax check then asks for the invoice details.
    withholdingOffered: tax.withholding_offered && (user === null || isJuristicPerson(user.tax_person_type)),
    vat: tax.vat,
    payable,
    wantsInvoice,
    bestPromotionId: best?.promotion.id ?? null,
    problem: problems[0] ?? null,
    version,
  };
}

/** The quote as the API answers it. */
export function quoteForApi(quote: ServerQuote, courses: Map<number, CourseRow>, currency: Currency, localize: (msg: Shown) => string): S['Quote'] {
  const p = quote.priced;
  return {
    currency_code: currency,
    lines: p.lines.map((l) => ({
      course_id: l.course_id,
      course_name: courses.get(l.course_id)?.name ?? '',
      pricingplan_id: l.pricingplan_id,
      qty: l.qty,
      original_pricing_price: l.original_pricing_price,
      discount: l.discount,
      price: l.total,
      coupon_code: l.coupon_code,
    })),
    price: p.subtotal,
    discount: p.discount,
    promotion_id: p.promotion_id,
    promotion_discount: p.promotion_discount,
    coupon_discount: p.coupon_discount,
    coupon_list_code: p.coupon_list_code,
    best_promotion_id: quote.bestPromotionId,
    shipping_fee: quote.shippingFee,
    shipping_fee_id: quote.shippingFeeId,
    withholding_offered: quote.withholdingOffered,
    withholding_percent: quote.withholdingPercent === 1 || quote.withholdingPercent === 3 ? quote.withholdingPercent : null,
    withholding_price: quote.withholdingPrice,
    vat_price: quote.vat,
    total_amount: quote.payable,
    version: quote.version,
    problem: quote.problem ? { code: quote.problem.code as S['ErrorCode'], msg: localize(quote.problem.msg) } : null,
  };
}

/** `POST /public/cart/quote`: the quote of the choices for this buyer (a student id, or null for a visitor). */
export async function quoteOfChoices(db: Queryable, input: QuoteInput, userId: number | null, now: Date, localize: (msg: Shown) => string): Promise<S['Quote']> {
  if (input.course_id.length !== input.pricingplan_id.length) {
    const msg = 'course_id and pricingplan_id must have the same length';
    throw new ApiError(400, 'VALIDATION_ERROR', msg, [{ field: 'body', msg }]);
  }
  const dup = duplicateCourse(input.course_id.map((course_id) => ({ course_id })));
  if (dup !== null) throw new ApiError(400, 'duplicate_course', MSG.DUPLICATE_COURSE, [dup]);
  const user = userId === null ? null : ((await db.query<UserRow>('SELECT * FROM users WHERE id = $1', [userId])).rows[0] ?? null);
  const settings = (await db.query<{ data: StoredSettings }>('SELECT data FROM site_settings WHERE id = 1')).rows[0]?.data;
  if (!settings) throw new Error('site settings missing: run `npm run db:reset`');
  const courses = new Map<number, CourseRow>();
  const rows = await db.query<CourseRow>('SELECT * FROM courses WHERE id = ANY($1::int[]) AND status = 1', [[...new Set(input.course_id)]]);
  for (const c of rows.rows) courses.set(c.id, c);
  const missing = input.course_id.find((id) => !courses.has(id));
  if (missing !== undefined) throw new ApiError(404, 'NOT_FOUND', `Course ${missing} not found`);
  const planRows = await plansOfCourses(db, input.course_id);
  const quote = await computeQuote(db, input, { courses, planRows, settings, user, now });
  return quoteForApi(quote, courses, input.currency_code, localize);
}
