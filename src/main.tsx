import { StrictMode, startTransition } from 'react';
import { initLocale, loadEnglish, money } from './i18n/messages';
import { intlTag } from './i18n/locale';
import { nextTask } from './api/next-task';
// The whole app's stylesheet (ui/ is tree-shaken per page, vite.config.ts, so its stylesheet is
// the entry's): the build writes it inside the page, so the server-written first view is painted
// with it and does not move when the app takes over.
import './ui/ui.css';
import './app/app.css';


// The locale first: ?lang=, the remembered choice or the browser's language; <html lang> follows.
// English is a chunk of its own, fetched beside React DOM and the app.
const english = initLocale() === 'en' ? loadEnglish() : Promise.resolve();
const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// The page's first view is already painted (the server wrote it; the built page imports this
// module after that paint, vite.config.ts paintBeforeScripts). Starting the app is cut into
// short tasks so a phone's main thread is never held long: React DOM and the app (router, pages'
// loaders) are fetched together but run one after the other; then the router (it starts the
// route's loader and chunk); then React renders as a transition, in slices.
const reactDom = import('react-dom/client');
const app = import('./app/App');

// The first Intl.NumberFormat of a page costs ≈ 50-65 ms of CPU in one task (measured in Chromium:
// ICU's likely-subtags data for the locale match, then the list of locales NumberFormat has data
// for; a second formatter costs < 2 ms). It is done while React DOM and the app download, in two
// tasks: building a Locale's likely subtags first (about half of it), then the money formatter.
const moneyReady = (async () => {
  await nextTask();
  try {
    new Intl.Locale(intlTag()).maximize();
  } catch {
    // only a warm-up: the formatter below does the real work
  }
  await nextTask();
  money(0, 'THB');
})();

void (async () => {
  // Without the English table the page shows Thai (a failed load is not the end of the shop).
  await english.catch(() => undefined);
  const { createRoot } = await reactDom;
  await nextTask();
  const { App, createAppRouter } = await app;
  await nextTask();
  const router = createAppRouter();
  await moneyReady;
  await nextTask();
  startTransition(() =>
    createRoot(container).render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    ),
  );
})();
