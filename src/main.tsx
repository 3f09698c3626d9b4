import { StrictMode, startTransition } from 'react';
import { initLocale, loadEnglish } from './i18n/messages';
import { intlTag } from './i18n/locale';
import { warmIntl } from './i18n/intl-warmup';
import { nextTask } from './api/next-task';
import { numberFirstHistoryEntry, openSessionStorage } from './app/router-prelude';
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
// route's loader and chunk); when the route is ready React renders it as a transition, in slices.
// The app's import (its files' preload links, one inserted per file) and the worker each start in
// a task of their own: done in the entry's own task, they made it the page's longest script task
// after the first paint (bench/why.md, the tenth pass).
const reactDom = import('react-dom/client');
const app = nextTask().then(() => import('./app/App'));

// The first Intl.NumberFormat of a page loads ICU's locale and currency data (25-60 ms of CPU in
// one task); a worker loads it on another thread while React DOM and the app download
// (src/i18n/intl-warmup.ts), and React's render waits for it.
const moneyReady = nextTask().then(() => warmIntl(intlTag()));

void (async () => {
  // Without the English table the page shows Thai (a failed load is not the end of the shop).
  await english.catch(() => undefined);
  const { createRoot } = await reactDom;
  await nextTask();
  const { App, createAppRouter, whenRouterReady } = await app;
  // The router's two calls to the browser process (its history entry's index, sessionStorage), each
  // in a task of its own before the router's (src/app/router-prelude.ts).
  await nextTask();
  numberFirstHistoryEntry();
  await nextTask();
  openSessionStorage();
  await nextTask();
  const router = createAppRouter();
  // The server's first view stays until the page is ready to replace it (no spinner between).
  await Promise.all([moneyReady, whenRouterReady(router)]);
  await nextTask();
  startTransition(() =>
    createRoot(container).render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    ),
  );
})();
