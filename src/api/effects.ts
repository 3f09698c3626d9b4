/**
 * The app's implementations of the effects machines ask for (machines/shared/effects.ts):
 * toasts, navigation (in-app through the router, external by location), hidden form posts to
 * providers, and the persisted flow snapshot in localStorage. Passed with machine.provide({ actions }).
 */
import type { FormPost, Navigation, Notice } from '../../machines/shared/effects';
import { createFlowPersistence } from '../../machines/shared/persistence';
import { notify as pushToast } from '../ui/notifications';
import { localFlowStorage, STORAGE_KEYS } from './storage';

type InAppNavigate = (to: string, options?: { replace?: boolean }) => void;

let inApp: InAppNavigate = (to) => window.location.assign(to);
let external: (to: string) => void = (to) => window.location.assign(to);

/** The router registers its navigate at start (src/app). */
export function setInAppNavigator(fn: InAppNavigate): void {
  inApp = fn;
}

/** Tests replace the page-leaving navigation. */
export function setExternalNavigator(fn: (to: string) => void): void {
  external = fn;
}

export function showNotice(notice: Notice): void {
  pushToast({ kind: notice.kind, topic: notice.topic, title: notice.title, message: notice.message, reason: notice.reason, duration: notice.topic === 'invalidData' ? 5000 : undefined });
}

export function go(nav: Navigation): void {
  if (!nav.to) return;
  if (nav.external) external(nav.to);
  else inApp(nav.to, nav.replace ? { replace: true } : undefined);
}

let submitForm = (form: HTMLFormElement) => form.submit();

export function setFormSubmitter(fn: (form: HTMLFormElement) => void): void {
  submitForm = fn;
}

/** Builds the hidden form and submits it (PaySolutions, the 2C2P card gateway, GB Prime 3-D Secure). */
export function postHiddenForm(post: FormPost): HTMLFormElement {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = post.action;
  form.style.display = 'none';
  form.setAttribute('data-testid', 'provider-form');
  for (const [name, value] of Object.entries(post.fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  submitForm(form);
  return form;
}

export const flowPersistence = createFlowPersistence(localFlowStorage, STORAGE_KEYS.flow);

/** The effects every machine declares, ready for provide({ actions }). */
export const effectActions = {
  notify: (_: unknown, params: Notice) => showNotice(params),
  navigate: (_: unknown, params: Navigation) => go(params),
  postForm: (_: unknown, params: FormPost) => {
    postHiddenForm(params);
  },
  persistSnapshot: flowPersistence.actions.persistSnapshot,
  clearPersistedSnapshot: flowPersistence.actions.clearPersistedSnapshot,
};
