import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppRouter } from './app/App';
import { initLocale, money } from './i18n/messages';

/** A new task: what came before is painted and input is handled before what comes next. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// The locale first: ?lang=, the remembered choice or the browser's language; <html lang> follows.
initLocale();
const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// The page's first view is already painted (the server wrote it; the built page imports this
// module after that paint, vite.config.ts paintBeforeScripts). Starting the app is cut into
// short tasks so a phone's main thread is never held long: the router (it starts the route's
// loader and chunk), then the money formatter (Intl loads its locale data on the first one),
// then React, which renders as a transition, in slices.
void nextTask()
  .then(() => {
    const router = createAppRouter();
    return nextTask().then(() => router);
  })
  .then(async (router) => {
    money(0, 'THB');
    await nextTask();
    startTransition(() =>
      createRoot(container).render(
        <StrictMode>
          <App router={router} />
        </StrictMode>,
      ),
    );
  });
