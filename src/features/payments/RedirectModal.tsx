import { useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';
import { t } from '../../i18n/messages';
import { Modal, Spinner } from '../../ui';

/**
 * 2C2P payment page (10, or 3 by link), GB Prime Pay card (11) and PaySolutions (13): the machine
 * prepares the payment and leaves for the provider's page; this only tells the buyer so.
 */
export function RedirectModal({ actorRef, testId = 'redirect-modal', onLeave }: { actorRef: AnyActorRef; testId?: string; onLeave?: () => void }) {
  const active = useSelector(actorRef, (s: { status: string }) => s.status === 'active');
  const checking = useSelector(actorRef, (s: { matches: (v: string) => boolean }) => s.matches('reconciling'));
  return (
    <Modal open={active} title={t('payNow')} dismissable={onLeave !== undefined} onClose={onLeave} maskClosable={false} testId={testId} maxWidth={480}>
      <Spinner label={checking ? t('confirmingPayment') : t('redirecting')} />
    </Modal>
  );
}
