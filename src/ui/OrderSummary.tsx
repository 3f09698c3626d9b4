/**
 * The whole story of one order, as the server computed it: what was bought, the amounts (price,
 * discount, shipping, withholding, the total paid or to pay), the payment method, the state, and
 * what the buyer can do next. The thank-you page shows it; the order list shows the same parts.
 */
import { Link } from 'react-router';
import type { components } from '../../generated/api';
import { money, orderMethodName, t, type UiKey } from '../i18n/messages';
import { OrderItems } from './OrderItems';
import { OrderOutcome, outcomeOf } from './OrderOutcome';

type Order = components['schemas']['Order'];

/** The order's amounts: every line that is not zero, and the total (always). */
export function OrderAmounts({ order }: { order: Order }) {
  const c = order.currency_code;
  const rows: { key: UiKey; amount: number; sign?: '−' }[] = [
    { key: 'subtotal', amount: order.price },
    { key: 'discount', amount: order.discount, sign: '−' },
    { key: 'shippingFee', amount: order.shipping_fee },
    { key: 'withholding', amount: order.withholding_price, sign: '−' },
  ];
  return (
    <dl className="order-amounts" data-testid="order-amounts">
      {rows
        .filter((r) => r.amount !== 0)
        .map((r) => (
          <div key={r.key} data-testid={`order-amount-${r.key}`}>
            <dt>{t(r.key)}</dt>
            <dd>
              {r.sign ?? ''}
              {money(r.amount, c)}
            </dd>
          </div>
        ))}
      <div className="order-amounts__total" data-testid="order-amount-total">
        <dt>{t('orderTotal')}</dt>
        <dd>{money(order.total_amount, c)}</dd>
      </div>
    </dl>
  );
}

/** What the buyer can do next, by the order's state; `payHref` is where an unpaid or failed order is paid (ROUTES.payOrder). */
export function OrderNextStep({ order, payHref }: { order: Order; payHref: string }) {
  const state = outcomeOf(order).state;
  const courses = (order.courses ?? []).filter((l) => l.course_id > 0);
  if (state === 'paid') {
    return (
      <div className="order-next" data-testid="order-next" data-state={state}>
        <p>{t('nextPaid')}</p>
        {courses.length > 0 ? (
          <ul className="order-next__links">
            {courses.map((l) => (
              <li key={`${l.course_id}-${l.pricingplan_id ?? 0}`}>
                <Link className="tap-target" to={`/course/${l.course_id}`}>
                  {t('nextOpenCourse', { name: l.course_name })}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    );
  }
  if (state === 'awaitingPayment' || state === 'failed') {
    return (
      <div className="order-next" data-testid="order-next" data-state={state}>
        <p>{t('nextPay')}</p>
        <Link className="ui-btn ui-btn--primary" to={payHref} data-testid="order-next-pay">
          {state === 'failed' ? t('payOrderAgain') : t('payOrder')}
        </Link>
      </div>
    );
  }
  if (state === 'awaitingApproval') {
    return (
      <p className="order-next" data-testid="order-next" data-state={state}>
        {t('nextAwaitingApproval')}
      </p>
    );
  }
  return (
    <p className="order-next" data-testid="order-next" data-state={state}>
      {t('nextClosed')}
    </p>
  );
}

/** Items, amounts, method and state of one order. */
export function OrderSummary({ order }: { order: Order }) {
  return (
    <section className="order-summary" aria-label={t('orderSummary')} data-testid="order-summary">
      <OrderItems lines={order.courses ?? []} currency={order.currency_code} />
      <OrderAmounts order={order} />
      <dl className="order-card__facts">
        <div>
          <dt>{t('paymentMethod')}</dt>
          <dd data-testid="order-method">{orderMethodName(order)}</dd>
        </div>
        <div>
          <dt>{t('orderStatus')}</dt>
          <dd>
            <OrderOutcome order={order} />
          </dd>
        </div>
      </dl>
    </section>
  );
}
