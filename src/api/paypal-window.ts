/**
 * PayPal's approval window for the PayPal machine (machines/payments/paypal.machine.ts): the
 * actions that open and close it and the `watchApproval` callback actor that watches it. The
 * window is opened blank on the buyer's click (inside the gesture, so no popup blocker stops it)
 * and pointed at PayPal's checkout once our server has created the PayPal order; PayPal sends the
 * buyer back to our return URL with `token` and `PayerID` after approval, without PayerID after a
 * cancel (PayPal Orders v2: application_context / experience_context return_url and cancel_url).
 */
import { fromCallback } from 'xstate';
import type { ApprovalWatchInput, PaypalEvent } from '../../machines/payments/paypal.machine';

const env = (import.meta as ImportMeta & { env?: Record<string, string | undefined> }).env ?? {};

/** PayPal's approval page; the loopback sandbox of the reference server by default. */
export const PAYPAL_CHECKOUT_URL = env.VITE_PAYPAL_CHECKOUT_URL || '/sandbox/paypal/checkoutnow';

/** How often the watcher looks at the window (it cannot be told: the window may be on PayPal's origin). */
export const APPROVAL_POLL_MS = 400;

export type OpenWindow = (url: string) => Window | null;

/** What the window's address says, once read. */
export type WindowAnswer = { kind: 'approved'; payerId: string } | { kind: 'cancelled' } | { kind: 'elsewhere' };

/**
 * Reads where the approval window is: still on PayPal (another origin, or the sandbox's page on
 * ours), or back on our origin with a PayerID (approved) or without one (cancelled).
 */
export function readApprovalWindow(href: string, here: string, checkoutUrl: string = PAYPAL_CHECKOUT_URL): WindowAnswer {
  if (!href || href === 'about:blank') return { kind: 'elsewhere' };
  let url: URL;
  try {
    url = new URL(href, here);
  } catch {
    return { kind: 'elsewhere' };
  }
  const origin = new URL(here).origin;
  const checkout = new URL(checkoutUrl, here);
  if (url.origin === checkout.origin && url.pathname.startsWith(checkout.pathname)) return { kind: 'elsewhere' };
  if (url.origin !== origin) return { kind: 'elsewhere' };
  const payerId = url.searchParams.get('PayerID');
  return payerId ? { kind: 'approved', payerId } : { kind: 'cancelled' };
}

export interface ApprovalWindowOptions {
  openWindow?: OpenWindow;
  /** Our page's address (tests give one). */
  here?: () => string;
  checkoutUrl?: string;
  pollMs?: number;
}

/**
 * One approval window per page (one PayPal flow runs at a time): the actions and the watcher the
 * app provides to the PayPal machine (`paypalMachine.provide(approvalWindow())`).
 */
export function approvalWindow({
  openWindow = (url) => window.open(url, 'paypal', 'width=480,height=700'),
  here = () => window.location.href,
  checkoutUrl = PAYPAL_CHECKOUT_URL,
  pollMs = APPROVAL_POLL_MS,
}: ApprovalWindowOptions = {}) {
  let win: Window | null = null;
  const close = () => {
    try {
      if (win && !win.closed) win.close();
    } catch {
      // already gone
    }
    win = null;
  };
  const watchApproval = fromCallback<PaypalEvent, ApprovalWatchInput>(({ input, sendBack }) => {
    // Opened on the click; opened here only if the click's action did not (a resumed flow).
    win ??= openWindow('about:blank');
    const w = win;
    if (!w) {
      sendBack({ type: 'paypal.error', message: 'popup blocked' });
      return () => {};
    }
    try {
      w.location.href = `${checkoutUrl}?token=${encodeURIComponent(input.paypalOrderId)}`;
    } catch {
      // a cross-origin window already elsewhere
    }
    let done = false;
    const timer = setInterval(() => {
      if (done) return;
      if (w.closed) {
        done = true;
        win = null;
        sendBack({ type: 'paypal.cancel' });
        return;
      }
      let href = '';
      try {
        href = w.location.href;
      } catch {
        return; // still on PayPal's origin
      }
      const answer = readApprovalWindow(href, here(), checkoutUrl);
      if (answer.kind === 'elsewhere') return;
      done = true;
      close();
      sendBack(answer.kind === 'approved' ? { type: 'paypal.approve', payerId: answer.payerId } : { type: 'paypal.cancel' });
    }, pollMs);
    return () => clearInterval(timer);
  });
  return {
    actors: { watchApproval },
    actions: {
      openApprovalWindow: () => {
        close();
        win = openWindow('about:blank');
      },
      closeApprovalWindow: close,
    },
  };
}
