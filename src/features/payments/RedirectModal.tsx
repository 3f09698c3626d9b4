import { useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';
import { returnCheck, type ReturningSnapshot } from '../../../machines/payments/return-states.selectors';
import type { ReturnCheck } from '../../../machines/payments/return-states';
import { t } from '../../i18n/messages';
import { Alert, Button, Modal, Spinner } from '../../ui';

type Returning = ReturningSnapshot & { context: { returned?: ReturnCheck } };

/**
 * 2C2P payment page (10, or 3 by link), GB Prime Pay card (11) and PaySolutions (13): the machine
 * prepares the payment and leaves for the provider's page; this tells the buyer so. A buyer who
 * comes back without paying (the back button) is told what the server said — not paid yet, or
 * not checked — and may check again (`payment.resume`) or go to the order list (`payment.abandon`:
 * pay another way, cancel).
 */
/** Back from the provider's page unpaid (or unchecked): what the server said, and the ways on. */
export function ReturnedNotice({ returned }: { returned: Exclude<ReturnCheck, null> }) {
  return (
    <Alert data-testid="redirect-returned" data-state={returned}>
      {t(returned === 'unpaid' ? 'returnedNotPaid' : 'returnedUnchecked')}
    </Alert>
  );
}

/**
 * The ways on for a buyer back unpaid (or unchecked): check again (`payment.resume`), or My orders
 * (`payment.abandon`: the method's machine ends there, and the flow goes on to the order list — or,
 * paying again on the order list, to the attempt's result with the other methods).
 */
export function ReturnedActions({ actorRef }: { actorRef: AnyActorRef }) {
  return (
    <>
      <Button variant="secondary" onClick={() => actorRef.send({ type: 'payment.abandon' })} data-testid="redirect-leave">
        {t('myOrders')}
      </Button>
      <Button onClick={() => actorRef.send({ type: 'payment.resume' })} data-testid="redirect-check">
        {t('checkPaymentAgain')}
      </Button>
    </>
  );
}

export function RedirectModal({ actorRef, testId = 'redirect-modal', onLeave }: { actorRef: AnyActorRef; testId?: string; onLeave?: () => void }) {
  const active = useSelector(actorRef, (s: { status: string }) => s.status === 'active');
  const checking = useSelector(actorRef, (s: { matches: (v: string) => boolean }) => s.matches('reconciling'));
  const returned = useSelector(actorRef, (s: Returning) => returnCheck(s));
  return (
    <Modal
      open={active}
      title={t('payNow')}
      dismissable={onLeave !== undefined}
      onClose={onLeave}
      maskClosable={false}
      testId={testId}
      maxWidth={480}
      footer={returned ? <ReturnedActions actorRef={actorRef} /> : undefined}
    >
      {returned ? (
        <ReturnedNotice returned={returned} />
      ) : (
        <Spinner label={checking ? t('confirmingPayment') : t('redirecting')} />
      )}
    </Modal>
  );
}
