import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Spinner } from './Spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'link';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** Shows a spinner and marks the button busy; it stays focusable. */
  loading?: boolean;
  block?: boolean;
  children: ReactNode;
}

/**
 * A native button (type="button" unless told otherwise), so Enter and Space work and the
 * focus ring shows. `aria-disabled` is used instead of `disabled` when `softDisabled` callers need
 * the click (to explain why, e.g. the submit warnings): pass aria-disabled yourself then.
 */
export function Button({ variant = 'primary', loading = false, block = false, className, children, type = 'button', ...rest }: ButtonProps) {
  const classes = ['ui-btn', `ui-btn--${variant}`, block ? 'ui-btn--block' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button type={type} className={classes} aria-busy={loading || undefined} {...rest}>
      {loading ? <Spinner size="small" label="" /> : null}
      <span className="ui-btn__label">{children}</span>
    </button>
  );
}
