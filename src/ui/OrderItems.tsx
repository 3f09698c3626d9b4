import type { components } from '../../generated/api';
import type { Currency } from '../../domain/money';
import { money, t } from '../i18n/messages';

type OrderCourseLine = components['schemas']['OrderCourseLine'];

/** What an order bought: each line's name, plan, quantity and price (after its share of the discounts). */
export function OrderItems({ lines, currency }: { lines: readonly OrderCourseLine[]; currency: Currency }) {
  if (lines.length === 0) return null;
  return (
    <ul className="order-items" aria-label={t('orderItems')} data-testid="order-items">
      {lines.map((l) => (
        <li key={`${l.course_id}-${l.pricingplan_id ?? 0}`} className="order-item" data-testid="order-item">
          <span className="order-item__name">{l.course_name}</span>
          {l.pricingplan_name ? <span className="order-item__plan ui-muted">{l.pricingplan_name}</span> : null}
          <span className="order-item__qty">{t('qtyTimes', { qty: l.qty })}</span>
          <span className="order-item__price">{money(Math.max(0, l.original_pricing_price - l.discount), currency)}</span>
        </li>
      ))}
    </ul>
  );
}
