import { type Currency } from '../../domain/money';
import { money, t } from '../i18n/messages';

export interface PriceProps {
  /** Minor units (satang, cents); null renders nothing. */
  amount: number | null | undefined;
  currency: Currency;
  /** Show 'Free' for 0 (the sticky bar, plan buttons). */
  freeWhenZero?: boolean;
  /** Strike-through original price. */
  original?: boolean;
  /** A minus sign (discounts). */
  negative?: boolean;
  className?: string;
  testId?: string;
}

export function Price({ amount, currency, freeWhenZero = false, original = false, negative = false, className, testId }: PriceProps) {
  if (amount === null || amount === undefined) return null;
  const text = freeWhenZero && amount === 0 ? t('free') : `${negative && amount > 0 ? '−' : ''}${money(amount, currency)}`;
  const classes = ['ui-price', original ? 'ui-price--original' : '', className ?? ''].filter(Boolean).join(' ');
  return original ? (
    <del className={classes} data-testid={testId}>
      {text}
    </del>
  ) : (
    <span className={classes} data-testid={testId}>
      {text}
    </span>
  );
}
