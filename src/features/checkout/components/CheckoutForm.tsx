/**
 * The checkout's form, one for the course/product page's purchase panel and the /cart page: the
 * cart lines, then (a slot for the page's own part: layout 4's registration, /cart's "continue
 * shopping") currency, coupon, promotions, payment method with its sub-form, shipping,
 * withholding, totals, the server's problem, the submit button and why it is disabled. Every
 * state comes from the checkout and cart actors; the form only sends events.
 */
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { selectCartRef, selectCheckoutProblem, selectCreating, selectProblemWayOn, selectSubmitBlock } from '../../../../machines/checkout/checkout.selectors';
import { ROUTES } from '../../../../machines/shared/effects';
import { methodHint, msg, t, tm } from '../../../i18n/messages';
import { Alert, Button, Spinner } from '../../../ui';
import { CheckoutContext } from '../checkout-actor';
import type { PaymentMethod, PurchaseData } from '../purchase-data';
import { CartLines, CartTotals, CouponForm, CurrencySwitch, PaymentMethodPanel, PromotionList, ShippingPanel, WithholdingPanel, type CartRef } from './CartPanel';

export const BLOCK_TEXT = {
  emptyCart: () => msg('EMPTY_CART'),
  creating: () => t('processing'),
  shippingAddress: () => msg('SHIPPING_ADDRESS_REQUIRED'),
  shippingFee: () => msg('SHIPPING_FEE_REQUIRED'),
} as const;

export function MethodDetails({ methodId, methods }: { methodId: number; methods: readonly PaymentMethod[] }) {
  const method = methods.find((m) => m.id === methodId);
  if (methodId === 1 && method?.bankList?.length) {
    return (
      <ul className="bank-list" data-testid="bank-list">
        {method.bankList.map((b) => (
          <li key={b.id}>
            <strong>{b.bank_name}</strong> <span className="bank-account">{b.account_id}</span> <span className="ui-muted">{b.account_name}</span>
          </li>
        ))}
      </ul>
    );
  }
  const hint = methodHint(methodId);
  return hint ? <p className="ui-muted">{hint}</p> : null;
}

export interface CheckoutFormProps {
  purchase: Pick<PurchaseData, 'methods' | 'shippingFees' | 'shippingAddresses'>;
  onSubmit: (form: HTMLFormElement) => void;
  /** /cart: lines can be removed and a book's quantity changed; an empty cart shows only its lines. */
  editable?: boolean;
  /** The page's own part after the lines. */
  afterLines?: ReactNode;
  /** The page knows the course cannot be bought now (buyability): the button says so too. */
  refused?: boolean;
}

export function CheckoutForm({ purchase, onSubmit, editable = false, afterLines, refused = false }: CheckoutFormProps) {
  const cartRef = CheckoutContext.useSelector(selectCartRef) as CartRef | undefined;
  const block = CheckoutContext.useSelector(selectSubmitBlock);
  const creating = CheckoutContext.useSelector(selectCreating);
  const problem = CheckoutContext.useSelector(selectCheckoutProblem);
  const wayOn = CheckoutContext.useSelector(selectProblemWayOn);
  if (!cartRef) return <Spinner />;
  const blockText = block ? BLOCK_TEXT[block]() : null;
  return (
    <form
      noValidate
      className="purchase__form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(event.currentTarget);
      }}
    >
      <CartLines cartRef={cartRef} editable={editable} />
      {afterLines}
      <CheckoutParts cartRef={cartRef} purchase={purchase} hideWhenEmpty={editable}>
        {problem ? (
          <Alert kind="error" data-testid="checkout-problem">
            {tm(problem)}
            {wayOn === 'orders' ? (
              <>
                {' '}
                <Link to={ROUTES.orders} data-testid="problem-orders">
                  {t('problemToOrders')}
                </Link>
              </>
            ) : null}
          </Alert>
        ) : null}
        <Button
          type="submit"
          block
          aria-disabled={block !== null || refused || undefined}
          aria-describedby={blockText ? 'submit-block' : undefined}
          loading={creating}
          data-testid="checkout-submit"
          onClick={(event) => {
            if (creating) event.preventDefault();
          }}
        >
          {t('payNow')}
        </Button>
        {blockText ? (
          <p id="submit-block" className="ui-muted purchase__block" data-testid="submit-block">
            {blockText}
          </p>
        ) : null}
      </CheckoutParts>
    </form>
  );
}

/** Everything after the lines; on /cart (hideWhenEmpty) nothing while the cart is empty. */
function CheckoutParts({ cartRef, purchase, hideWhenEmpty, children }: { cartRef: CartRef; purchase: CheckoutFormProps['purchase']; hideWhenEmpty: boolean; children: ReactNode }) {
  const empty = useSelector(cartRef, (s) => s.context.lines.length === 0);
  if (hideWhenEmpty && empty) return null;
  return (
    <>
      <CurrencySwitch cartRef={cartRef} />
      <CouponForm cartRef={cartRef} />
      <PromotionList cartRef={cartRef} />
      <PaymentMethodPanel cartRef={cartRef} renderDetails={(id) => <MethodDetails methodId={id} methods={purchase.methods} />} />
      {purchase.shippingFees ? <ShippingPanel cartRef={cartRef} options={{ fees: purchase.shippingFees, addresses: purchase.shippingAddresses ?? [] }} /> : null}
      <WithholdingPanel cartRef={cartRef} />
      <CartTotals cartRef={cartRef} />
      {children}
    </>
  );
}
