import { useSelector } from '@xstate/react';
import { useActionState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { validateCard } from '../../../domain/forms/card';
import type { FieldError } from '../../../domain/forms/common';
import type { omiseCardMachine } from '../../../machines/payments/omise-card.machine';
import { selectOmiseCardPhase, selectOmiseNotConfirmed, selectOmisePublicKey } from '../../../machines/payments/omise-card.selectors';
import { money, t } from '../../i18n/messages';
import { Alert, Button, Modal, Spinner } from '../../ui';
import { CardFields } from './CardFields';
import { omiseTokenize, type Tokenize } from './providers';

type Ref = ActorRefFrom<typeof omiseCardMachine>;

export interface OmiseCardModalProps {
  actorRef: Ref;
  /** Omise.js by default; tests pass a scripted tokenizer. */
  tokenize?: Tokenize;
  now?: () => number;
}

interface FormState {
  errors: FieldError[];
}

/**
 * Omise card popup: the card is tokenised by Omise.js against Omise's vault (card data never
 * reaches our API), then `card.tokenized` carries only the token. Closing the form redirects
 * (the machine's `card.close`). 3-D Secure and the result are the machine's; back from 3-D Secure
 * without a confirmed payment, the popup says so while the machine reads the order again, and
 * offers My orders (`payment.abandon`: pay another way, or cancel).
 */
export function OmiseCardModal({ actorRef, tokenize = omiseTokenize, now = Date.now }: OmiseCardModalProps) {
  const phase = useSelector(actorRef, selectOmiseCardPhase);
  const publicKey = useSelector(actorRef, selectOmisePublicKey);
  const amount = useSelector(actorRef, (s) => s.context.order.amount);
  const currency = useSelector(actorRef, (s) => s.context.order.currency);
  const canClose = useSelector(actorRef, (s) => s.can({ type: 'card.close' }));
  const notConfirmed = useSelector(actorRef, selectOmiseNotConfirmed);

  const [state, submit, tokenizing] = useActionState<FormState, FormData>(async (_prev, data) => {
    const values = { number: String(data.get('number') ?? ''), month: String(data.get('month') ?? ''), year: String(data.get('year') ?? ''), cvv: String(data.get('cvv') ?? '') };
    const name = String(data.get('name') ?? '').trim();
    const checked = validateCard(values, now());
    const errors: FieldError[] = checked.ok ? [] : [...checked.errors];
    if (!name) errors.unshift({ path: 'name', message: t('cardName') });
    if (!checked.ok || errors.length > 0 || !publicKey) return { errors };
    try {
      const token = await tokenize(publicKey, {
        name,
        number: checked.data.number,
        expiration_month: Number(checked.data.month),
        expiration_year: Number(checked.data.year),
        security_code: checked.data.cvv,
      });
      actorRef.send({ type: 'card.tokenized', token });
      return { errors: [] };
    } catch (error) {
      return { errors: [{ path: 'number', message: error instanceof Error ? error.message : String(error) }] };
    }
  }, { errors: [] });

  const busy = tokenizing || phase === 'charging';
  return (
    <Modal
      open={phase !== 'finished'}
      title={t('cardTitle')}
      dismissable={canClose && !busy}
      maskClosable={false}
      onClose={() => actorRef.send({ type: 'card.close' })}
      testId="omise-card-modal"
      footer={
        notConfirmed ? (
          <Button variant="secondary" onClick={() => actorRef.send({ type: 'payment.abandon' })} data-testid="omise-leave">
            {t('myOrders')}
          </Button>
        ) : undefined
      }
    >
      {phase === 'preparing' ? <Spinner /> : null}
      {phase === 'form' || phase === 'charging' ? (
        <form action={submit} noValidate aria-busy={busy}>
          <CardFields errors={state.errors} withName disabled={busy} />
          <Button type="submit" block loading={busy} disabled={busy || phase !== 'form'} data-testid="omise-pay">
            {t('pay', { amount: money(amount, currency) })}
          </Button>
        </form>
      ) : null}
      {phase === 'authorizing' ? <Spinner label={t('authorizing')} /> : null}
      {phase === 'confirming' ? <Spinner label={t('confirmingPayment')} /> : null}
      {notConfirmed ? (
        <Alert data-testid="omise-not-confirmed">
          {t('omiseNotConfirmedYet')}
        </Alert>
      ) : null}
      {phase === 'failed' ? (
        <Alert kind="error">
          {t('redirecting')}
        </Alert>
      ) : null}
    </Modal>
  );
}
