import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import { planPrice } from '../../../../domain/plans';
import type { WithholdingPercent } from '../../../../domain/tax';
import { WITHHOLDING_PERCENTS } from '../../../../domain/tax';
import type { Currency } from '../../../../domain/money';
import type { PricingPlan } from '../../../../domain/types';
import { MAX_QTY, type cartMachine } from '../../../../machines/cart/cart.machine';
import {
  selectAppliedCoupons,
  selectApplyingCoupon,
  selectCanApplyCoupon,
  selectCartLines,
  selectCartTotals,
  selectCouponCode,
  selectCouponError,
  selectCurrency,
  selectCurrencyChoices,
  selectPaymentMethods,
  selectPlansOf,
  selectPromotions,
  selectShipping,
  selectSwitchModal,
  selectUsdOffered,
  selectWithholding,
} from '../../../../machines/cart/cart.selectors';
import type { ShippingAddress } from '../../../../machines/shipping/shipping-address.machine';
import { feeIn } from '../../../../machines/cart/cart-summary';
import { methodName, msg, planTypeName, t, termText, tm } from '../../../i18n/messages';
import { AddressBook } from './AddressBook';
import { Alert, Button, ChoiceGroup, CloseIcon, ConfirmModal, Price } from '../../../ui';

export type CartRef = ActorRefFrom<typeof cartMachine>;

function planTerm(plan: PricingPlan): string {
  if (plan.plan_type === 'One-Time Payment' || plan.plan_type === 'Free') return planTypeName(plan.plan_type);
  if (plan.term === -1) return t('termUnlimited');
  if (plan.term && plan.term_unit) {
    const first = termText(plan.term, plan.term_unit);
    return plan.term_2 && plan.term_unit_2 ? t('termPlus', { first, second: termText(plan.term_2, plan.term_unit_2) }) : first;
  }
  return planTypeName(plan.plan_type);
}

/** The plans of one cart line: visible plans, member-only ones disabled, the "no plan for you" message. */
export function PlanPicker({ cartRef, courseId, courseName, product = false }: { cartRef: CartRef; courseId: number; courseName: string; /** A book: a price, no access term. */ product?: boolean }) {
  const list = useSelector(cartRef, (s) => selectPlansOf(s, courseId), (a, b) => JSON.stringify(a) === JSON.stringify(b));
  const chosen = useSelector(cartRef, (s) => selectCartLines(s).find((l) => l.course_id === courseId)?.pricing_plan_id ?? null);
  const currency = useSelector(cartRef, selectCurrency);
  const name = `plan-${courseId}`;
  if (list.message) {
    return (
      <Alert data-testid="no-plan">
        {tm(list.message)}
      </Alert>
    );
  }
  return (
    <ChoiceGroup legend={`${t('pricing')}: ${courseName}`} className="plans">
      <div className="plans__list" data-testid={`plans-${courseId}`}>
        {list.plans.map(({ plan, selectable, reason }) => {
          const price = planPrice(plan, currency);
          return (
            <label key={plan.id} className={['plan', plan.id === chosen ? 'plan--chosen' : '', selectable ? '' : 'plan--disabled'].join(' ')}>
              <input
                type="radio"
                name={name}
                value={plan.id}
                checked={plan.id === chosen}
                disabled={!selectable}
                onChange={() => cartRef.send({ type: 'plan.choose', courseId, planId: plan.id })}
                data-testid={`plan-${plan.id}`}
              />
              <span className="plan__name">{plan.name}</span>
              {product ? null : <span className="plan__term ui-muted">{planTerm(plan)}</span>}
              <span className="plan__price">{price === null ? '—' : <Price amount={price} currency={currency} freeWhenZero />}</span>
              {reason === 'member_only' ? <span className="plan__note">{t('membersOnly')}</span> : null}
            </label>
          );
        })}
      </div>
    </ChoiceGroup>
  );
}

/** A book's quantity: 1 up to its stock (99 at most); the cart machine refuses anything else. */
function QtyPicker({ cartRef, courseId, courseName }: { cartRef: CartRef; courseId: number; courseName: string }) {
  const line = useSelector(cartRef, (s) => selectCartLines(s).find((l) => l.course_id === courseId));
  const id = `qty-${courseId}`;
  if (!line || line.course_type !== 'Product') return null;
  const max = Math.min(MAX_QTY, line.stock ?? MAX_QTY);
  return (
    <div className="cart-line__qty">
      <label htmlFor={id}>{t('quantity')}</label>
      <select
        id={id}
        className="ui-input"
        value={line.qty ?? 1}
        aria-label={`${t('quantity')}: ${courseName}`}
        onChange={(event) => cartRef.send({ type: 'line.setQty', courseId, qty: Number(event.currentTarget.value) })}
        data-testid={`qty-${courseId}`}
      >
        {Array.from({ length: Math.max(1, max) }, (_, i) => i + 1).map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      {line.stock !== null && line.stock !== undefined ? <span className="ui-muted">{t('stockLeft', { count: line.stock })}</span> : null}
    </div>
  );
}

/** Cart lines with their plan choice and a book's quantity; on /cart (editable) also a remove button. */
export function CartLines({ cartRef, editable = false }: { cartRef: CartRef; editable?: boolean }) {
  const lines = useSelector(cartRef, selectCartLines);
  if (lines.length === 0) {
    return (
      <p className="ui-muted" data-testid="cart-empty">
        {msg('EMPTY_CART')}
      </p>
    );
  }
  return (
    <ul className="cart-lines" data-testid="cart-lines">
      {lines.map((line) => (
        <li key={line.key} className="cart-line" data-testid={`cart-line-${line.course_id}`}>
          <div className="cart-line__head">
            {line.course_image ? <img src={line.course_image} alt="" width={64} height={36} loading="lazy" /> : null}
            <span className="cart-line__name">{line.course_name}</span>
            {editable ? (
              <Button variant="secondary" onClick={() => cartRef.send({ type: 'line.remove', courseId: line.course_id })} aria-label={t('removeLine', { name: line.course_name })} data-testid={`remove-${line.course_id}`}>
                {t('remove')}
              </Button>
            ) : null}
          </div>
          <PlanPicker cartRef={cartRef} courseId={line.course_id} courseName={line.course_name} product={line.course_type === 'Product'} />
          <QtyPicker cartRef={cartRef} courseId={line.course_id} courseName={line.course_name} />
        </li>
      ))}
    </ul>
  );
}

/** Coupon input: Enter applies it; applied coupons can be removed. */
export function CouponForm({ cartRef }: { cartRef: CartRef }) {
  const code = useSelector(cartRef, selectCouponCode);
  const error = useSelector(cartRef, selectCouponError);
  const canApply = useSelector(cartRef, selectCanApplyCoupon);
  const applying = useSelector(cartRef, selectApplyingCoupon);
  const coupons = useSelector(cartRef, selectAppliedCoupons);
  const id = `coupon${useId().replace(/:/g, '')}`;
  return (
    <div className="coupon" data-testid="coupon">
      <label className="ui-field__label" htmlFor={id}>
        {t('coupon')}
      </label>
      <div className="coupon__row">
        <input
          id={id}
          className="ui-input"
          value={code}
          placeholder={t('couponCode')}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => cartRef.send({ type: 'coupon.type', code: event.currentTarget.value })}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              cartRef.send({ type: 'coupon.apply' });
            }
          }}
          data-testid="coupon-input"
        />
        <Button variant="secondary" onClick={() => cartRef.send({ type: 'coupon.apply' })} disabled={!canApply} loading={applying} data-testid="coupon-apply">
          {t('applyCoupon')}
        </Button>
      </div>
      {error ? (
        <p id={`${id}-error`} className="ui-field__error" role="alert" data-testid="coupon-error">
          {tm(error)}
        </p>
      ) : null}
      {coupons.length > 0 ? (
        <ul className="coupon__applied" aria-label={t('coupon')}>
          {coupons.map((c) => (
            <li key={c.id} className="chip" data-testid="coupon-applied">
              <span>{c.code}</span>
              <button type="button" className="chip__remove" aria-label={t('removeCoupon', { code: c.code })} onClick={() => cartRef.send({ type: 'coupon.remove', couponId: c.id })}>
                <CloseIcon />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Usable promotions; one may be chosen or none. */
export function PromotionList({ cartRef }: { cartRef: CartRef }) {
  const offers = useSelector(cartRef, selectPromotions, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  const currency = useSelector(cartRef, selectCurrency);
  if (offers.length === 0) return null;
  const none = offers.every((o) => !o.selected);
  return (
    <ChoiceGroup legend={t('promotions')} className="promotions">
      <div data-testid="promotions">
        {offers.map((o) => (
          <label key={o.promotion.id} className={['promotion', o.selected ? 'promotion--chosen' : ''].join(' ')}>
            <input type="radio" name="promotion" checked={o.selected} onChange={() => cartRef.send({ type: 'promotion.select', promotionId: o.promotion.id })} data-testid={`promotion-${o.promotion.id}`} />
            <span className="promotion__title">{o.promotion.title}</span>
            <span className="promotion__discount">
              <Price amount={o.discount} currency={currency} negative />
            </span>
          </label>
        ))}
        <label className="promotion">
          <input type="radio" name="promotion" checked={none} onChange={() => cartRef.send({ type: 'promotion.clear' })} data-testid="promotion-none" />
          <span>{t('noPromotion')}</span>
        </label>
      </div>
    </ChoiceGroup>
  );
}

/** The two exclusivity confirmations. */
export function SwitchModals({ cartRef }: { cartRef: CartRef }) {
  const which = useSelector(cartRef, selectSwitchModal);
  const confirm = () => cartRef.send({ type: 'switch.confirm' });
  const cancel = () => cartRef.send({ type: 'switch.cancel' });
  return (
    <>
      <ConfirmModal open={which === 'toPromotion'} title={t('switchToPromotionTitle')} body={t('switchToPromotionBody')} onConfirm={confirm} onCancel={cancel} testId="switch-promotion" />
      <ConfirmModal open={which === 'toCoupon'} title={t('switchToCouponTitle')} body={t('switchToCouponBody')} onConfirm={confirm} onCancel={cancel} testId="switch-coupon" />
    </>
  );
}

/** THB / USD, only in the USD layout. */
export function CurrencySwitch({ cartRef }: { cartRef: CartRef }) {
  const offered = useSelector(cartRef, selectUsdOffered);
  const choices = useSelector(cartRef, selectCurrencyChoices, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  if (!offered) return null;
  const refused = choices.some((c) => !c.offered);
  return (
    <ChoiceGroup legend={t('currency')} className="currency">
      <div className="segmented">
        {choices.map((c) => (
          <label key={c.currency}>
            <input
              type="radio"
              name="currency"
              checked={c.chosen}
              disabled={!c.offered}
              aria-describedby={c.offered ? undefined : 'currency-refused'}
              onChange={() => cartRef.send({ type: 'currency.choose', currency: c.currency })}
              data-testid={`currency-${c.currency}`}
            />{' '}
            {c.currency}
          </label>
        ))}
      </div>
      {refused ? (
        <p id="currency-refused" className="ui-muted" data-testid="currency-refused">
          {t('usdNotOffered')}
        </p>
      ) : null}
    </ChoiceGroup>
  );
}

/** Withholding tax (juristic buyers over the threshold): on/off and 3% / 1%. */
export function WithholdingPanel({ cartRef }: { cartRef: CartRef }) {
  const w = useSelector(cartRef, selectWithholding, (a, b) => a.offered === b.offered && a.chosen === b.chosen && a.percent === b.percent);
  if (!w.offered) return null;
  return (
    <div className="withholding" data-testid="withholding">
      <label className="check">
        <input type="checkbox" checked={w.chosen} onChange={(event) => cartRef.send({ type: 'withholding.set', on: event.currentTarget.checked })} /> {t('withholdingTax')}
      </label>
      {w.chosen ? (
        <ChoiceGroup legend={t('withholdingPercent')}>
          <div className="segmented">
            {WITHHOLDING_PERCENTS.map((p: WithholdingPercent) => (
              <label key={p}>
                <input type="radio" name="withholding-percent" checked={w.percent === p} onChange={() => cartRef.send({ type: 'withholding.choosePercent', percent: p })} /> {p}%
              </label>
            ))}
          </div>
        </ChoiceGroup>
      ) : null}
      <label className="check">
        <input type="checkbox" checked={w.taxInvoice.checked || w.chosen} disabled={w.taxInvoice.locked || w.chosen} readOnly /> {t('requestTaxInvoice')}
      </label>
    </div>
  );
}

/** One row of the totals: its label and amount (a discount or withholding shown as taken off). */
function TotalRow({ label, testId, amount, currency, negative = false, payable = false }: { label: string; testId?: string; amount: number; currency: Currency; negative?: boolean; payable?: boolean }) {
  return (
    <div className={payable ? 'totals__payable' : undefined}>
      <dt>{label}</dt>
      <dd data-testid={testId}>
        <Price amount={amount} currency={currency} negative={negative} />
      </dd>
    </div>
  );
}

/** Subtotal, discount, shipping, withholding and the payable total. */
export function CartTotals({ cartRef }: { cartRef: CartRef }) {
  const totals = useSelector(cartRef, selectCartTotals, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  const currency = useSelector(cartRef, selectCurrency);
  return (
    <dl className="totals" data-testid="cart-totals">
      <TotalRow label={t('subtotal')} testId="cart-subtotal" amount={totals.subtotal} currency={currency} />
      {totals.discount > 0 ? <TotalRow label={t('discount')} testId="cart-discount" amount={totals.discount} currency={currency} negative /> : null}
      {totals.shippingFee > 0 ? <TotalRow label={t('shippingFee')} testId="cart-shipping" amount={totals.shippingFee} currency={currency} /> : null}
      {totals.withholdingPrice > 0 ? <TotalRow label={t('withholding')} amount={totals.withholdingPrice} currency={currency} negative /> : null}
      <TotalRow label={t('payable')} testId="cart-payable" amount={totals.payable} currency={currency} payable />
      {totals.pricingError ? (
        <Alert kind="error">
          {tm(totals.pricingError)}
        </Alert>
      ) : null}
    </dl>
  );
}

export interface MethodDetailsProps {
  methodId: number;
}

/**
 * Payment methods: the first (id 1 when listed) is preselected by the cart; each selected method
 * shows its own sub-form (`renderDetails`); methods below their minimum are disabled with the reason.
 */
export function PaymentMethodPanel({ cartRef, renderDetails }: { cartRef: CartRef; renderDetails?: (methodId: number) => React.ReactNode }) {
  const methods = useSelector(cartRef, selectPaymentMethods, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  return (
    <ChoiceGroup legend={t('paymentMethods')} className="methods">
      <ul className="methods__list" data-testid="payment-methods">
        {methods.map((m) => (
          <li key={m.id} className={['method', m.selected ? 'method--chosen' : '', m.selectable ? '' : 'method--disabled'].join(' ')}>
            <label className="method__label">
              <input
                type="radio"
                name="payment-method"
                value={m.id}
                checked={m.selected}
                aria-describedby={m.reason ? `method-${m.id}-reason` : undefined}
                onChange={() => cartRef.send({ type: 'method.choose', methodId: m.id })}
                data-testid={`method-${m.id}`}
              />
              <span>{methodName(m.id, m.name)}</span>
            </label>
            {m.reason ? (
              <p id={`method-${m.id}-reason`} className="method__reason">
                {tm(m.reason)}
              </p>
            ) : null}
            {m.selected && renderDetails ? <div className="method__details">{renderDetails(m.id)}</div> : null}
          </li>
        ))}
      </ul>
    </ChoiceGroup>
  );
}

export interface ShippingOptions {
  /** A price per currency (`fee` THB, `fee_usd` USD); an option without one is not offered in that currency. */
  fees: readonly { id: number; name: string; fee: number; fee_usd?: number | null }[];
  addresses: readonly ShippingAddress[];
}

/** Physical products: the shipping address (the student's saved ones) and the shipping fee option. */
export function ShippingPanel({ cartRef, options }: { cartRef: CartRef; options: ShippingOptions }) {
  const shipping = useSelector(cartRef, selectShipping, (a, b) => a.fee?.id === b.fee?.id);
  const currency = useSelector(cartRef, selectCurrency);
  return (
    <div className="shipping" data-testid="shipping">
      <AddressBook cartRef={cartRef} addresses={options.addresses} />
      <ChoiceGroup legend={t('chooseShippingFee')} required>
        {options.fees.flatMap((f) => {
          const amount = feeIn(f, currency);
          return amount === null
            ? []
            : [
                <label key={f.id}>
                  <input type="radio" name="shipping-fee" checked={shipping.fee?.id === f.id} onChange={() => cartRef.send({ type: 'shipping.chooseFee', fee: { id: f.id, name: f.name, fee: f.fee, fee_usd: f.fee_usd ?? null } })} />
                  {f.name} <Price amount={amount} currency={currency} />
                </label>,
              ];
        })}
      </ChoiceGroup>
    </div>
  );
}
