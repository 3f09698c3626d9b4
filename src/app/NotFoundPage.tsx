import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { t } from '../i18n/messages';

export function NotFoundPage() {
  return (
    <main className="page" data-testid="not-found">
      <title>{t('notFound')}</title>
      <h1>{t('notFound')}</h1>
      <p>
        <Link to="/">{t('backHome')}</Link>
      </p>
    </main>
  );
}

/** 404 answers show '404 Page not found !'; anything else a short failure text. */
export function ErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <main className="page" role="alert">
      <h1>{t('cartFailTitle')}</h1>
      <p>
        <a href={typeof window === 'undefined' ? '/' : window.location.href}>{t('tryAgain')}</a> · <Link to="/">{t('backHome')}</Link>
      </p>
    </main>
  );
}
