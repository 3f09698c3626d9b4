import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { paypalMachine } from '../../../machines/payments/paypal.machine';
import { selectPaypalBusy, selectPaypalButtonsEnabled, selectPaypalCapturePending, selectPaypalOrderId } from '../../../machines/payments/paypal.selectors';
import { money, t } from '../../i18n/messages';
import { Button, Modal, Spinner } from '../../ui';
import { PROVIDER_URLS } from './providers';

type Ref = ActorRefFrom<typeof paypalMachine>;

export interface PaypalModalProps {
  actorRef: Ref;
  /** Opens PayPal's approval window; tests pass a fake. */
  openWindow?: (url: string) => Window | null;
}

/**
 * 'ชำระเงินด้วย PayPal' (not closable by an outside click). The PayPal button asks our server for
 * the PayPal order (paypal.createOrder); the buyer approves in PayPal's window, which returns to
 * our origin with token and PayerID; the machine captures. Closing the window cancels.
 */
export function PaypalModal({ actorRef, openWindow = (url) => window.open(url, 'paypal', 'width=480,height=700') }: PaypalModalProps) {
  const enabled = useSelector(actorRef, selectPaypalButtonsEnabled);
  const busy = useSelector(actorRef, selectPaypalBusy);
  const paypalOrderId = useSelector(actorRef, selectPaypalOrderId);
  const awaiting = useSelector(actorRef, (s) => s.matches('awaitingApproval'));
  const capturePending = useSelector(actorRef, selectPaypalCapturePending);
  const open = useSelector(actorRef, (s) => s.status === 'active');
  const canCancel = useSelector(actorRef, (s) => s.can({ type: 'paypal.cancel' }));
  const amount = useSelector(actorRef, (s) => s.context.order.amount);
  const currency = useSelector(actorRef, (s) => s.context.order.currency);
  const popup = useRef<Window | null>(null);

  // The approval window: opened on the click (so no popup blocker), pointed at PayPal once the
  // order exists, watched until it comes back to our origin with PayerID or is closed.
  useEffect(() => {
    if (!awaiting || !paypalOrderId) return undefined;
    const win = popup.current ?? openWindow('about:blank');
    popup.current = win;
    if (!win) {
      actorRef.send({ type: 'paypal.error', message: 'popup blocked' });
      return undefined;
    }
    try {
      win.location.href = `${PROVIDER_URLS.paypalCheckout}?token=${encodeURIComponent(paypalOrderId)}`;
    } catch {
      // cross-origin window already elsewhere
    }
    const timer = window.setInterval(() => {
      if (win.closed) {
        window.clearInterval(timer);
        popup.current = null;
        actorRef.send({ type: 'paypal.cancel' });
        return;
      }
      let href = '';
      try {
        href = win.location.href;
      } catch {
        return; // still on PayPal's origin
      }
      if (!href || href === 'about:blank') return;
      const url = new URL(href);
      // PayPal's own approval page (the sandbox serves it on our origin): still approving, not back yet.
      const checkout = new URL(PROVIDER_URLS.paypalCheckout, window.location.href);
      if (url.origin === checkout.origin && url.pathname.startsWith(checkout.pathname)) return;
      const payerId = url.searchParams.get('PayerID');
      if (url.origin === window.location.origin) {
        window.clearInterval(timer);
        win.close();
        popup.current = null;
        if (payerId) actorRef.send({ type: 'paypal.approve', payerId });
        else actorRef.send({ type: 'paypal.cancel' });
      }
    }, 400);
    return () => window.clearInterval(timer);
  }, [awaiting, paypalOrderId, actorRef, openWindow]);

  return (
    <Modal
      open={open}
      title={t('paypalTitle')}
      dismissable={canCancel || capturePending}
      maskClosable={false}
      onClose={() => {
        if (capturePending) {
          actorRef.send({ type: 'paypal.close' });
          return;
        }
        popup.current?.close();
        popup.current = null;
        actorRef.send({ type: 'paypal.cancel' });
      }}
      testId="paypal-modal"
      maxWidth={480}
    >
      <p className="qr-amount">{money(amount, currency)}</p>
      {capturePending ? (
        <>
          <p role="status" data-testid="paypal-capture-pending">
            {t('paypalCapturePending')}
          </p>
          <Button block onClick={() => actorRef.send({ type: 'paypal.close' })} data-testid="paypal-pending-close">
            {t('paypalCapturePendingOk')}
          </Button>
        </>
      ) : null}
      {capturePending ? null : <Button
        block
        className="paypal-button"
        disabled={!enabled || busy || awaiting}
        loading={busy}
        onClick={() => {
          popup.current = openWindow('about:blank');
          actorRef.send({ type: 'paypal.createOrder' });
        }}
        data-testid="paypal-button"
      >
        {t('payWithPaypal')}
      </Button>}
      {awaiting ? <Spinner label={t('confirmingPayment')} /> : null}
    </Modal>
  );
}
