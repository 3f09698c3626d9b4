import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { paypalMachine } from '../../../machines/payments/paypal.machine';
import {
  selectPaypalAwaitingApproval,
  selectPaypalBusy,
  selectPaypalButtonShown,
  selectPaypalButtonsEnabled,
  selectPaypalCapturePending,
  selectPaypalClosable,
  selectPaypalModalOpen,
  selectPaypalProblem,
} from '../../../machines/payments/paypal.selectors';
import { money, t } from '../../i18n/messages';
import { Button, Modal, Spinner } from '../../ui';

type Ref = ActorRefFrom<typeof paypalMachine>;

export interface PaypalModalProps {
  actorRef: Ref;
}

/**
 * The PayPal modal, titled by the catalogue's `paypalTitle` (not closable by an outside click; its
 * close button and Escape close it in every state). The PayPal button asks our server for the
 * PayPal order; the machine opens and watches PayPal's approval window and captures. The modal only shows the machine's state and
 * sends the buyer's clicks: why the buyer is back at the button (declined, cancelled, PayPal
 * unreachable) or why the flow stopped (capture pending or unconfirmed), and the ways on.
 */
export function PaypalModal({ actorRef }: PaypalModalProps) {
  const enabled = useSelector(actorRef, selectPaypalButtonsEnabled);
  const buttonShown = useSelector(actorRef, selectPaypalButtonShown);
  const busy = useSelector(actorRef, selectPaypalBusy);
  const awaiting = useSelector(actorRef, selectPaypalAwaitingApproval);
  const capturePending = useSelector(actorRef, selectPaypalCapturePending);
  const problem = useSelector(actorRef, selectPaypalProblem);
  const open = useSelector(actorRef, selectPaypalModalOpen);
  const closable = useSelector(actorRef, selectPaypalClosable);
  const amount = useSelector(actorRef, (s) => s.context.order.amount);
  const currency = useSelector(actorRef, (s) => s.context.order.currency);
  const close = () => actorRef.send({ type: 'paypal.close' });

  return (
    <Modal open={open} title={t('paypalTitle')} dismissable={closable} maskClosable={false} onClose={close} testId="paypal-modal" maxWidth={480}>
      <p className="qr-amount">{money(amount, currency)}</p>
      {problem ? (
        <p role="alert" className="paypal-problem" data-testid="paypal-problem" data-problem={problem}>
          {t(`paypalProblem_${problem}`)}
        </p>
      ) : null}
      {capturePending ? (
        <>
          <p role="status" data-testid="paypal-capture-pending">
            {t('paypalCapturePending')}
          </p>
          <Button block onClick={close} data-testid="paypal-pending-close">
            {t('paypalCapturePendingOk')}
          </Button>
        </>
      ) : null}
      {buttonShown ? (
        <Button
          block
          className="paypal-button"
          disabled={!enabled || busy || awaiting}
          loading={busy}
          onClick={() => actorRef.send({ type: 'paypal.createOrder' })}
          data-testid="paypal-button"
        >
          {t('payWithPaypal')}
        </Button>
      ) : (
        !capturePending && (
          <Button block onClick={close} data-testid="paypal-orders">
            {t('paypalCapturePendingOk')}
          </Button>
        )
      )}
      {problem === 'declined' || problem === 'cancelled' || problem === 'unreachable' ? (
        <Button block variant="secondary" onClick={close} data-testid="paypal-other-method">
          {t('paypalOtherMethod')}
        </Button>
      ) : null}
      {awaiting ? <Spinner label={t('confirmingPayment')} /> : null}
    </Modal>
  );
}
