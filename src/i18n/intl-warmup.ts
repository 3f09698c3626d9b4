/**
 * The page's first money formatter, made cheap before React renders with it. The first
 * `Intl.NumberFormat` of a renderer process loads ICU's locale and currency data (25-60 ms of CPU
 * in one task); a worker (`intl-warmup.worker.ts`) builds the same formatters on another thread
 * while React DOM and the app download, and the data it loads is the process's, so the main
 * thread's formatter then costs under 1 ms. Where there is no worker (an old engine, a refused
 * script) the main thread does it, in two tasks. The returned promise never rejects and is settled
 * by the worker's answer, its failure, or after `giveUpMs` (a worker that never answers only costs
 * the main thread the formatter's first build, as before this file).
 */
import { nextTask } from '../api/next-task';
import { formatMoney, type MoneyLocale } from '../../domain/money';

export function warmIntl(tag: MoneyLocale, giveUpMs = 2000): Promise<void> {
  if (typeof Worker !== 'function') return onThisThread(tag);
  let worker: Worker;
  try {
    worker = new Worker(new URL('./intl-warmup.worker.ts', import.meta.url), { type: 'module', name: 'intl-warmup' });
  } catch {
    return onThisThread(tag);
  }
  return new Promise<void>((resolve) => {
    const settle = (failed: boolean) => {
      clearTimeout(timer);
      worker.onmessage = worker.onerror = worker.onmessageerror = null;
      if (failed) {
        worker.terminate();
        void onThisThread(tag).then(resolve);
      } else resolve();
    };
    const timer = setTimeout(() => settle(false), giveUpMs);
    worker.onmessage = () => settle(false);
    worker.onerror = (event) => {
      event.preventDefault();
      settle(true);
    };
    worker.onmessageerror = () => settle(true);
    worker.postMessage(tag);
  });
}

/** On the main thread, in two tasks: a Locale's likely subtags (about half the cost), then the formatter. */
async function onThisThread(tag: MoneyLocale): Promise<void> {
  await nextTask();
  try {
    new Intl.Locale(tag).maximize();
  } catch {
    // only a warm-up: the formatter below does the real work
  }
  await nextTask();
  formatMoney(0, 'THB', tag);
}
