import { useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { subscribeLocale } from '../i18n/messages';
import { routes } from './routes';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** The app's router: it starts the first location's loaders (and its route chunk) at once. */
export function createAppRouter(): AppRouter {
  return createBrowserRouter(routes);
}

export function App({ router }: { router: AppRouter }) {
  // A new locale: the loaders run again (the server answers in it) and every route renders again.
  useEffect(() => subscribeLocale(() => void router.revalidate()), [router]);
  return <RouterProvider router={router} />;
}
