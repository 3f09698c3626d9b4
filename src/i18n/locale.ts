/**
 * The chosen locale, held in one place. Chosen, in this order: `?lang=th|en` in the address, the
 * visitor's remembered choice (localStorage `lang`), the browser's languages on a first visit
 * (`navigator.languages`: the first Thai or English one), else Thai. The choice is remembered in
 * localStorage and in the `lang` cookie (the server reads it where no Accept-Language header is
 * sent by our client, e.g. a provider's return redirect), `<html lang>` follows it, and every API
 * call carries it as `Accept-Language` (src/api/client.ts) so the server answers in it.
 */
import type { MessageLocale } from '../../domain/messages';
import { moneyLocaleOf, type MoneyLocale } from '../../domain/money';

export type Locale = MessageLocale;
export const LOCALES: readonly Locale[] = ['th', 'en'];
export const LOCALE_STORAGE_KEY = 'lang';
export const LOCALE_COOKIE = 'lang';
export const LOCALE_QUERY = 'lang';

/** 'th' / 'en' for a language tag ('en-US', 'th-TH', 'EN'); null for any other language. */
export function toLocale(tag: string | null | undefined): Locale | null {
  const base = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return base === 'th' || base === 'en' ? base : null;
}

export interface LocaleSources {
  /** location.search, e.g. '?lang=en'. */
  search?: string;
  /** The remembered choice. */
  stored?: string | null;
  /** navigator.languages (or [navigator.language]). */
  browser?: readonly string[];
}

/** The locale a page load starts in (see the order above). */
export function chooseLocale(sources: LocaleSources): Locale {
  const fromQuery = toLocale(new URLSearchParams(sources.search ?? '').get(LOCALE_QUERY));
  if (fromQuery) return fromQuery;
  const fromStore = toLocale(sources.stored);
  if (fromStore) return fromStore;
  for (const tag of sources.browser ?? []) {
    const l = toLocale(tag);
    if (l) return l;
  }
  return 'th';
}

type Listener = (locale: Locale) => void;
let current: Locale = 'th';
const listeners = new Set<Listener>();

export function getLocale(): Locale {
  return current;
}

/** Subscribes to locale changes; returns the unsubscribe function (useSyncExternalStore shape). */
export function subscribeLocale(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function remember(locale: Locale): void {
  try {
    if (typeof localStorage !== 'undefined') localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // storage unavailable: the cookie and this page still hold the choice
  }
  if (typeof document !== 'undefined') {
    document.documentElement.lang = locale;
    document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=31536000; samesite=lax`;
  }
}

/** An address that says `?lang=` says the new choice too, so a reload or a shared link keeps it. */
function followInAddress(locale: Locale): void {
  if (typeof location === 'undefined' || typeof history === 'undefined') return;
  const params = new URLSearchParams(location.search);
  if (!params.has(LOCALE_QUERY) || params.get(LOCALE_QUERY) === locale) return;
  params.set(LOCALE_QUERY, locale);
  // Same history entry and state (the router's key stays): only the query's lang changes.
  history.replaceState(history.state, '', `${location.pathname}?${params.toString()}${location.hash}`);
}

/** Sets the locale (remembered, `<html lang>` and a `?lang=` in the address follow) and tells the subscribers. */
export function setLocale(locale: Locale): void {
  const changed = locale !== current;
  current = locale;
  remember(locale);
  followInAddress(locale);
  if (changed) for (const l of [...listeners]) l(locale);
}

/** Reads the sources of the browser this page runs in and sets the locale from them. */
export function initLocale(): Locale {
  let stored: string | null = null;
  try {
    stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    stored = null;
  }
  const browser = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  const locale = chooseLocale({ search: typeof location === 'undefined' ? '' : location.search, stored, browser });
  current = locale;
  remember(locale);
  return locale;
}

/** The BCP 47 tag Intl uses for a locale (Thai digits stay Arabic: 'th-TH'). */
export function intlTag(locale: Locale = current): MoneyLocale {
  return moneyLocaleOf(locale);
}
