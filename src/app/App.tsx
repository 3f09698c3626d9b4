import { useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { subscribeLocale } from '../i18n/messages';
import { routes } from './routes';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** The app's router: it starts the first location's loaders (and its route chunk) at once. */
export function createAppRouter(): AppRouter {
  return createBrowserRouter(routes);
}

/**
 * Resolves when the first location's loaders and route chunk are in (or have failed: the error
 * page renders then). Rendering after it keeps the server-written first view on screen until the
 * page replaces it in one commit, instead of a loading spinner in between (a render, a layout and
 * an animation on a phone's busy main thread, and the page flashing).
 */
export function whenRouterReady(router: AppRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

export function App({ router }: { router: AppRouter }) {
  // A new locale: the loaders run again (the server answers in it) and every route renders again.
  useEffect(() => subscribeLocale(() => void router.revalidate()), [router]);
  return <RouterProvider router={router} />;
}
