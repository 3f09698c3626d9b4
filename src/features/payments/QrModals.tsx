import { useSelector } from '@xstate/react';
import type { ActorRefFrom, AnyActorRef } from 'xstate';
import type { ReactNode } from 'react';
import { type Currency } from '../../../domain/money';
import type { gbPrimePromptPayMachine } from '../../../machines/payments/gb-prime-promptpay.machine';
import type { omisePromptPayMachine } from '../../../machines/payments/omise-promptpay.machine';
import { selectCanRetryPromptPay, selectIsCheckingPayment, selectPromptPayQr, selectQrPhase } from '../../../machines/payments/promptpay.selectors';
import type { scbQrMachine } from '../../../machines/payments/scb-qr.machine';
import { scbQrCountdown, selectCanFinish, selectCanRetry, selectQrImage, selectScbIsChecking, selectScbQrExpiresAt } from '../../../machines/payments/scb-qr.selectors';
import { money, t } from '../../i18n/messages';
import { Alert, Button, Modal, Spinner } from '../../ui';
import { useWallClock } from '../../ui/wall-clock';

function imageSrc(qr: string): string {
  return /^(data:|https?:|\/)/.test(qr) ? qr : `data:image/png;base64,${qr}`;
}

/** A QR family machine (bank QR, PromptPay): its phase and the order it pays. */
type QrFamilyRef = Pick<AnyActorRef, 'subscribe'> & {
  getSnapshot(): { status: string; matches(value: never): boolean; context: { order: { amount: number; currency: Currency } } };
};

/**
 * What both QR modals are: a modal the mask never closes (the close button and Escape leave the
 * payment, the order stays payable), with the order's amount, a spinner, the expired and failure
 * notices around the code, as the family's phase says.
 */
function QrModal({ actorRef, title, testId, onLeave, footer, children }: { actorRef: QrFamilyRef; title: string; testId: string; onLeave?: () => void; footer: ReactNode; children: ReactNode }) {
  const phase = useSelector(actorRef, selectQrPhase);
  const amount = useSelector(actorRef, (s) => s.context.order.amount);
  const currency = useSelector(actorRef, (s) => s.context.order.currency);
  return (
    <Modal open={phase !== 'finished'} title={title} dismissable={onLeave !== undefined} onClose={onLeave} maskClosable={false} testId={testId} maxWidth={480} footer={footer}>
      <p className="qr-amount">{money(amount, currency)}</p>
      {phase === 'loading' ? <Spinner /> : null}
      {phase === 'qr' ? children : null}
      {phase === 'expired' ? (
        <Alert>
          {t('qrExpired')}
        </Alert>
      ) : null}
      {phase === 'failure' ? (
        <Alert kind="error">
          {t('tryAgain')}
        </Alert>
      ) : null}
    </Modal>
  );
}

/** The code itself, what the modal adds under it, the waiting line and the spinner while a read checks the payment. */
function QrCode({ src, checking, children }: { src: string; checking: boolean; children?: ReactNode }) {
  return (
    <>
      <img className="qr-image" src={src} alt={t('qrAlt')} width={300} height={300} data-testid="qr-image" />
      {children}
      <p>{t('promptPayWaiting')}</p>
      {checking ? <Spinner size="small" label={t('confirmingPayment')} /> : null}
    </>
  );
}

/** The QR's time left, on the wall clock (a throttled background tab still shows the right time). */
function ScbQrCountdown({ expiresAt }: { expiresAt: string | null }) {
  const countdown = scbQrCountdown(expiresAt, useWallClock());
  const time = `${String(countdown.minutes).padStart(2, '0')}:${String(countdown.seconds).padStart(2, '0')}`;
  return (
    <p className="qr-countdown" aria-live="off" data-testid="qr-countdown">
      {t('qrExpiresIn', { time })}
    </p>
  );
}

/** Bank QR (SCB, method 4): QR with a countdown, 'Done' and 'Try again'; moves on by itself once paid. */
export function ScbQrModal({ actorRef, onLeave }: { actorRef: ActorRefFrom<typeof scbQrMachine>; onLeave?: () => void }) {
  const qr = useSelector(actorRef, selectQrImage);
  const expiresAt = useSelector(actorRef, selectScbQrExpiresAt);
  const checking = useSelector(actorRef, selectScbIsChecking);
  const canRetry = useSelector(actorRef, selectCanRetry);
  const canFinish = useSelector(actorRef, selectCanFinish);
  return (
    <QrModal
      actorRef={actorRef}
      title={t('scbQrTitle')}
      testId="scb-qr-modal"
      onLeave={onLeave}
      footer={
        <>
          {canRetry ? (
            <Button variant="secondary" onClick={() => actorRef.send({ type: 'payment.retry' })} data-testid="qr-retry">
              {t('tryAgain')}
            </Button>
          ) : null}
          <Button onClick={() => actorRef.send({ type: 'qr.done' })} disabled={!canFinish} data-testid="qr-done">
            {t('done')}
          </Button>
        </>
      }
    >
      {qr ? (
        <QrCode src={imageSrc(qr)} checking={checking}>
          <ScbQrCountdown expiresAt={expiresAt} />
        </QrCode>
      ) : null}
    </QrModal>
  );
}

type PromptPayRef = ActorRefFrom<typeof omisePromptPayMachine> | ActorRefFrom<typeof gbPrimePromptPayMachine>;

/** PromptPay QR (Omise 9, GB Prime Pay 12): polled until paid; the page moves on by itself. */
export function PromptPayModal({ actorRef, onLeave }: { actorRef: PromptPayRef; onLeave?: () => void }) {
  const ref = actorRef as ActorRefFrom<typeof omisePromptPayMachine>;
  const qr = useSelector(ref, selectPromptPayQr);
  const checking = useSelector(ref, selectIsCheckingPayment);
  const canRetry = useSelector(ref, selectCanRetryPromptPay);
  return (
    <QrModal
      actorRef={ref}
      title={t('promptPayTitle')}
      testId="promptpay-modal"
      onLeave={onLeave}
      footer={
        canRetry ? (
          <Button onClick={() => ref.send({ type: 'payment.retry' })} data-testid="qr-retry">
            {t('tryAgain')}
          </Button>
        ) : undefined
      }
    >
      {qr ? <QrCode src={qr} checking={checking} /> : null}
    </QrModal>
  );
}
