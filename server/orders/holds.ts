/**
 * What one buyer may hold of the things others need (README "Security", docs/spec/decisions.md 11).
 *
 *  - Unpaid orders (notYetReceived or pendingApproved, not deleted): at most
 *    `unpaidOrdersPerAccount` per account, and at most `unpaidOrdersPerAddress` placed from one
 *    address in the last 24 hours. Paying, or cancelling one, makes room again.
 *  - One coupon: at most `couponUsesPerAccount` uses per account over its open and paid orders.
 *  - Scarce things (seats, stock, uses of a coupon with a usage limit): an unpaid order holds them
 *    for `scarceHoldMinutes` (hold_until). Past that, unless a payment is in progress (a provider
 *    attempt still pending and not expired), the sweep gives them back (resources_released) while
 *    the order itself stays open and payable until the spec's auto-cancel time (cancel_at). A
 *    payment started later takes them again if any are left (renewHold), else the order cannot be
 *    paid any more; a payment approved later re-checks too (retakeResources).
 *
 * Serialisation: the student's row is locked first by the order creation (one order of an account
 * at a time), then the address's advisory lock (two accounts behind one address count one after
 * the other), then courses and coupons — the same order everywhere, so no cycle.
 */
import { createHash } from 'node:crypto';
import type { AbuseLimits } from '../config';
import type { Db, Queryable } from '../db/index';
import { LOCKS } from '../db/locks';
import { ApiError } from '../errors';
import { MSG, msgOf } from '../../domain/messages';
import { findOrder, releaseResources, retakeResources, UNPAID, type LockedCoupon, type OrderRow } from './repository';

const DAY_MS = 86_400_000;

/** The stored form of a client address (never the address itself). */
export function addressHash(ip: string): string {
  return createHash('sha256').update(`address\u0000${ip}`).digest('base64url');
}

/**
 * Refuses a new order (409 UNPAID_ORDERS_LIMIT) when the account (`accountUnpaid`, read with
 * unpaidOfAccountSql) or the address has too many unpaid ones; the account is checked first.
 */
export async function checkUnpaidCaps(q: Queryable, limits: AbuseLimits, accountUnpaid: number | null, address: string | null, now: Date): Promise<void> {
  if (limits.unpaidOrdersPerAccount > 0 && (accountUnpaid ?? 0) >= limits.unpaidOrdersPerAccount) throw new ApiError(409, 'UNPAID_ORDERS_LIMIT', MSG.UNPAID_ORDERS_LIMIT);
  if (address && limits.unpaidOrdersPerAddress > 0) {
    await q.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCKS.unpaidOrdersPerAddress, address]);
    const r = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE address_hash = $1 AND created_at > $2 AND ${UNPAID}`, [
      address,
      new Date(now.getTime() - DAY_MS),
    ]);
    if ((r.rows[0]?.n ?? 0) >= limits.unpaidOrdersPerAddress) throw new ApiError(409, 'UNPAID_ORDERS_LIMIT', MSG.UNPAID_ORDERS_LIMIT);
  }
}

/**
 * Refuses coupons this account has already used as often as one account may (422
 * COUPON_NOT_AVAILABLE with the codes, as a full coupon): uses in orders that are open or paid.
 */
export async function checkCouponUsesPerAccount(q: Queryable, limits: AbuseLimits, userId: number, coupons: readonly LockedCoupon[]): Promise<void> {
  if (limits.couponUsesPerAccount <= 0 || coupons.length === 0) return;
  const r = await q.query<{ coupon_id: number; n: number }>(
    `SELECT cu.coupon_id, count(DISTINCT cu.order_id)::int AS n FROM coupon_uses cu JOIN orders o ON o.id = cu.order_id
      WHERE cu.user_id = $1 AND cu.coupon_id = ANY($2::int[]) AND o.status NOT IN ('cancelled', 'rejected') AND NOT o.is_deleted
      GROUP BY cu.coupon_id`,
    [userId, coupons.map((c) => c.id)],
  );
  const used = coupons.filter((c) => (r.rows.find((x) => x.coupon_id === c.id)?.n ?? 0) >= limits.couponUsesPerAccount);
  if (used.length > 0) {
    const codes = used.map((c) => c.code);
    throw new ApiError(422, 'COUPON_NOT_AVAILABLE', msgOf('COUPON_ACCOUNT_LIMIT_CODES', { codes: codes.join(', ') }), codes);
  }
}

/** When a new order's hold on scarce things ends: null when it holds none (or holds are off). */
export function holdEnd(now: Date, limits: AbuseLimits, holdsScarce: boolean, cancelAt: Date | null): Date | null {
  if (!holdsScarce || limits.scarceHoldMinutes <= 0) return null;
  const end = new Date(now.getTime() + limits.scarceHoldMinutes * 60_000);
  return cancelAt && cancelAt < end ? cancelAt : end;
}

/** SQL: order `o` has a provider attempt in progress at $1 (pending, not expired; without an expiry: started within $2). */
const PAYING = `EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.status = 'pending'
  AND (p.expires_at > $1 OR (p.expires_at IS NULL AND p.created_at > $2)))`;

/**
 * Gives back the seats, stock and coupon uses of unpaid orders whose hold has ended and that have
 * no payment in progress; the orders stay open until cancel_at. Returns how many were released.
 * Several processes may sweep at once: an order another holds is skipped (a later round retries).
 */
export async function releaseLapsedHolds(db: Db, now: Date, limits: AbuseLimits): Promise<number> {
  const recent = new Date(now.getTime() - Math.max(1, limits.scarceHoldMinutes) * 60_000);
  const due = await db.query<{ id: number }>(
    `SELECT o.id FROM orders o WHERE o.status = 'notYetReceived' AND NOT o.resources_released AND o.hold_until IS NOT NULL AND o.hold_until <= $1
        AND NOT ${PAYING} ORDER BY o.id LIMIT 500`,
    [now, recent],
  );
  return sweepOrders(db, due.rows, async (q, o) => {
    if (o.status !== 'notYetReceived' || o.resources_released || !o.hold_until || o.hold_until > now) return false;
    const paying = await q.query(`SELECT 1 FROM orders o WHERE o.id = $3 AND ${PAYING}`, [now, recent, o.id]);
    if (paying.rows.length > 0) return false;
    await releaseResources(q, o);
    return true;
  });
}

/**
 * Applies `step` to each order in its own transaction, with the order locked and read again;
 * returns how many steps said they changed something. Several processes sweep at once: an order
 * another sweeper (or a payment) holds is skipped, not waited for — the holder settles it, a later
 * sweep retries it. `step` re-checks under the lock (a payment may have arrived meanwhile).
 */
export async function sweepOrders(db: Db, due: { id: number }[], step: (q: Queryable, o: OrderRow) => Promise<boolean>): Promise<number> {
  let n = 0;
  for (const { id } of due) {
    const done = await db.tx(async (q) => {
      const free = await q.query('SELECT id FROM orders WHERE id = $1 FOR UPDATE SKIP LOCKED', [id]);
      if (free.rows.length === 0) return false;
      const o = await findOrder(q, id, { forUpdate: true });
      return o ? step(q, o) : false;
    });
    if (done) n++;
  }
  return n;
}

/**
 * A payment is starting on an unpaid order: an order whose hold lapsed takes its seats, stock and
 * coupon uses again (409 ORDER_NOT_PAYABLE when they are gone), and a held order's hold is renewed
 * so the payment has the full hold to finish. Orders without a hold are left as they are.
 */
export async function renewHold(db: Db, orderId: number, now: Date, limits: AbuseLimits): Promise<void> {
  await db.tx(async (q) => {
    const o: OrderRow | null = await findOrder(q, orderId, { forUpdate: true });
    if (!o || o.status !== 'notYetReceived' || !o.hold_until) return;
    if (o.resources_released && !(await retakeResources(q, o))) throw new ApiError(409, 'ORDER_NOT_PAYABLE', MSG.HOLD_LAPSED);
    const end = holdEnd(now, limits, true, o.cancel_at);
    if (end && end > o.hold_until) await q.query('UPDATE orders SET hold_until = $2 WHERE id = $1', [o.id, end]);
  });
}
