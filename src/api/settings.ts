/** The site settings (GET /api/setting/site/into/1), read by the pages' loaders. */
import type { components } from '../../generated/api';
import { api } from './client';
import { unwrap } from './errors';

export type SiteSettings = components['schemas']['SiteSettings'];

export async function loadSiteSettings(signal?: AbortSignal): Promise<SiteSettings> {
  return unwrap(await api.GET('/api/setting/site/into/1', { signal }), 'getSiteSettings').data;
}
