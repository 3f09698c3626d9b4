import type { components } from '../../generated/api';
import { orderNumber } from '../../domain/order-outcome';
import { msg, t, type UiKey } from '../i18n/messages';
import { Alert } from './Alert';

type Order = components['schemas']['Order'];
type Outcome = NonNullable<Order['outcome']>;

/** The order's state as the server computed it (domain/order-outcome); an answer without one falls back to payment_status. */
export function outcomeOf(order: Pick<Order, 'payment_status' | 'outcome'>): Outcome {
  if (order.outcome) return order.outcome;
  const state = order.payment_status === 'approved' ? 'paid' : order.payment_status === 'pendingApproved' ? 'awaitingApproval' : order.payment_status === 'rejected' ? 'rejected' : 'awaitingPayment';
  return { state, reason: null, method_id: null };
}

/** How the order list and the thank-you page show an order's number. */
export function orderLabel(order: Pick<Order, 'id'>): string {
  return orderNumber(order.id);
}

/** The order's status and, for a failed payment, why — in the buyer's language. */
export function OrderOutcome({ order }: { order: Pick<Order, 'payment_status' | 'outcome'> }) {
  const o = outcomeOf(order);
  return (
    <span className="order-outcome" data-testid="order-outcome" data-state={o.state}>
      <span className={`status status--${o.state}`}>{t(`outcome_${o.state}` as UiKey)}</span>
      {o.state === 'failed' && o.reason ? (
        <span className="order-outcome__reason" data-testid="order-outcome-reason" data-reason={o.reason}>
          {t(`payFail_${o.reason}` as UiKey)}
        </span>
      ) : null}
    </span>
  );
}

/**
 * The failure notice of spec 8 (MESSAGES.PAYMENT_FAILED_TITLE / PAYMENT_FAILED in domain/messages.ts) with the reason in the
 * buyer's language, for an order whose latest payment did not pay (a hosted page's failure or cancel
 * lands here).
 */
export function PaymentFailedAlert({ order }: { order: Pick<Order, 'payment_status' | 'outcome'> }) {
  const o = outcomeOf(order);
  if (o.state !== 'failed') return null;
  return (
    <Alert kind="error" as="div" data-testid="payment-failed">
      <strong>{msg('PAYMENT_FAILED_TITLE')}</strong> {msg('PAYMENT_FAILED')}
      {o.reason ? <> ({t(`payFail_${o.reason}` as UiKey)})</> : null}
    </Alert>
  );
}
