import { useSyncExternalStore } from 'react';
import { t, tm, type UiKey } from '../i18n/messages';
import { CloseIcon } from './icons';
import { toasts as defaultStore, type ToastStore } from './notifications';

/**
 * The toast region, top right, 100 px from the top. Always rendered (an aria-live region must
 * exist before text is added to it); errors are announced assertively (role=alert).
 */
export function Notifications({ store = defaultStore }: { store?: ToastStore }) {
  const list = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return (
    <div className="ui-toasts" aria-live="polite" aria-label={t('notifications')} role="region" data-testid="notifications">
      {list.map((toast) => (
        <div
          key={toast.id}
          className={`ui-toast ui-toast--${toast.kind}`}
          role={toast.kind === 'error' ? 'alert' : 'status'}
          data-testid="toast"
          data-topic={toast.topic}
        >
          <div className="ui-toast__text">
            {toast.title ? <strong className="ui-toast__title">{tm(toast.title)}</strong> : null}
            <span>
              {tm(toast.message)}
              {toast.reason ? <span data-testid="toast-reason"> ({t(`payFail_${toast.reason}` as UiKey)})</span> : null}
            </span>
          </div>
          <button type="button" className="ui-toast__close" aria-label={t('close')} onClick={() => store.dismiss(toast.id)}>
            <CloseIcon />
          </button>
        </div>
      ))}
    </div>
  );
}
