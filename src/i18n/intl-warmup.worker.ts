/// <reference lib="webworker" />
/**
 * Loads ICU's data for the page's money formatter off the page's main thread. The first
 * `Intl.NumberFormat` of a renderer process costs 25-60 ms of CPU in one task (ICU's likely-subtags
 * data for the locale match, the list of locales NumberFormat has data for, the currency's data);
 * that data is the process's, not the thread's, so once this worker has built the same formatter
 * the main thread's first one costs under 1 ms (measured in Debian's Chromium 156: 24-31 ms on a
 * fresh page, 0.2-1 ms after this worker). Then Thai word breaking (ICU's dictionary, also shared)
 * for the page's first layout of Thai text. It answers 'ready' as soon as the formatters are built.
 */
import { formatMoney, type MoneyLocale } from '../../domain/money';

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (event: MessageEvent<unknown>) => {
  const tag = (typeof event.data === 'string' ? event.data : 'th-TH') as MoneyLocale;
  try {
    formatMoney(0, 'THB', tag);
    formatMoney(0, 'USD', tag);
  } finally {
    scope.postMessage('ready');
  }
  try {
    for (const part of new Intl.Segmenter('th', { granularity: 'word' }).segment('ราคาคอร์สเรียนออนไลน์')) void part;
  } catch {
    // an engine without Segmenter: the page breaks its lines as before
  }
  scope.close();
};
