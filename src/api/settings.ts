/** The site settings (GET /api/setting/site/into/1), read by the pages' loaders. */
import type { components } from '../../generated/api';
import type { Currency } from '../../domain/money';
import { takeBootData } from './boot-data';
import { catalogueRequests } from './requests/catalogue';

export type SiteSettings = components['schemas']['SiteSettings'];

export async function loadSiteSettings(signal?: AbortSignal): Promise<SiteSettings> {
  return (await catalogueRequests.getSiteSettings.call(undefined, signal)).data;
}

/**
 * The currency a list page shows its cards in (the site's, cardPrice decides per card): from the
 * settings the server wrote with the page, else asked; THB when they cannot be read (the list
 * still shows).
 */
export async function siteCurrencyFor(request: Request): Promise<Currency> {
  const booted = takeBootData<SiteSettings>(request, 'settings');
  if (booted) return booted.currency;
  try {
    return (await loadSiteSettings(request.signal)).currency;
  } catch {
    return 'THB';
  }
}
