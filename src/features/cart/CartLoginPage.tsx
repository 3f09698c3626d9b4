import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { selectLoggedIn, selectUser } from '../../../machines/session/session.selectors';
import { returnLink } from '../../api/storage';
import { t } from '../../i18n/messages';
import { LoginForm, SessionContext } from '../../session';

/**
 * /cart: the cart login panel (username, password, login, forgot password, register, Google /
 * Facebook / Line; Enter submits). Social logins return here. Once logged in, back to the page
 * the visitor came from (the return link the course page keeps).
 */
export function CartLoginPage() {
  const loggedIn = SessionContext.useSelector(selectLoggedIn);
  const user = SessionContext.useSelector(selectUser);
  const navigate = useNavigate();
  useEffect(() => {
    document.title = `${t('cart')} — ${t('appTitle')}`;
  }, []);
  useEffect(() => {
    if (loggedIn) {
      const back = returnLink();
      if (back) navigate(back, { replace: true });
    }
  }, [loggedIn, navigate]);
  return (
    <main className="page page--narrow" data-testid="cart-login-page">
      <h1>{t('loginTitle')}</h1>
      {loggedIn ? <p>{t('loggedInAs', { name: user?.firstname ?? '' })}</p> : <LoginForm idPrefix="cart" onRegister={() => navigate(returnLink() ?? '/')} />}
    </main>
  );
}

export function ForgotPasswordPage() {
  return (
    <main className="page page--narrow" data-testid="forgotpass-page">
      <h1>{t('forgotPassTitle')}</h1>
      <p>{t('forgotPassBody')}</p>
    </main>
  );
}
