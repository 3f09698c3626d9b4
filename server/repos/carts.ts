/** Saved carts (a student's 'u:<id>' or a visitor's 'v:<id>') and their lines. */
import type { Queryable } from '../db/index';
import type { components } from '../../generated/api';

type S = components['schemas'];

export interface CartRow {
  id: number;
  owner: string;
  coupon_ids: number[];
  payment_method_id: number;
  updated_at: Date;
}

export interface CartLineRow {
  id: number;
  course_id: number;
  pricing_plan_id: number;
  qty: number;
  name: string;
  image: string | null;
  course_type: S['CourseType'];
  price: number;
  price_usd: number | null;
  pricing_type: 'default' | 'renew';
  stock: number | null;
  is_product: boolean;
}

export async function findCart(q: Queryable, owner: string): Promise<CartRow | null> {
  return (await q.query<CartRow>('SELECT * FROM carts WHERE owner = $1', [owner])).rows[0] ?? null;
}

/** The cart's lines in their order, with their course and plan. */
export async function cartLines(q: Queryable, cartId: number): Promise<CartLineRow[]> {
  const r = await q.query<CartLineRow>(
    `SELECT l.id, l.course_id, l.pricing_plan_id, l.qty, c.name, c.image, c.course_type, c.stock, c.is_product, p.price, p.price_usd, p.pricing_type
       FROM cart_lines l JOIN courses c ON c.id = l.course_id JOIN pricing_plans p ON p.id = l.pricing_plan_id
      WHERE l.cart_id = $1 ORDER BY l.position, l.id`,
    [cartId],
  );
  return r.rows;
}

/** Creates or replaces the owner's cart (coupons, payment method) and its lines; returns its id. */
export async function replaceCart(
  q: Queryable,
  owner: string,
  cart: { couponIds: readonly number[]; paymentMethodId: number; lines: readonly { course_id: number; pricing_plan_id: number; qty: number }[] },
  now: Date,
): Promise<number> {
  const r = await q.query<{ id: number }>(
    `INSERT INTO carts (owner, coupon_ids, payment_method_id, updated_at) VALUES ($1, $2::int[], $3, $4)
     ON CONFLICT (owner) DO UPDATE SET coupon_ids = EXCLUDED.coupon_ids, payment_method_id = EXCLUDED.payment_method_id, updated_at = EXCLUDED.updated_at
     RETURNING id`,
    [owner, [...new Set(cart.couponIds)], cart.paymentMethodId, now],
  );
  const cartId = r.rows[0]!.id;
  await q.query('DELETE FROM cart_lines WHERE cart_id = $1', [cartId]);
  for (const [i, l] of cart.lines.entries()) {
    await q.query('INSERT INTO cart_lines (cart_id, course_id, pricing_plan_id, qty, position) VALUES ($1, $2, $3, $4, $5)', [cartId, l.course_id, l.pricing_plan_id, l.qty, i]);
  }
  return cartId;
}

export async function deleteCart(q: Queryable, owner: string): Promise<void> {
  await q.query('DELETE FROM carts WHERE owner = $1', [owner]);
}
