import { useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { subscribeLocale } from '../i18n/messages';
import { routes } from './routes';

const router = createBrowserRouter(routes);

export function App() {
  // A new locale: the loaders run again (the server answers in it) and every route renders again.
  useEffect(() => subscribeLocale(() => void router.revalidate()), []);
  return <RouterProvider router={router} />;
}
