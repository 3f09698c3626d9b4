import { useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { sameOriginPath } from '../api/storage';
import { selectLoggingIn, selectLoginError, selectSolvingChallenge } from '../../machines/session/session.selectors';
import { t, tm } from '../i18n/messages';
import { Alert, Button, TextField } from '../ui';
import { SessionContext } from './context';

export interface LoginFormProps {
  /** Shown under the form: the register toggle of the login/registration modal, the /cart register button. */
  onRegister?: () => void;
  idPrefix?: string;
}

const SOCIAL = ['Google', 'Facebook', 'Line'] as const;

/** Where a social login brings the buyer back: the page they started from (same origin only), else /cart. */
export function socialReturn(path: string): string {
  return sameOriginPath(path) ?? '/cart';
}

/**
 * Username and password, login button (Enter submits), forgot-password link, register button and
 * the social login buttons (they return to the page the form is on: the course page of a login
 * pop-up, /cart on the cart's login panel). Sends login.submit to the session actor.
 */
export function LoginForm({ onRegister, idPrefix = 'login' }: LoginFormProps) {
  const ref = SessionContext.useActorRef();
  const busy = SessionContext.useSelector(selectLoggingIn);
  const error = SessionContext.useSelector(selectLoginError);
  const solving = SessionContext.useSelector(selectSolvingChallenge);
  const canSubmit = SessionContext.useSelector((s) => s.can({ type: 'login.submit', username: 'x', password: 'x' }));
  const form = useRef<HTMLFormElement>(null);
  const location = useLocation();
  const back = encodeURIComponent(socialReturn(`${location.pathname}${location.search}`));
  return (
    <form
      ref={form}
      className="login-form"
      noValidate
      data-testid="login-form"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        ref.send({ type: 'login.submit', username: String(data.get('username') ?? '').trim(), password: String(data.get('password') ?? '') });
      }}
    >
      {error ? (
        <Alert kind="error" data-testid="login-error">
          {tm(error)}
        </Alert>
      ) : null}
      {solving ? (
        <Alert aria-live="polite" data-testid="login-challenge">
          {t('loginChallengeSolving')}
        </Alert>
      ) : null}
      <TextField id={`${idPrefix}-username`} label={t('username')} name="username" autoComplete="username" required disabled={busy} data-testid="login-username" />
      <TextField id={`${idPrefix}-password`} label={t('password')} name="password" type="password" autoComplete="current-password" required disabled={busy} data-testid="login-password" />
      <Button type="submit" block loading={busy} disabled={busy || !canSubmit} data-testid="login-submit">
        {t('login')}
      </Button>
      <p className="login-form__links">
        <Link to="/forgotpass">{t('forgotPassword')}</Link>
      </p>
      {onRegister ? (
        <Button variant="secondary" block onClick={onRegister} data-testid="to-register">
          {t('toRegister')}
        </Button>
      ) : null}
      <div className="login-form__social" role="group" aria-label={t('socialLogin')}>
        {SOCIAL.map((name) => (
          <a key={name} className="ui-btn ui-btn--secondary" href={`/api/auth/${name.toLowerCase()}?return=${back}`}>
            {t('socialLogin')} {name}
          </a>
        ))}
      </div>
    </form>
  );
}
