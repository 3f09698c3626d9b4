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
