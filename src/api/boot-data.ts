/**
 * The page's data the server wrote with the HTML (server/web: a non-executable
 * `<script type="application/json" id="boot-data">`), so the first view paints without a second
 * request. Each part is taken once, and only by a loader of the very location the server wrote it
 * for (path and query); any later navigation or revalidation fetches as before.
 */
export const BOOT_DATA_ID = 'boot-data';

type Part = 'user' | 'course' | 'product' | 'list' | 'promotion' | 'settings' | 'notFound';

let boot: (Record<string, unknown> & { path?: string }) | null | undefined;

/**
 * The browser's back / forward buttons bring the page back from its cache, with the data the
 * server wrote at its first load (seats, the buyer's orders before a provider's page):
 * such a page takes nothing from the block, its loaders ask the server.
 */
function fromHistory(): boolean {
  if (typeof performance === 'undefined' || typeof performance.getEntriesByType !== 'function') return false;
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return nav?.type === 'back_forward';
}

function read(): (Record<string, unknown> & { path?: string }) | null {
  if (boot !== undefined) return boot;
  boot = null;
  if (typeof document === 'undefined' || fromHistory()) return boot;
  const el = document.getElementById(BOOT_DATA_ID);
  if (!el?.textContent) return boot;
  try {
    const parsed: unknown = JSON.parse(el.textContent);
    if (parsed && typeof parsed === 'object') boot = parsed as Record<string, unknown>;
  } catch {
    boot = null;
  }
  return boot;
}

/** The part written for this request's location, once; undefined when there is none. */
export function takeBootData<T>(request: Request, part: Part): T | undefined {
  const data = read();
  if (!data || !(part in data)) return undefined;
  const url = new URL(request.url);
  if (data.path !== url.pathname + url.search) return undefined;
  const value = data[part] as T;
  delete data[part];
  return value;
}

/** Tests: forget what was read. */
export function resetBootData(): void {
  boot = undefined;
}
