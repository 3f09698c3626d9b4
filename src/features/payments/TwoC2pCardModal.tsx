import { useSelector } from '@xstate/react';
import { startTransition, useActionState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { validateCard } from '../../../domain/forms/card';
import type { FieldError } from '../../../domain/forms/common';
import type { twoC2pCardMachine } from '../../../machines/payments/two-c2p-card.machine';
import { selectTwoC2pCardPhase } from '../../../machines/payments/two-c2p-card.selectors';
import { returnCheck } from '../../../machines/payments/return-states.selectors';
import { money, t } from '../../i18n/messages';
import { Button, Modal, Spinner } from '../../ui';
import { CardFields } from './CardFields';
import { GatewayError, my2c2pEncrypt, type EncryptCard } from './providers';
import { ReturnedActions, ReturnedNotice } from './RedirectModal';

type Ref = ActorRefFrom<typeof twoC2pCardMachine>;

/**
 * 2C2P card form (number, MM, YYYY, CVV masked). The fields carry data-encrypt and no name: the
 * card is encrypted in the page by my2c2p.js; only the encrypted card goes to our server, which
 * signs the gateway form; the machine then posts it to the gateway.
 */
export function TwoC2pCardModal({ actorRef, encrypt = my2c2pEncrypt, now = Date.now, onLeave }: { actorRef: Ref; encrypt?: EncryptCard; now?: () => number; onLeave?: () => void }) {
  const phase = useSelector(actorRef, selectTwoC2pCardPhase);
  // back from the gateway's page with the order unpaid (or unchecked): say so, with the ways on
  const returned = useSelector(actorRef, (s) => returnCheck(s, 'awaitingResult'));
  const amount = useSelector(actorRef, (s) => s.context.order.amount);
  const currency = useSelector(actorRef, (s) => s.context.order.currency);
  const [state, submit, encrypting] = useActionState<{ errors: FieldError[] }, HTMLFormElement>(async (_prev, form) => {
    const read = (name: string) => form.querySelector<HTMLInputElement>(`[data-encrypt="${name}"]`)?.value ?? '';
    const checked = validateCard({ number: read('cardnumber'), month: read('month'), year: read('year'), cvv: read('cvv') }, now());
    if (!checked.ok) return { errors: checked.errors };
    try {
      const card = await encrypt(form);
      actorRef.send({ type: 'card.encrypted', card });
    } catch (error) {
      const e = error instanceof GatewayError ? error : new GatewayError('unknown', String(error));
      actorRef.send({ type: 'card.gatewayError', code: e.code, description: e.description });
    }
    return { errors: [] };
  }, { errors: [] });
  const busy = encrypting || phase !== 'form';
  return (
    <Modal open={phase !== 'finished'} title={t('cardTitle')} dismissable={onLeave !== undefined} onClose={onLeave} maskClosable={false} testId="twoc2p-card-modal"
      footer={returned ? <ReturnedActions actorRef={actorRef} /> : undefined}
    >
      {phase === 'form' || encrypting ? (
        <form
          id="twoc2p-card-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const form = event.currentTarget;
            // The form element itself goes to the action (my2c2p.js reads its data-encrypt fields).
            startTransition(() => submit(form));
          }}
        >
          <CardFields errors={state.errors} encrypt disabled={busy} />
          <Button type="submit" block loading={busy} disabled={busy} data-testid="twoc2p-pay">
            {t('pay', { amount: money(amount, currency) })}
          </Button>
        </form>
      ) : returned ? (
        <ReturnedNotice returned={returned} />
      ) : (
        <Spinner label={phase === 'checking' ? t('confirmingPayment') : t('redirecting')} />
      )}
    </Modal>
  );
}
