import { Link, useLoaderData, useRevalidator } from 'react-router';
import type { components } from '../../../generated/api';
import { orderRequests } from '../../api/requests/orders';
import { useOrdersReadAgain } from '../../api/order-watch-logic';
import { loadSiteSettings } from '../../api/settings';
import { loadBankCodes, type BankCodeOption } from '../../api/bank-codes';
import { loadDocumentsAndWithholding, type OrderDocument, type OrderWithholding } from '../../api/documents';
import { isApiError } from '../../api/errors';
import { dateTime, orderMethodName, t } from '../../i18n/messages';
import { LoginForm, useReadAgainOnLogInOut } from '../../session';
import { OrderOutcome, orderLabel, PaymentFailedAlert } from '../../ui/OrderOutcome';
import { OrderItems } from '../../ui/OrderItems';
import { OrderAmounts } from '../../ui/OrderSummary';
import { OrderDocuments } from '../../ui/OrderDocuments';
import { WithholdingCertificate } from './WithholdingCertificate';
import { OrderPaymentActions, OrderPaymentPanel, useOrderPayment, type PaymentSlot } from './OrderPayment';
import { PAY_ORDER_PARAM } from '../../../machines/shared/effects';

type Order = components['schemas']['Order'];

/** How a payment made on this page ends, from the site settings (absent: the list again, no slip asked). */
export interface OrdersPaymentSettings {
  /** is_thank_you_page: a paid (or handed-over) payment ends on the order's thank-you page, as in the checkout. */
  thankYouPage: boolean;
  /** is_require_payment_slip. */
  slipRequired: boolean;
}

export type OrdersData = ({ orders: Order[] } | { orders: null }) & {
  settings?: OrdersPaymentSettings;
  /** The origin-bank options of a bank transfer's notice. */
  bankCodes?: BankCodeOption[];
  /** `?pay={orderId}` (the course page's "continue paying order #N"): the order whose payment starts, once. */
  payOrderId?: number | null;
  /** Each paid order's receipts, tax invoices and credit notes, by order id (a failed read: none shown). */
  documents?: Record<number, OrderDocument[]>;
  /** Each paid order's withheld tax and its withholding certificate (null: nothing withheld). */
  withholding?: Record<number, OrderWithholding | null>;
};

/** The order id of a `?pay=` link, or null when absent or not an id. */
export function payOrderIdOf(url: URL): number | null {
  const id = Number(url.searchParams.get(PAY_ORDER_PARAM));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The student's orders (GET /private/orders); null when not logged in. */
export async function ordersLoader({ request }: { request: Request }): Promise<OrdersData> {
  const settings = loadSiteSettings(request.signal).then(
    (s): OrdersPaymentSettings => ({ thankYouPage: s.is_thank_you_page, slipRequired: s.is_require_payment_slip }),
    () => undefined,
  );
  const bankCodes = loadBankCodes(request.signal);
  try {
    const body = await orderRequests.listMyOrders.call({}, request.signal);
    const { documents, withholding } = await loadDocumentsAndWithholding(body.data, request.signal);
    return { orders: body.data, settings: await settings, bankCodes: await bankCodes, payOrderId: payOrderIdOf(new URL(request.url)), documents, withholding };
  } catch (error) {
    // Not logged in: nothing is paid from the link (the buyer logs in and follows it again).
    if (isApiError(error) && (error.status === 401 || error.status === 403)) return { orders: null, settings: await settings, bankCodes: await bankCodes, payOrderId: null };
    throw error;
  }
}

/** /myaccount/student/order: where payments end when there is no thank-you page. */
export function OrdersPage({ PaymentHost }: { PaymentHost: PaymentSlot }) {
  const { orders, settings, bankCodes, payOrderId, documents, withholding } = useLoaderData() as OrdersData;
  const revalidator = useRevalidator();
  const readAgain = () => void revalidator.revalidate();
  // The course page's "continue paying order #N": the loader read the order id from the link, the machine starts that payment once.
  const payment = useOrderPayment(readAgain, settings, payOrderId ?? null);
  useOrdersReadAgain(readAgain);
  useReadAgainOnLogInOut(readAgain);
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
          <ol className="order-cards" aria-label={t('myOrders')} data-testid="orders-table">
            {orders.map((o) => (
              <li key={o.id} className="order-card" data-testid="order-row" data-status={o.payment_status}>
                <div className="order-card__head">
                  <strong className="order-card__number">
                    {t('orderNumber')} {orderLabel(o)}
                  </strong>
                  <OrderOutcome order={o} />
                </div>
                <HoldNotice order={o} />
                <OrderItems lines={o.courses ?? []} currency={o.currency_code} />
                <OrderAmounts order={o} />
                <dl className="order-card__facts">
                  <div>
                    <dt>{t('orderDate')}</dt>
                    <dd>{dateTime(o.created_at)}</dd>
                  </div>
                  <div>
                    <dt>{t('paymentMethod')}</dt>
                    <dd data-testid="order-method">{orderMethodName(o)}</dd>
                  </div>
                </dl>
                <OrderDocuments documents={documents?.[o.id] ?? []} />
                <WithholdingCertificate orderId={o.id} withholding={withholding?.[o.id] ?? null} />
                <div className="order-card__actions">
                  <OrderPaymentActions order={o} actorRef={payment} />
                </div>
              </li>
            ))}
          </ol>
        </>
      )}
      <OrderPaymentPanel actorRef={payment} PaymentHost={PaymentHost} bankCodes={bankCodes} />
      <p>
        <Link className="tap-target" to="/">
          {t('allCourses')}
        </Link>
      </p>
    </main>
  );
}

/**
 * The short hold on scarce things (README "Security"): an unpaid order holding seats, items or
 * limited coupons says until when, or that they went back on sale and until when it can still be paid.
 */
function HoldNotice({ order }: { order: { payment_status: string; hold_until?: string | null; hold_released?: boolean; cancel_at: string | null } }) {
  if (order.payment_status !== 'notYetReceived' || !order.hold_until) return null;
  if (order.hold_released) {
    const text = order.cancel_at ? t('holdReleased', { time: dateTime(order.hold_until), cancel: dateTime(order.cancel_at) }) : t('holdReleasedNoCancel', { time: dateTime(order.hold_until) });
    return (
      <p className="order-card__hold" data-testid="order-hold" data-released="true">
        {text}
      </p>
    );
  }
  return (
    <p className="order-card__hold" data-testid="order-hold">
      {t('holdUntil', { time: dateTime(order.hold_until) })}
    </p>
  );
}

export default OrdersPage;
