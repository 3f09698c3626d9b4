/** What the payment handlers share: the payable order of the session user, origins, errors, times. */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Queryable } from '../db/index';
import { ApiError } from '../errors';
import type { OrderForPayment } from '../orders/service';
import { renewHold } from '../orders/holds';
import { checkPaymentMethod } from '../../domain/payment-methods';
import { MSG, type Shown } from '../../domain/messages';
import { isFreeOrder } from '../../domain/money';
import { loadSettings } from '../repos/settings';
import type { Providers } from '../providers/index';
import type { ProvidersConfig } from '../providers/config';
import { ProviderError } from '../providers/http';

export interface PaymentsDeps {
  config: ProvidersConfig;
  providers: Providers;
  /** Origin the browser reached us at (for return URLs): PUBLIC_ORIGIN, else the request's. */
  browserOrigin(req: FastifyRequest): string;
  /** Origin providers' servers reach us at (callbacks): PUBLIC_ORIGIN, else our loopback origin. */
  callbackOrigin(): string;
}

export const PAYABLE_STATUSES = new Set(['notYetReceived', 'pendingApproved']);

export function notPayable(msg: Shown = 'This order cannot be paid'): ApiError {
  return new ApiError(409, 'ORDER_NOT_PAYABLE', msg);
}

export function providerFailed(err: unknown, ctx: AppContext, what: string): ApiError {
  const e = err instanceof ProviderError ? { provider: err.provider, status: err.status, code: err.code } : { message: err instanceof Error ? err.message : String(err) };
  ctx.log.warn({ ...e, what }, 'payment provider call failed');
  return new ApiError(502, 'PAYMENT_FAILED', MSG.PAYMENT_FAILED);
}

/** The session user's order (403 when it is someone else's, 404 when absent). */
export async function ownOrder(q: Queryable, ctx: AppContext, req: FastifyRequest, orderId: number): Promise<OrderForPayment> {
  const user = req.user;
  if (!user) throw new ApiError(401, 'UNAUTHORIZED', MSG.LOGIN_AS_STUDENT);
  const o = await ctx.orders.getOrderForPayment(q, orderId);
  if (!o || o.is_deleted) throw new ApiError(404, 'NOT_FOUND', MSG.ORDER_NOT_FOUND);
  if (o.user_id !== user.id) throw new ApiError(403, 'FORBIDDEN', MSG.NOT_YOUR_ORDER);
  return o;
}

/** The session user's order, payable now by `methodId` (status, total > 0, minimum, currency). */
export async function payableOrder(q: Queryable, ctx: AppContext, req: FastifyRequest, orderId: number, methodId: number): Promise<OrderForPayment> {
  const o = await ownOrder(q, ctx, req, orderId);
  if (!PAYABLE_STATUSES.has(o.status)) throw notPayable(`Order ${o.id} is ${o.status}`);
  if (isFreeOrder(o.total)) throw notPayable('A free order needs no payment: file a payment report');
  const check = checkPaymentMethod(methodId, o.total, o.currency_code);
  if (!check.ok) {
    if (check.code === 'PAYMENT_MINIMUM') throw new ApiError(422, 'PAYMENT_MINIMUM', check.message);
    // A THB-only method for a USD order: 422 where the operation documents it, else 409.
    if (req.operation?.statuses.includes('422')) throw new ApiError(422, 'PAYMENT_FAILED', check.message);
    throw notPayable(check.message);
  }
  // The short hold on scarce things (server/orders/holds.ts): a lapsed hold is taken again (or the
  // order cannot be paid any more), a running one is renewed for this payment.
  await renewHold(ctx.db, o.id, ctx.clock.now(), ctx.config.abuse);
  return o;
}

export async function afterPaymentPath(q: Queryable, o: { status: string; order_token: string }): Promise<string> {
  let thankYou = false;
  try {
    thankYou = !!(await loadSettings(q)).is_thank_you_page;
  } catch {
    thankYou = false;
  }
  return o.status === 'approved' && thankYou ? `/thankyou?orderId=${encodeURIComponent(o.order_token)}` : '/myaccount/student/order';
}

const THAI_OFFSET_MS = 7 * 3600_000;

/** Thai local date (YYYY-MM-DD) and time (HH:mm[:ss]) to the UTC instant (decisions.md #8). */
export function thaiLocalToUtc(date: string, time: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm, ss = 0] = time.split(':').map(Number) as [number, number, number?];
  const ms = Date.UTC(y, m - 1, d, hh, mm, ss ?? 0) - THAI_OFFSET_MS;
  const out = new Date(ms);
  if (!Number.isFinite(ms)) throw new ApiError(400, 'VALIDATION_ERROR', 'Invalid date or time');
  return out;
}

/** The UTC instant as Thai local date and time (for e-mails and the back office). */
export function utcToThaiLocal(at: Date): { date: string; time: string } {
  const s = new Date(at.getTime() + THAI_OFFSET_MS).toISOString();
  return { date: s.slice(0, 10), time: s.slice(11, 19) };
}

/** Bangkok calendar date of an instant (SCB inquiry). */
export function bangkokDate(at: Date): string {
  return utcToThaiLocal(at).date;
}

let lastRefMs = 0;

/**
 * A short unique reference of A-Z 0-9 (provider refs): prefix + order id + time, ≤ 20 chars. The
 * time part never repeats within a process (a later ref with the same clock reading takes the next
 * millisecond): two attempts of one order started in the same millisecond, or under a clock that
 * stands still, were left to two random characters, and a repeated ref reopened the earlier
 * attempt (its row and its page key) instead of a new one. Two processes still differ by the
 * random characters.
 */
export function attemptRef(prefix: string, orderId: number, now: Date): string {
  lastRefMs = Math.max(now.getTime(), lastRefMs + 1);
  const t = lastRefMs.toString(36).toUpperCase();
  const rnd = Math.floor(Math.random() * 36 ** 2).toString(36).toUpperCase().padStart(2, '0');
  return `${prefix}${orderId}T${t}${rnd}`.slice(0, 20);
}

export function customerName(o: OrderForPayment): string {
  return `${o.user.firstname} ${o.user.lastname}`.trim() || o.user.email;
}

export function orderDescription(o: OrderForPayment): string {
  const names = o.courses.map((c) => c.course_name).join(', ');
  return (names || `Order ${o.id}`).slice(0, 250);
}

const locks = new Map<string, Promise<unknown>>();

/**
 * Runs fn after any earlier fn with the same key (one payment start per order at a time in this
 * process), so a double click never creates two charges. Across processes the provider-side
 * idempotency (PayPal-Request-Id) and the "answer the open attempt" rule apply.
 */
export async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = locks.get(key) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  const tail = run.catch(() => undefined);
  locks.set(key, tail);
  try {
    return await run;
  } finally {
    if (locks.get(key) === tail) locks.delete(key);
  }
}

/**
 * Starts a payment of the session user's order by `methodId`: one start per order at a time in
 * this process (withLock), on the order as payableOrder gives it (owned, payable, hold renewed),
 * at the instant the attempt starts (the clock read once, after the order was checked).
 */
export async function startPayment<T>(ctx: AppContext, req: FastifyRequest, orderId: number, methodId: number, start: (o: OrderForPayment, now: Date) => Promise<T>): Promise<T> {
  return withLock(`order:${orderId}`, async () => {
    const order = await payableOrder(ctx.db, ctx, req, orderId, methodId);
    return start(order, ctx.clock.now());
  });
}
