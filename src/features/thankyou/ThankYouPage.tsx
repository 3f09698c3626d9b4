import { Link, useLoaderData, useRevalidator } from 'react-router';
import type { components } from '../../../generated/api';
import { orderRequests } from '../../api/requests/orders';
import { useOrdersReadAgain } from '../../api/order-watch-logic';
import { isApiError } from '../../api/errors';
import { loadDocuments, type OrderDocument } from '../../api/documents';
import { t } from '../../i18n/messages';
import { LoginForm, useReadAgainOnLogInOut } from '../../session';
import { orderLabel, outcomeOf, PaymentFailedAlert } from '../../ui/OrderOutcome';
import { OrderNextStep, OrderSummary } from '../../ui/OrderSummary';
import { OrderDocuments } from '../../ui/OrderDocuments';
import { ROUTES } from '../../../machines/shared/effects';

type Order = components['schemas']['Order'];

export type ThankYouData = { kind: 'order'; order: Order; documents?: OrderDocument[] } | { kind: 'notFound' } | { kind: 'login' };

/** /thankyou?orderId={order token}: the order's real status (getOrderByToken); unknown or someone else's token is not found. */
export async function thankYouLoader({ request }: { request: Request }): Promise<ThankYouData> {
  const token = new URL(request.url).searchParams.get('orderId');
  if (!token) return { kind: 'notFound' };
  try {
    const body = await orderRequests.getOrderByToken.call({ orderToken: token }, request.signal);
    const documents = await loadDocuments([body.data], request.signal);
    return { kind: 'order', order: body.data, documents: documents[body.data.id] ?? [] };
  } catch (error) {
    if (isApiError(error) && (error.status === 401 || error.status === 403)) return { kind: 'login' };
    if (isApiError(error) && (error.status === 404 || error.status === 400)) return { kind: 'notFound' };
    throw error;
  }
}

function Outcome({ order, documents }: { order: Order; documents: OrderDocument[] }) {
  const o = outcomeOf(order);
  const label = orderLabel(order);
  const title = o.state === 'paid' ? t('thankYouTitle') : o.state === 'awaitingApproval' ? t('thankYouAwaitingApproval') : o.state === 'awaitingPayment' || o.state === 'failed' ? t('thankYouPending', { order: label }) : t('orderClosed', { order: label });
  return (
    <>
      <h1 data-testid="thankyou-title" data-state={o.state}>
        {title}
      </h1>
      {o.state === 'paid' ? <p>{t('thankYouBody')}</p> : null}
      <PaymentFailedAlert order={order} />
      <p>
        {t('orderNumber')}: <strong data-testid="order-number">{label}</strong>
      </p>
      <OrderSummary order={order} />
      <OrderDocuments documents={documents} />
      <OrderNextStep order={order} payHref={ROUTES.payOrder(order.id)} />
    </>
  );
}

/** The end of a purchase: says what the server knows about the order; the saved checkout flow is forgotten. */
export function ThankYouPage() {
  const data = useLoaderData() as ThankYouData;
  const revalidator = useRevalidator();
  const readAgain = () => void revalidator.revalidate();
  useOrdersReadAgain(readAgain);
  useReadAgainOnLogInOut(readAgain);
  return (
    <main className="page page--narrow" data-testid="thankyou-page">
      {data.kind === 'order' ? (
        <Outcome order={data.order} documents={data.documents ?? []} />
      ) : data.kind === 'login' ? (
        <section className="panel" aria-labelledby="thankyou-login">
          <h1 id="thankyou-login">{t('thankYouLogin')}</h1>
          <LoginForm idPrefix="thankyou-login" />
        </section>
      ) : (
        <>
          <h1 data-testid="thankyou-title" data-state="notFound">
            {t('thankYouNotFound')}
          </h1>
          <p>{t('thankYouNotFoundBody')}</p>
        </>
      )}
      <p>
        <Link className="ui-btn ui-btn--primary" to={ROUTES.orders}>
          {t('toMyOrders')}
        </Link>
      </p>
    </main>
  );
}

export default ThankYouPage;
