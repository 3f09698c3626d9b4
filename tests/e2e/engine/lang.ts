/**
 * The buyer's language on a browser path. Paths alternate Thai and English (by their place in the
 * machine's list, so both languages walk every machine); the page maps find what the buyer reads
 * by its catalogue key (src/i18n/messages.ts + en.ts for the app's labels, domain/messages.ts for
 * the spec's messages), never by a Thai literal, so the same map runs in either language.
 */
import type { BrowserContext } from '@playwright/test';
import { MESSAGES, type MessageKey } from '../../../domain/messages';
import { MESSAGES_EN } from '../../../domain/messages-en';
import { EN } from '../../../src/i18n/en';
import { TH, type UiKey } from '../../../src/i18n/messages';
import { LOCALE_COOKIE, LOCALE_STORAGE_KEY, type Locale } from '../../../src/i18n/locale';

/** The language of the path at `index` in its machine's list: Thai first, then English, alternating. */
export function languageOf(index: number): Locale {
  return index % 2 === 0 ? 'th' : 'en';
}

/** An app label in the path's language. */
export function label(lang: Locale | undefined, key: UiKey): string {
  return lang === 'en' ? EN[key] : TH[key];
}

/** A spec message (domain/messages.ts) in the path's language. */
export function specMessage(lang: Locale | undefined, key: MessageKey): string {
  return lang === 'en' ? MESSAGES_EN[key] : MESSAGES[key];
}

/** A label's text as a pattern that ignores what follows it (e.g. `(MM)`), for getByLabel. */
export function labelStart(lang: Locale | undefined, key: UiKey): RegExp {
  const text = label(lang, key).replace(/\s*\(.*\)\s*$/, '');
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
}

/**
 * Opens every page of the browser context in `lang`: the remembered choice (localStorage, read by
 * src/i18n/locale.ts before the browser's languages) and the cookie the server reads on a
 * provider's return redirect. Set before the first page opens.
 */
export async function speak(context: BrowserContext, baseURL: string, lang: Locale): Promise<void> {
  await context.addCookies([{ name: LOCALE_COOKIE, value: lang, url: baseURL }]);
  await context.addInitScript(
    ({ key, value }) => {
      try {
        if (!localStorage.getItem(key)) localStorage.setItem(key, value);
      } catch {
        // a page without storage (about:blank): nothing to remember
      }
    },
    { key: LOCALE_STORAGE_KEY, value: lang },
  );
}
