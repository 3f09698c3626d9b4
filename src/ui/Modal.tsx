import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { t } from '../i18n/messages';
import { CloseIcon } from './icons';
import { useLatest } from './latest';

export interface ModalProps {
  open: boolean;
  title: ReactNode;
  /** Called when the user asks to close (Escape, the close button, the mask when allowed). */
  onClose?: () => void;
  /** Escape and the close button close it (default true). The PayPal and tax modals say false/… */
  dismissable?: boolean;
  /** A click on the mask closes it (default true); the tax modal and PayPal pass false. */
  maskClosable?: boolean;
  children: ReactNode;
  footer?: ReactNode;
  /** Where focus goes when it opens (default: the first focusable element, else the dialog). */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** CSS width; default 85% up to 750 px. */
  maxWidth?: number;
  testId?: string;
  /** Extra class on the dialog box. */
  className?: string;
  /** Describes the dialog (aria-describedby), e.g. a confirmation's question. */
  describedBy?: string;
}

const FOCUSABLE = [
  'a[href]',
  'summary',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  'audio[controls]',
  'video[controls]',
  '[contenteditable]:not([contenteditable="false"])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/**
 * Whether Tab can reach `el` as it is shown: not inside a closed <details> (its own summary
 * excepted) nor under a `hidden` attribute. A trap that counts
 * an unreachable element as its last loses focus out of the dialog (the login modal's closed
 * sign-up form did).
 */
function reachable(el: HTMLElement): boolean {
  if (el.tagName === 'SUMMARY' && el.parentElement?.tagName !== 'DETAILS') return false;
  for (let d = el.parentElement?.closest('details'); d; d = d.parentElement?.closest('details')) {
    if (!d.open && !(el.tagName === 'SUMMARY' && el.parentElement === d)) return false;
  }
  return !el.closest('[hidden]');
}

export function focusableIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hasAttribute('inert') && el.getAttribute('aria-hidden') !== 'true' && !el.closest('[inert]') && reachable(el));
}

/** Open dialogs, innermost last: only the top one traps focus and answers Escape. */
const stack: HTMLElement[] = [];

/**
 * An accessible modal dialog: role=dialog, aria-modal, labelled by its title; focus moves in on
 * open, Tab/Shift+Tab cycle inside, focus that escapes (a click behind) is brought back; Escape
 * closes unless not dismissable; focus returns to where it was on close.
 */
export function Modal(props: ModalProps) {
  if (!props.open || typeof document === 'undefined') return null;
  return createPortal(<ModalDialog {...props} />, document.body);
}

function ModalDialog({ title, onClose, dismissable = true, maskClosable = true, children, footer, initialFocusRef, maxWidth = 750, testId, className, describedBy }: ModalProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = `m${useId().replace(/:/g, '')}-title`;
  const onCloseRef = useLatest(onClose);
  const dismissableRef = useLatest(dismissable);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return undefined;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    stack.push(dialog);
    document.body.classList.add('ui-modal-open');
    const body = dialog.querySelector<HTMLElement>('.ui-modal__body');
    const first = initialFocusRef?.current ?? (body ? focusableIn(body)[0] : undefined) ?? focusableIn(dialog)[0] ?? dialog;
    first.focus();

    const keepFocusInside = (event: FocusEvent) => {
      if (stack[stack.length - 1] !== dialog) return;
      const target = event.target as Node | null;
      if (target && !dialog.contains(target)) (focusableIn(dialog)[0] ?? dialog).focus();
    };
    document.addEventListener('focusin', keepFocusInside);
    // A focused control the dialog removes (a step of its content replaced) leaves the focus on the
    // page's body, where the dialog's own keydown never hears a key: Escape still closes the top
    // dialog, and Tab brings the focus back inside.
    const keyOnBody = (event: globalThis.KeyboardEvent) => {
      if (stack[stack.length - 1] !== dialog || event.target !== document.body) return;
      if (event.key === 'Escape') {
        if (dismissableRef.current) onCloseRef.current?.();
      } else if (event.key === 'Tab') {
        event.preventDefault();
        (focusableIn(dialog)[0] ?? dialog).focus();
      }
    };
    document.addEventListener('keydown', keyOnBody);
    return () => {
      document.removeEventListener('focusin', keepFocusInside);
      document.removeEventListener('keydown', keyOnBody);
      const at = stack.indexOf(dialog);
      if (at >= 0) stack.splice(at, 1);
      if (stack.length === 0) document.body.classList.remove('ui-modal-open');
      if (returnTo && returnTo.isConnected) returnTo.focus();
      else stack[stack.length - 1]?.focus();
    };
    // Runs once per opening: focus moves in on open and back on close.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const dialog = dialogRef.current;
    if (!dialog || stack[stack.length - 1] !== dialog) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      if (dismissable) onCloseRef.current?.();
      return;
    }
    if (event.key !== 'Tab') return;
    const items = focusableIn(dialog);
    if (items.length === 0) {
      event.preventDefault();
      dialog.focus();
      return;
    }
    const firstItem = items[0]!;
    const lastItem = items[items.length - 1]!;
    const active = document.activeElement;
    if (event.shiftKey && (active === firstItem || active === dialog)) {
      event.preventDefault();
      lastItem.focus();
    } else if (!event.shiftKey && active === lastItem) {
      event.preventDefault();
      firstItem.focus();
    }
  };

  return (
    <div
      className="ui-modal-mask"
      data-testid={testId ? `${testId}-mask` : undefined}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget && maskClosable && dismissable) onCloseRef.current?.();
      }}
    >
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        className={['ui-modal', className ?? ''].filter(Boolean).join(' ')}
        style={{ maxWidth }}
        data-testid={testId}
        onKeyDown={onKeyDown}
      >
        <div className="ui-modal__header">
          <h2 id={titleId} className="ui-modal__title">
            {title}
          </h2>
          {dismissable ? (
            <button type="button" className="ui-modal__close" aria-label={t('close')} onClick={() => onCloseRef.current?.()}>
              <CloseIcon />
            </button>
          ) : null}
        </div>
        <div className="ui-modal__body">{children}</div>
        {footer ? <div className="ui-modal__footer">{footer}</div> : null}
      </div>
    </div>
  );
}

export interface ConfirmModalProps {
  open: boolean;
  title: ReactNode;
  body: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  testId?: string;
}

/** Yes/no question (switch coupon/promotion, change person type). */
export function ConfirmModal({ open, title, body, confirmLabel, cancelLabel, onConfirm, onCancel, testId }: ConfirmModalProps) {
  const bodyId = `c${useId().replace(/:/g, '')}`;
  return (
    <Modal
      open={open}
      title={title}
      onClose={onCancel}
      testId={testId}
      maxWidth={480}
      describedBy={bodyId}
      footer={
        <>
          <button type="button" className="ui-btn ui-btn--secondary" onClick={onCancel}>
            {cancelLabel ?? t('cancel')}
          </button>
          <button type="button" className="ui-btn ui-btn--primary" onClick={onConfirm} data-testid={testId ? `${testId}-confirm` : undefined}>
            {confirmLabel ?? t('confirm')}
          </button>
        </>
      }
    >
      <p id={bodyId}>{body}</p>
    </Modal>
  );
}
