/**
 * The toast store (spec: notifications top right, offset 100, 4-5 s). Machines ask for a toast
 * through their `notify` effect; the app provides `notify` below. A plain external store, read
 * with useSyncExternalStore by <Notifications/>.
 */
import type { Shown } from '../../domain/messages';

export type ToastKind = 'success' | 'info' | 'warning' | 'error';

export interface ToastInput {
  kind: ToastKind;
  /** The spec's notification kind (invalidCoupon, emptyCart, fail, ...), kept for tests and analytics. */
  topic?: string;
  title?: Shown;
  message: Shown;
  /** A payment failure's reason: rendered from the catalogue (`payFail_<reason>`) in the page's language. */
  reason?: string;
  /** ms; default 4500 (spec: 4-5 s); 5000 for the invalid-data notices. */
  duration?: number;
}

export interface Toast extends ToastInput {
  id: number;
}

export const TOAST_DURATION_MS = 4500;
const MAX_TOASTS = 5;

type Listener = () => void;

export function createToastStore(schedule: (fn: () => void, ms: number) => unknown = (fn, ms) => setTimeout(fn, ms)) {
  let toasts: readonly Toast[] = [];
  let nextId = 1;
  const listeners = new Set<Listener>();
  const emit = () => {
    for (const l of [...listeners]) l();
  };
  const dismiss = (id: number) => {
    const next = toasts.filter((x) => x.id !== id);
    if (next.length !== toasts.length) {
      toasts = next;
      emit();
    }
  };
  return {
    push(input: ToastInput): number {
      const id = nextId++;
      // The same message twice in a row replaces the first rather than stacking (a message by key
      // is the same when its key and params are).
      const same = toasts.find((x) => JSON.stringify([x.message, x.title]) === JSON.stringify([input.message, input.title]));
      toasts = [...toasts.filter((x) => x !== same), { ...input, id }].slice(-MAX_TOASTS);
      emit();
      schedule(() => dismiss(id), input.duration ?? TOAST_DURATION_MS);
      return id;
    },
    dismiss,
    clear() {
      toasts = [];
      emit();
    },
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot(): readonly Toast[] {
      return toasts;
    },
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;

/** The app's one toast store. */
export const toasts = createToastStore();

/** Shorthand for views and the app's `notify` effect. */
export function notify(input: ToastInput): number {
  return toasts.push(input);
}
