import { useEffect, useRef } from 'react';
import { Link, useLoaderData, useRevalidator } from 'react-router';
import type { components } from '../../../generated/api';
import { formatMoney } from '../../../domain/money';
import { PAYMENT_METHOD_NAMES, isPaymentMethodId } from '../../../domain/payment-methods';
import { selectLoggedIn } from '../../../machines/session/session.selectors';
import { api } from '../../api/client';
import { flowPersistence } from '../../api/effects';
import { isApiError, unwrap } from '../../api/errors';
import { t, type UiKey } from '../../i18n/messages';
import { LoginForm, SessionContext } from '../../session';
import { OrderItems } from './OrderItems';

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

function statusText(status: string): string {
  const key = `status_${status}` as UiKey;
  try {
    return t(key) ?? status;
  } catch {
    return status;
  }
}

/** /myaccount/student/order: where payments end when there is no thank-you page. */
export function OrdersPage() {
  const { orders } = useLoaderData() as OrdersData;
  const loggedIn = SessionContext.useSelector(selectLoggedIn);
  const revalidator = useRevalidator();
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
        <ol className="order-cards" aria-label={t('myOrders')} data-testid="orders-table">
          {orders.map((o) => (
            <li key={o.id} className="order-card" data-testid="order-row" data-status={o.payment_status}>
              <div className="order-card__head">
                <strong className="order-card__number">
                  {t('orderNumber')} #{o.id}
                </strong>
                <span className={`status status--${o.payment_status}`}>{statusText(o.payment_status)}</span>
              </div>
              <OrderItems lines={o.courses ?? []} currency={o.currency_code} />
              <dl className="order-card__facts">
                <div>
                  <dt>{t('orderDate')}</dt>
                  <dd>{new Date(o.created_at).toLocaleString('th-TH', { dateStyle: 'medium', timeStyle: 'short' })}</dd>
                </div>
                <div>
                  <dt>{t('paymentMethods')}</dt>
                  <dd>{isPaymentMethodId(o.payment_method_id) ? PAYMENT_METHOD_NAMES[o.payment_method_id].th : o.payment_method_id}</dd>
                </div>
                <div className="order-card__total">
                  <dt>{t('orderTotal')}</dt>
                  <dd>{formatMoney(o.total_amount, o.currency_code)}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ol>
      )}
      <p>
        <Link to="/">{t('allCourses')}</Link>
      </p>
    </main>
  );
}

export default OrdersPage;
