/** Site settings (site 1) as stored, and their API shape (SiteSettings of openapi.yaml). */
import type { Queryable } from '../db/index';
import type { components } from '../../generated/api';

export type SiteSettingsApi = components['schemas']['SiteSettings'];

export interface StoredSettings extends SiteSettingsApi {
  howtobuy?: { is_enable_howtobuy: boolean; description: string };
  max_users?: number;
  max_registrations_per_day?: number;
}

/** Keys kept on the server (limits, how-to-buy has its own call, the seller's details for documents). */
const INTERNAL = ['howtobuy', 'max_users', 'max_registrations_per_day', 'seller'] as const;

export async function loadSettings(q: Queryable): Promise<StoredSettings> {
  const r = await q.query<{ data: StoredSettings }>('SELECT data FROM site_settings WHERE id = 1');
  const data = r.rows[0]?.data;
  if (!data) throw new Error('site settings missing: run `npm run db:reset`');
  return data;
}

export function settingsForApi(s: StoredSettings): SiteSettingsApi {
  const out: Record<string, unknown> = { ...s };
  for (const k of INTERNAL) delete out[k];
  return out as SiteSettingsApi;
}

/** The pricing switches domain/discounts reads. */
export function pricingSettings(s: StoredSettings): { is_one_coupon_only: boolean; is_coupon_promotion_exclusive: boolean } {
  return { is_one_coupon_only: !!s.is_one_coupon_only, is_coupon_promotion_exclusive: !!s.is_coupon_promotion_exclusive };
}

/** A custom registration field the shop defined. */
export interface CustomLabelDef {
  id: number;
  type_label: string;
  label: string;
  order_label: number;
  required: number;
  item_list: string[];
}

export async function customLabels(q: Queryable): Promise<CustomLabelDef[]> {
  return (await q.query<CustomLabelDef>('SELECT id, type_label, label, order_label, required, item_list FROM custom_labels ORDER BY order_label, id')).rows;
}

/** The user groups a buyer may pick (restricted groups are assigned by the shop). */
export async function selectableUserGroups(q: Queryable): Promise<{ id: number; name: string; is_default: boolean }[]> {
  return (await q.query<{ id: number; name: string; is_default: boolean }>('SELECT id, name, is_default FROM user_groups WHERE is_selectable ORDER BY id')).rows;
}

/** The payment method exists and is switched on. */
export async function paymentMethodIsActive(q: Queryable, id: number): Promise<boolean> {
  return (await q.query('SELECT 1 FROM payment_methods WHERE id = $1 AND is_active', [id])).rows.length > 0;
}
