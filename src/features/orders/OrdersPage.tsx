import { useEffect, useRef } from 'react';
import { Link, useLoaderData, useRevalidator, useSearchParams } from 'react-router';
import type { components } from '../../../generated/api';
import { selectLoggedIn } from '../../../machines/session/session.selectors';
import { api } from '../../api/client';
import { flowPersistence } from '../../api/effects';
import { isApiError, unwrap } from '../../api/errors';
import { dateTime, methodName, money, t } from '../../i18n/messages';
import { LoginForm, SessionContext } from '../../session';
import { OrderOutcome, orderLabel, PaymentFailedAlert } from '../../ui/OrderOutcome';
import { OrderPaymentActions, OrderPaymentPanel, useOrderPayment, type PaymentSlot } from './OrderPayment';

type Order = components['schemas']['Order'];

export type OrdersData = { orders: Order[] } | { orders: null };

/** The student's orders (GET /private/orders); null when not logged in. */
export async function ordersLoader({ request }: { request: Request }): Promise<OrdersData> {
  try {
    const body = unwrap(await api.GET('/private/orders', { params: { query: {} }, signal: request.signal }), 'listMyOrders');
    return { orders: body.data };
  } catch (error) {
    if (isApiError(error) && (error.status === 401 || error.status === 403)) return { orders: null };
    throw error;
  }
}

/** /myaccount/student/order: where payments end when there is no thank-you page. */
export function OrdersPage({ PaymentHost }: { PaymentHost: PaymentSlot }) {
  const { orders } = useLoaderData() as OrdersData;
  const loggedIn = SessionContext.useSelector(selectLoggedIn);
  const revalidator = useRevalidator();
  const payment = useOrderPayment(() => void revalidator.revalidate());
  const [params] = useSearchParams();
  const payFor = Number(params.get('pay'));
  const asked = useRef(false);
  // The course page's "continue paying order #N" opens the pay panel of that order once.
  useEffect(() => {
    if (asked.current || !loggedIn || !Number.isSafeInteger(payFor) || payFor <= 0) return;
    asked.current = true;
    payment.send({ type: 'order.pay', orderId: payFor });
  }, [loggedIn, payFor, payment]);
  const was = useRef(loggedIn);
  useEffect(() => {
    flowPersistence.actions.clearPersistedSnapshot();
  }, []);
  useEffect(() => {
    if (loggedIn !== was.current) {
      was.current = loggedIn;
      void revalidator.revalidate();
    }
  }, [loggedIn, revalidator]);
  return (
    <main className="page" data-testid="orders-page">
      <h1>{t('myOrders')}</h1>
      {orders === null ? (
        <section className="panel" aria-labelledby="orders-login">
          <h2 id="orders-login">{t('loginTitle')}</h2>
          <LoginForm idPrefix="orders-login" />
        </section>
      ) : orders.length === 0 ? (
        <p>{t('noOrders')}</p>
      ) : (
        <>
        {/* A payment that just failed (a hosted page's failure or cancel lands here): the notice and why. */}
        <PaymentFailedAlert order={orders[0]!} />
        <table className="orders-table" data-testid="orders-table">
          <caption className="ui-visually-hidden">{t('myOrders')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('orderNumber')}</th>
              <th scope="col">{t('orderDate')}</th>
              <th scope="col">{t('paymentMethods')}</th>
              <th scope="col">{t('orderTotal')}</th>
              <th scope="col">{t('orderStatus')}</th>
              <th scope="col">{t('paymentActions')}</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((o) => (
              <tr key={o.id} data-testid="order-row" data-status={o.payment_status}>
                <td>{orderLabel(o)}</td>
                <td>{dateTime(o.created_at)}</td>
                <td>{o.payment_method_id === null || o.payment_method_id === undefined ? '' : methodName(o.payment_method_id)}</td>
                <td>{money(o.total_amount, o.currency_code)}</td>
                <td>
                  <OrderOutcome order={o} />
                </td>
                <td>
                  <OrderPaymentActions order={o} actorRef={payment} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </>
      )}
      <OrderPaymentPanel actorRef={payment} PaymentHost={PaymentHost} />
      <p>
        <Link to="/">{t('allCourses')}</Link>
      </p>
    </main>
  );
}

export default OrdersPage;
