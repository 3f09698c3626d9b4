/**
 * Pay again / cancel on the order list: the row's actions and the pay panel render the
 * orderPayment machine (machines/payments/order-payment.machine.ts) and only send it events.
 */
import { useActorRef, useSelector } from '@xstate/react';
import type { ComponentType } from 'react';
import type { ActorRefFrom, AnyActorRef } from 'xstate';
import type { components } from '../../../generated/api';
import { isFreeOrder } from '../../../domain/money';
import { isPayable } from '../../../domain/order-outcome';
import {
  selectChosenMethod,
  selectOrderPaymentChild,
  selectOrderPaymentPhase,
  selectPayableMethods,
  selectPayingOrder,
  selectPayingOrderId,
} from '../../../machines/payments/order-payment.selectors';
import { selectUser } from '../../../machines/session/session.selectors';
import { actorOptions } from '../../api/actor-options';
import { useLatest } from '../../ui/latest';
import { orderPaymentLogic } from '../../api/order-payment-logic';
import { methodName, money, t } from '../../i18n/messages';
import { SessionContext } from '../../session';
import { Button, ConfirmModal, Modal, Spinner } from '../../ui';
import { OrderOutcome, orderLabel, outcomeOf } from '../../ui/OrderOutcome';

type Order = components['schemas']['Order'];
export type OrderPaymentRef = ActorRefFrom<typeof orderPaymentLogic>;
export type PaymentSlot = ComponentType<{
  methodId: number;
  actorRef: AnyActorRef;
  bankAccounts: NonNullable<components['schemas']['PaymentMethod']['bankList']>;
  bankCodes: readonly components['schemas']['BankCodeOption'][];
  onLeave?: () => void;
}>;

/**
 * The page's pay-again actor; `ordersChanged` reads the list again. A paid (or handed-over) payment
 * ends where the checkout's does (spec 4: the thank-you page when the site has one, which reads
 * the order and thanks only a paid one; else the list, read again).
 */
export function useOrderPayment(onOrdersChanged: () => void, settings?: { thankYouPage: boolean; slipRequired: boolean }, payOrderId: number | null = null): OrderPaymentRef {
  const user = SessionContext.useSelector(selectUser);
  const changed = useLatest(onOrdersChanged);
  return useActorRef(orderPaymentLogic.provide({ actions: { ordersChanged: () => changed.current() } }), {
    ...actorOptions('orderPayment'),
    input: { user, thankYouPage: settings?.thankYouPage ?? false, slipRequired: settings?.slipRequired ?? false, payOrderId },
  });
}

/** Pay / cancel for an order that can still be paid. */
export function OrderPaymentActions({ order, actorRef }: { order: Order; actorRef: OrderPaymentRef }) {
  const busy = useSelector(actorRef, (s) => !s.matches('idle'));
  if (!isPayable(outcomeOf(order).state)) return null;
  // A free order left unrecorded has nothing to pay: the button records it (spec 6).
  const label = isFreeOrder(order.total_amount) ? t('getFreeOrder') : outcomeOf(order).state === 'failed' ? t('payOrderAgain') : t('payOrder');
  return (
    <span className="order-actions" role="group" aria-label={t('paymentActions')}>
      <Button onClick={() => actorRef.send({ type: 'order.pay', orderId: order.id })} disabled={busy} data-testid="order-pay">
        {label}
      </Button>
      <Button variant="secondary" onClick={() => actorRef.send({ type: 'order.cancel', orderId: order.id })} disabled={busy} data-testid="order-cancel">
        {t('cancelOrder')}
      </Button>
    </span>
  );
}

/** The pay panel: methods, the running payment (its own modal), the failure with its reason, the cancel question. */
export function OrderPaymentPanel({ actorRef, PaymentHost, bankCodes = [] }: { actorRef: OrderPaymentRef; PaymentHost: PaymentSlot; bankCodes?: readonly components['schemas']['BankCodeOption'][] }) {
  const phase = useSelector(actorRef, selectOrderPaymentPhase);
  const orderId = useSelector(actorRef, selectPayingOrderId);
  const order = useSelector(actorRef, selectPayingOrder);
  const methods = useSelector(actorRef, selectPayableMethods);
  const chosen = useSelector(actorRef, selectChosenMethod);
  const child = useSelector(actorRef, selectOrderPaymentChild, (a, b) => a?.ref === b?.ref);
  const label = orderId !== null ? orderLabel({ id: orderId }) : '';
  const leave = () => actorRef.send({ type: 'payment.leave' });
  if (phase === 'confirmingCancel' || phase === 'cancelling') {
    return (
      <ConfirmModal
        open
        title={t('cancelOrder')}
        body={phase === 'cancelling' ? <Spinner /> : t('cancelOrderConfirm', { order: label })}
        confirmLabel={t('cancelOrder')}
        cancelLabel={t('close')}
        onConfirm={() => actorRef.send({ type: 'cancel.confirm' })}
        onCancel={() => actorRef.send({ type: 'cancel.dismiss' })}
        testId="order-cancel-modal"
      />
    );
  }
  if (phase === 'paying' && child) {
    return (
      <PaymentHost methodId={child.methodId} actorRef={child.ref} bankAccounts={methods.find((m) => m.id === 1)?.bankList ?? []} bankCodes={bankCodes} onLeave={leave} />
    );
  }
  const open = phase === 'loading' || phase === 'choosing' || phase === 'failed';
  return (
    <Modal open={open} title={t(order && isFreeOrder(order.total_amount) ? 'getFreeOrderTitle' : 'payOrderTitle', { order: label })} onClose={leave} maskClosable={false} testId="order-pay-modal" maxWidth={520}>
      {phase === 'loading' ? <Spinner /> : null}
      {order && phase !== 'loading' ? (
        <p>
          {money(order.total_amount, order.currency_code)} <OrderOutcome order={order} />
        </p>
      ) : null}
      {phase === 'choosing' ? (
        <>
          <fieldset className="ui-choices" data-testid="order-pay-methods">
            <legend className="ui-field__label">{t('chooseMethod')}</legend>
            {methods.map((m) => (
              <label key={m.id} className="ui-choice">
                <input type="radio" name="order-pay-method" value={m.id} checked={chosen === m.id} onChange={() => actorRef.send({ type: 'method.choose', methodId: m.id })} />{' '}
                {methodName(m.id, m.name)}
              </label>
            ))}
          </fieldset>
          <p className="order-pay-actions">
            <Button onClick={() => actorRef.send({ type: 'payment.start' })} disabled={chosen === null} data-testid="order-pay-start">
              {t('payOrder')}
            </Button>{' '}
            <Button variant="secondary" onClick={() => actorRef.send({ type: 'order.cancel' })} data-testid="order-pay-cancel">
              {t('cancelOrder')}
            </Button>
          </p>
        </>
      ) : null}
      {phase === 'failed' ? (
        <p className="order-pay-actions">
          <Button onClick={() => actorRef.send({ type: 'payment.retry' })} data-testid="order-pay-retry">
            {t('tryAgain')}
          </Button>{' '}
          <Button variant="secondary" onClick={() => actorRef.send({ type: 'payment.changeMethod' })} data-testid="order-pay-change">
            {t('changeMethod')}
          </Button>{' '}
          <Button variant="secondary" onClick={() => actorRef.send({ type: 'order.cancel' })} data-testid="order-pay-cancel">
            {t('cancelOrder')}
          </Button>
        </p>
      ) : null}
    </Modal>
  );
}
