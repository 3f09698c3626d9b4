/**
 * The seller's details are site settings (site_settings.data.seller, kept on the server: not part
 * of the public SiteSettings). Production refuses to start with tax invoices enabled and an
 * incomplete seller (server/main.ts calls `documentSettingsProblems`).
 */
import type { Queryable } from '../db/index';
import { sellerProblems, type SellerDetails } from '../../domain/documents';
import { isOn } from '../../domain/values';
import { loadSettings, type StoredSettings } from '../repos/settings';

export type SettingsWithSeller = StoredSettings & { seller?: Partial<SellerDetails> | null };

export function sellerOf(settings: SettingsWithSeller): SellerDetails {
  const s = settings.seller ?? {};
  return {
    name: (s.name ?? '').trim(),
    name_en: s.name_en?.trim() || null,
    address: (s.address ?? '').trim(),
    address_en: s.address_en?.trim() || null,
    tax_id: (s.tax_id ?? '').replace(/[\s-]/gu, ''),
    branch: (s.branch ?? '').trim(),
    tel: s.tel?.trim() || null,
    email: s.email?.trim() || null,
  };
}

export async function loadDocumentSettings(q: Queryable): Promise<SettingsWithSeller> {
  return (await loadSettings(q)) as SettingsWithSeller;
}

/** Why the documents cannot be issued as the law asks (empty when they can): tax invoices on and the seller incomplete. */
export function taxInvoiceSettingsProblems(settings: SettingsWithSeller): string[] {
  if (!isOn(settings.is_enable_tax_invoice)) return [];
  return sellerProblems(settings.seller).map((p) => `site setting ${p} (required while is_enable_tax_invoice is on)`);
}

/** The same, read from the database (no settings row yet: nothing to check). */
export async function documentSettingsProblems(q: Queryable): Promise<string[]> {
  const r = await q.query<{ data: SettingsWithSeller }>('SELECT data FROM site_settings WHERE id = 1');
  const data = r.rows[0]?.data;
  return data ? taxInvoiceSettingsProblems(data) : [];
}

/** Whether the site issues tax invoices (read from the database; no settings row yet: no). */
export async function taxInvoicesEnabled(q: Queryable): Promise<boolean> {
  const r = await q.query<{ data: SettingsWithSeller }>('SELECT data FROM site_settings WHERE id = 1');
  return isOn(r.rows[0]?.data.is_enable_tax_invoice);
}
