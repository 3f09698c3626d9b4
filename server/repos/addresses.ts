/** A student's shipping addresses (one of them the default). */
import type { Queryable } from '../db/index';
import type { ShippingAddressInput } from '../../domain/forms/shipping-address';

/** The fields of one address, as the domain's form rules give them. */
export type AddressFields = ShippingAddressInput;

export interface AddressRow extends AddressFields {
  id: number;
  is_default: boolean;
}

const COLUMNS = 'id, name, tel, address, sub_district, district, province, postcode, is_default';

/** The default first, then in the order they were added. */
export async function listAddresses(q: Queryable, userId: number): Promise<AddressRow[]> {
  return (await q.query<AddressRow>(`SELECT ${COLUMNS} FROM shipping_addresses WHERE user_id = $1 ORDER BY is_default DESC, id`, [userId])).rows;
}

export async function countAddresses(q: Queryable, userId: number): Promise<number> {
  return (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM shipping_addresses WHERE user_id = $1', [userId])).rows[0]?.n ?? 0;
}

/** The address is this user's. */
export async function addressBelongsTo(q: Queryable, addressId: number, userId: number): Promise<boolean> {
  return (await q.query('SELECT 1 FROM shipping_addresses WHERE id = $1 AND user_id = $2', [addressId, userId])).rows.length > 0;
}

/** This user's address, locked for the rest of the transaction; null when it is not theirs. */
export async function lockAddress(q: Queryable, addressId: number, userId: number): Promise<{ is_default: boolean } | null> {
  return (await q.query<{ is_default: boolean }>('SELECT is_default FROM shipping_addresses WHERE id = $1 AND user_id = $2 FOR UPDATE', [addressId, userId])).rows[0] ?? null;
}

/** No address of the user is the default any more (except `keepId`). */
export async function clearDefaultAddress(q: Queryable, userId: number, keepId?: number): Promise<void> {
  if (keepId === undefined) await q.query('UPDATE shipping_addresses SET is_default = false WHERE user_id = $1', [userId]);
  else await q.query('UPDATE shipping_addresses SET is_default = false WHERE user_id = $1 AND id <> $2', [userId, keepId]);
}

export async function insertAddress(q: Queryable, userId: number, a: AddressFields, isDefault: boolean): Promise<AddressRow> {
  const r = await q.query<AddressRow>(
    `INSERT INTO shipping_addresses (user_id, name, tel, address, sub_district, district, province, postcode, is_default)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [userId, a.name, a.tel, a.address, a.sub_district, a.district, a.province, a.postcode, isDefault],
  );
  return r.rows[0]!;
}

export async function updateAddress(q: Queryable, userId: number, addressId: number, a: AddressFields, isDefault: boolean): Promise<AddressRow> {
  const r = await q.query<AddressRow>(
    `UPDATE shipping_addresses SET name = $3, tel = $4, address = $5, sub_district = $6, district = $7, province = $8, postcode = $9, is_default = $10
      WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
    [addressId, userId, a.name, a.tel, a.address, a.sub_district, a.district, a.province, a.postcode, isDefault],
  );
  return r.rows[0]!;
}
