/**
 * Layout 4's ways in and the failed-submit summary:
 *  - ErrorSummary: every group in error (contact info, login info, tax invoice) with each field's
 *    message, each a button to that field; `focusFirstError` moves focus to the first field in
 *    error (page order) and scrolls it into view below the sticky bar.
 *  - EmailTaken: the registration was refused because the e-mail has an account (one identity per
 *    e-mail): a member logs in (or asks for a sign-in link); a buyer without a password asks for a
 *    sign-in link, which proves the address is theirs before anything is shown.
 *  - SetPassword: a buyer without a password (signed in by a link) may choose a username and
 *    password; the checkout's setPassword child saves it (the form only sends `password.submit`).
 */
import { useEffect, useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { FieldError } from '../../../../domain/forms/common';
import { t, tm } from '../../../i18n/messages';
import { signInLinkLogic } from '../../../api/form-flows';
import { actorOptions } from '../../../api/actor-options';
import { Alert, Button, TextField } from '../../../ui';
import { Link } from 'react-router';
import type { Shown } from '../../../../domain/messages';
import { selectSetPasswordRef } from '../../../../machines/checkout/checkout.selectors';
import type { setPasswordMachine } from '../../../../machines/registration/set-password.machine';
import { selectLinkError, selectLinkSending, selectLinkSent } from '../../../../machines/registration/sign-in-link.selectors';
import { selectPasswordErrors, selectPasswordSaved, selectPasswordSaving } from '../../../../machines/registration/set-password.selectors';
import { CheckoutContext } from '../checkout-actor';

export interface ErrorGroup {
  message: Shown;
  errors: readonly FieldError[];
}

/** The control of a field path in `root` (hidden inputs give their field's first control). */
function controlOf(root: ParentNode, path: string): { control: HTMLElement; box: HTMLElement } | null {
  const named = [...root.querySelectorAll<HTMLElement>('[name]')].find((el) => el.getAttribute('name') === path);
  if (!named) return null;
  const box = named.closest<HTMLElement>('.ui-field, fieldset.ui-choices, .ui-upload') ?? named;
  const control = named instanceof HTMLInputElement && named.type === 'hidden' ? (box.querySelector<HTMLElement>('input:not([type=hidden]), button, select, textarea') ?? named) : named;
  return { control, box };
}

/** Focuses a field and scrolls its label and control into view below the sticky bar (scroll-margin-top). */
export function focusField(root: ParentNode, path: string): boolean {
  const found = controlOf(root, path);
  if (!found) return false;
  found.control.focus({ preventScroll: true });
  found.box.scrollIntoView({ block: 'start', behavior: 'auto' });
  return true;
}

/** The first field in error, in page order. */
export function focusFirstError(root: ParentNode, errors: readonly FieldError[]): void {
  const paths = new Set(errors.map((e) => e.path));
  const first = [...root.querySelectorAll<HTMLElement>('[name]')].find((el) => paths.has(el.getAttribute('name') ?? ''));
  if (first) focusField(root, first.getAttribute('name')!);
}

export function ErrorSummary({ groups, root }: { groups: readonly ErrorGroup[]; root: () => ParentNode | null }) {
  if (groups.length === 0) return null;
  return (
    <Alert kind="error" as="div" className="error-summary" data-testid="error-summary">
      <p className="error-summary__title">{t('l4ErrorSummary')}</p>
      <ul>
        {groups.map((g) => (
          <li key={tm(g.message)} data-testid="error-summary-group">
            <strong>{tm(g.message)}</strong>
            <ul>
              {g.errors.map((e) => (
                <li key={e.path}>
                  <button type="button" className="ui-btn ui-btn--link" onClick={() => { const r = root(); if (r) focusField(r, e.path); }}>
                    {tm(e.message)}
                  </button>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </Alert>
  );
}

/** "Send me a sign-in link" for `email` (the sign-in-link machine asks; the account's address gets it, the link opens this course). */
function SignInLinkButton({ email, courseId }: { email: string; courseId: number }) {
  const ref = useActorRef(signInLinkLogic, { ...actorOptions('signInLink'), input: { email, courseId } });
  const sending = useSelector(ref, selectLinkSending);
  const sent = useSelector(ref, selectLinkSent);
  const error = useSelector(ref, selectLinkError);
  return (
    <>
      <Button type="button" variant="secondary" loading={sending} disabled={sending || sent} onClick={() => ref.send({ type: 'link.request' })} data-testid="send-signin-link">
        {t('l4SendSignInLink')}
      </Button>
      {sent ? (
        <p role="status" data-testid="signin-link-sent">
          {t('l4SignInLinkSent', { email })}
        </p>
      ) : null}
      {error ? (
        <p className="ui-field__error" role="alert">
          {t('l4SignInLinkFailed', { message: tm(error) })}
        </p>
      ) : null}
    </>
  );
}

export function EmailTaken({ taken, courseId, onLogIn }: { taken: { email: string; account: 'member' | 'buyer' }; courseId: number; onLogIn: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
    ref.current?.scrollIntoView({ block: 'start' });
  }, [taken]);
  return (
    <Alert as="div" ref={ref} tabIndex={-1} className="email-taken" role="alert" data-testid="email-taken" data-account={taken.account}>
      <p>{taken.account === 'member' ? t('l4EmailTakenMember') : t('l4EmailTakenBuyer')}</p>
      <div className="email-taken__actions">
        {taken.account === 'member' ? (
          <>
            <Button type="button" onClick={onLogIn} data-testid="email-taken-login">
              {t('l4LogIn')}
            </Button>
            <Link to="/forgotpass">{t('l4ForgotPassword')}</Link>
          </>
        ) : null}
        <SignInLinkButton email={taken.email} courseId={courseId} />
      </div>
    </Alert>
  );
}

type SetPasswordRef = ActorRefFrom<typeof setPasswordMachine>;

/** The checkout's setPassword child renders here: the form sends `password.submit`, the machine saves and says how it went. */
export function SetPassword() {
  const ref = CheckoutContext.useSelector(selectSetPasswordRef) as SetPasswordRef | undefined;
  return ref ? <SetPasswordForm passwordRef={ref} /> : null;
}

function SetPasswordForm({ passwordRef }: { passwordRef: SetPasswordRef }) {
  const saving = useSelector(passwordRef, selectPasswordSaving);
  const saved = useSelector(passwordRef, selectPasswordSaved);
  const errors = useSelector(passwordRef, selectPasswordErrors);
  const err = (p: string) => errors.find((e) => e.path === p)?.message ?? null;
  if (saved !== null) {
    return (
      <Alert data-testid="password-set">
        {t('l4SetPasswordDone', { username: saved })}
      </Alert>
    );
  }
  return (
    <details className="set-password" data-testid="set-password">
      <summary>{t('l4SetPasswordTitle')}</summary>
      <p className="ui-muted">{t('l4SetPasswordHint')}</p>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          passwordRef.send({ type: 'password.submit', username: String(data.get('username') ?? ''), password: String(data.get('password') ?? '') });
        }}
      >
        <TextField id="set-password-username" label={t('username')} name="username" autoComplete="username" hint={t('usernameHint')} required error={err('username')} />
        <TextField id="set-password-password" label={t('password')} name="password" type="password" autoComplete="new-password" hint={t('usernameHint')} required error={err('password')} />
        <Button type="submit" loading={saving} disabled={saving}>
          {t('l4SetPasswordSave')}
        </Button>
      </form>
    </details>
  );
}
