import { useActorRef, useSelector } from '@xstate/react';
import { useLoaderData, useParams, useSearchParams } from 'react-router';
import type { components } from '../../../generated/api';
import { isPaymentMethodId, TWOC2P_CARD } from '../../../domain/payment-methods';
import type { EncryptedCard } from '../../../machines/payments/two-c2p-card.machine';
import { selectCardPayment } from '../../../machines/payments/card-return.selectors';
import { selectTwoC2pCardPhase } from '../../../machines/payments/two-c2p-card.selectors';
import { actorOptions } from '../../api/actor-options';
import { orderRequests } from '../../api/requests/orders';
import { t } from '../../i18n/messages';
import { Alert, Spinner } from '../../ui';
import { cardReturnLogic } from '../../api/payment-logic';

type Order = components['schemas']['Order'];

/** The order id: the second path segment when numeric, else the one the parent flow gave. */
export function returnOrderId(pathname: string, fallback: number | null): number | null {
  const second = pathname.split('/').filter(Boolean)[1];
  if (second && /^\d+$/.test(second) && Number(second) > 0) return Number(second);
  return fallback;
}

/** The encrypted card from the query, or null when incomplete. */
export function cardFromQuery(params: URLSearchParams): EncryptedCard | null {
  const card = {
    encryptedCardInfo: params.get('encryptedCardInfo') ?? '',
    maskedCardInfo: params.get('maskedCardInfo') ?? '',
    expMonthCardInfo: params.get('expMonthCardInfo') ?? '',
    expYearCardInfo: params.get('expYearCardInfo') ?? '',
  };
  return Object.values(card).every((v) => v !== '') ? card : null;
}

export async function cardReturnLoader({ request, fallbackOrderId = null }: { request: Request; fallbackOrderId?: number | null }): Promise<{ order: Order | null }> {
  const url = new URL(request.url);
  const orderId = returnOrderId(url.pathname, fallbackOrderId);
  if (orderId === null) return { order: null };
  const body = await orderRequests.getOrder.call({ orderId }, request.signal);
  return { order: body.data };
}

function Flow({ order, card }: { order: Order; card: EncryptedCard }) {
  const ref = useActorRef(cardReturnLogic, {
    ...actorOptions('cardReturn'),
    input: {
      order: {
        orderId: order.id,
        orderToken: order.order_token,
        amount: order.total_amount,
        currency: order.currency_code,
        methodId: isPaymentMethodId(order.payment_method_id) ? order.payment_method_id : TWOC2P_CARD,
        email: order.email,
        name: order.email,
        tel: order.tel,
      },
      card,
    },
  });
  const payment = useSelector(ref, selectCardPayment);
  const phase = useSelector(payment, (s) => (s ? selectTwoC2pCardPhase(s) : null));
  return <Spinner label={phase === 'checking' ? t('confirmingPayment') : t('redirecting')} />;
}

/**
 * The card-payment return page: the order id from the second path segment, the encrypted card
 * from the query (encryptedCardInfo, maskedCardInfo, expMonthCardInfo, expYearCardInfo); the
 * card-return machine runs the 2C2P card machine (it signs the gateway form on our server and posts
 * it) and sends the buyer on at its end (paid: the thank-you page; otherwise the order list).
 */
export function CardReturnPage() {
  const { order } = useLoaderData() as { order: Order | null };
  const [params] = useSearchParams();
  useParams();
  const card = cardFromQuery(params);
  return (
    <main className="card-return" data-testid="card-return-page">
      <h1>{t('paymentReturnTitle')}</h1>
      {order && card ? <Flow order={order} card={card} /> : <Alert kind="error" role={undefined}>{t('notFound')}</Alert>}
    </main>
  );
}

export default CardReturnPage;
