import { Suspense, useEffect, useRef, useSyncExternalStore } from 'react';
import { Link, Outlet, useLoaderData, useLocation, useNavigate, useNavigation } from 'react-router';
import type { SessionUser } from '../../machines/shared/api';
import { selectLoggingOut, selectUser } from '../../machines/session/session.selectors';
import { signedIn } from '../api/signed-in';
import { setInAppNavigator } from '../api/effects';
import { visitorId } from '../api/storage';
import { getLocale, msg, subscribeLocale, switchLocale, t, type Locale } from '../i18n/messages';
import { useLoggedIn, useOptionalSessionRef, useOptionalSessionSelector } from '../session/context';
import { DeferredSessionModals, DeferredSessionProvider } from '../session/deferred';
import { Notifications, Spinner } from '../ui';
import { ROUTES } from '../../machines/shared/effects';

/** The user the server knows from the cookie (signed-in.ts: the same answer the page's loaders read); null when none or when the call fails. */
export async function rootLoader({ request }: { request: Request }): Promise<{ user: SessionUser | null }> {
  return { user: (await signedIn(request)).user };
}

/** The language switch: Thai / English, the current one pressed; the choice is remembered. */
export function LanguageSwitch() {
  const locale = useSyncExternalStore(subscribeLocale, getLocale, getLocale);
  const options: { locale: Locale; label: string }[] = [
    { locale: 'th', label: t('langTh') },
    { locale: 'en', label: t('langEn') },
  ];
  return (
    <div role="group" aria-label={t('language')} className="lang-switch" data-testid="lang-switch">
      {options.map((o) => (
        <button
          key={o.locale}
          type="button"
          lang={o.locale}
          className="lang-switch__option"
          aria-pressed={locale === o.locale}
          onClick={() => void switchLocale(o.locale)}
          data-testid={`lang-${o.locale}`}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

/** The header: the session actor's user, or the user the server wrote with the page while the actor starts. */
export function Header({ bootUser }: { bootUser: SessionUser | null }) {
  const ref = useOptionalSessionRef();
  // While the server ends the session the header still shows the user (a busy button): "logged out"
  // only once the server has said so; a failed call keeps the buyer logged in (decision 0037).
  const loggedIn = useLoggedIn(bootUser);
  const actorLoggingOut = useOptionalSessionSelector(ref, selectLoggingOut) === true;
  const actorUser = useOptionalSessionSelector(ref, selectUser);
  const user = ref ? (actorUser ?? null) : bootUser;
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <Link to="/" className="site-header__brand">
        {msg('APP_TITLE')}
      </Link>
      <nav aria-label={t('mainMenu')} className="site-header__nav">
        <Link to="/">{t('allCourses')}</Link>
        {loggedIn ? (
          <>
            <Link to={ROUTES.orders}>{t('myOrders')}</Link>
            <span className="site-header__user" data-testid="header-user">
              {t('loggedInAs', { name: user?.firstname ?? '' })}
            </span>
            <button
              type="button"
              className="ui-btn ui-btn--link"
              disabled={!ref || actorLoggingOut}
              aria-busy={actorLoggingOut}
              onClick={() => ref?.send({ type: 'logout.submit' })}
            >
              {actorLoggingOut ? t('loggingOut') : t('logout')}
            </button>
          </>
        ) : (
          <Link to="/cart" data-testid="header-login">
            {t('login')}
          </Link>
        )}
        <LanguageSwitch />
      </nav>
    </header>
  );
}

function Progress() {
  const navigation = useNavigation();
  return navigation.state === 'loading' ? <div className="route-progress" role="progressbar" aria-label={t('loading')} /> : null;
}

/**
 * After a move to another page, focus that was lost (on the body: the control that had it is gone
 * with the old page, e.g. a payment modal closed by leaving for the order list) goes to the page's
 * main region, so Tab and a screen reader go on from the new page's content, not from the top of
 * the document. Focus still on something (a header link) stays there.
 */
function useFocusMainAfterNavigation(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (document.activeElement === null || document.activeElement === document.body) document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname]);
}

export function RootLayout() {
  const { user } = useLoaderData() as { user: SessionUser | null };
  const navigate = useNavigate();
  useFocusMainAfterNavigation();
  useEffect(() => {
    // Every visitor has a generated id, kept (spec section 1); machines navigate through the router.
    visitorId();
    setInAppNavigator((to, options) => void navigate(to, options));
  }, [navigate]);
  return (
    <DeferredSessionProvider user={user}>
      <Header bootUser={user} />
      <Progress />
      <div id="main" tabIndex={-1} className="site-main">
        {/* A page that needs the session actor waits here for it (it starts after this commits). */}
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </div>
      <DeferredSessionModals />
      <Notifications />
    </DeferredSessionProvider>
  );
}
