import { useEffect, useRef } from 'react';
import { Link, useLoaderData, useNavigate, useRevalidator, useSearchParams } from 'react-router';
import { selectCartRef, selectCheckoutProblem, selectCreating, selectSubmitBlock } from '../../../../machines/checkout/checkout.selectors';
import { selectLoggedIn } from '../../../../machines/session/session.selectors';
import { actorOptions } from '../../../api/actor-options';
import { returnLink } from '../../../api/storage';
import { t } from '../../../i18n/messages';
import { LoginForm, SessionContext } from '../../../session';
import { Button, Spinner } from '../../../ui';
import { CheckoutContext } from '../checkout-actor';
import { BLOCK_TEXT, ChildModals, LoginModal, MethodDetails, ModalRegistration, type PaymentSlot } from '../components/PurchasePanel';
import { CartLines, CartTotals, CouponForm, CurrencySwitch, PaymentMethodPanel, PromotionList, ShippingPanel, WithholdingPanel, type CartRef } from './CartPanel';
import '../course.css';
import { cartCheckoutInput, cartPageLogic } from './cart-checkout';
import type { CartPageData } from './cart-loader';

/**
 * The visitor's login panel (username, password, forgot password, social logins). Its register
 * link opens the registration (/cart?register=1, so the address says what is open).
 */
function VisitorPanel({ data }: { data: CartPageData }) {
  const [params, setParams] = useSearchParams();
  const config = CheckoutContext.useSelector((s) => s.context.settings.registration ?? {});
  const registering = params.get('register') === '1';
  return (
    <section className="cart-login" aria-labelledby="cart-login-title" data-testid="cart-login-page">
      <h2 id="cart-login-title">{t('loginToCheckout')}</h2>
      <LoginForm idPrefix="cart" onRegister={() => setParams({ register: '1' }, { replace: true })} />
      {registering ? (
        <section className="cart-register" aria-labelledby="cart-register-title" data-testid="cart-register">
          <h2 id="cart-register-title">{t('registerTitle')}</h2>
          <ModalRegistration config={{ ...config, withLogin: true }} data={data} />
        </section>
      ) : null}
    </section>
  );
}

function CartCheckout({ data, PaymentHost }: { data: CartPageData; PaymentHost: PaymentSlot }) {
  const checkout = CheckoutContext.useActorRef();
  const cartRef = CheckoutContext.useSelector(selectCartRef) as CartRef | undefined;
  const block = CheckoutContext.useSelector(selectSubmitBlock);
  const creating = CheckoutContext.useSelector(selectCreating);
  const problem = CheckoutContext.useSelector(selectCheckoutProblem);
  const config = CheckoutContext.useSelector((s) => s.context.settings.registration ?? {});
  const empty = data.cart.lines.length === 0;
  const blockText = block ? BLOCK_TEXT[block]() : null;
  return (
    <section className="purchase cart-page__checkout" aria-labelledby="cart-title" data-testid="cart-checkout">
      <h1 id="cart-title">{t('cartTitle')}</h1>
      {!cartRef ? (
        <Spinner />
      ) : (
        <form
          noValidate
          className="purchase__form"
          onSubmit={(event) => {
            event.preventDefault();
            checkout.send({ type: 'checkout.submit' });
          }}
        >
          <CartLines cartRef={cartRef} editable />
          <p>
            <Link to="/">{t('continueShopping')}</Link>
          </p>
          {empty ? null : (
            <>
              <CurrencySwitch cartRef={cartRef} />
              <CouponForm cartRef={cartRef} />
              <PromotionList cartRef={cartRef} />
              <PaymentMethodPanel cartRef={cartRef} renderDetails={(id) => <MethodDetails methodId={id} methods={data.purchase.methods} />} />
              {data.purchase.shippingFees ? <ShippingPanel cartRef={cartRef} options={{ fees: data.purchase.shippingFees, addresses: data.purchase.shippingAddresses ?? [] }} /> : null}
              <WithholdingPanel cartRef={cartRef} />
              <CartTotals cartRef={cartRef} />
              {problem ? (
                <p className="ui-alert ui-alert--error" role="alert" data-testid="checkout-problem">
                  {problem}
                </p>
              ) : null}
              <Button
                type="submit"
                block
                aria-disabled={block !== null || undefined}
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
            </>
          )}
        </form>
      )}
      <LoginModal data={data} config={config} />
      <ChildModals PaymentHost={PaymentHost} methods={data.purchase.methods} />
    </section>
  );
}

/**
 * /cart: several courses and books in one order. Lines are removed, plans changed and a book's
 * quantity set here (the cart machine; each change saved to the server cart). A visitor sees the
 * login panel; at login the page reads its data again, which merges the visitor's cart into the
 * student's, and the checkout starts again from the merged cart.
 */
export function CartPage({ PaymentHost }: { PaymentHost: PaymentSlot }) {
  const data = useLoaderData() as CartPageData;
  const user = SessionContext.useSelector((s) => s.context.user);
  const loggedIn = SessionContext.useSelector(selectLoggedIn);
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const was = useRef(loggedIn);
  useEffect(() => {
    document.title = `${t('cart')} — ${t('appTitle')}`;
  }, []);
  // At login (or logout) the data is read again: the visitor's cart is merged into the student's.
  useEffect(() => {
    if (loggedIn !== was.current) {
      was.current = loggedIn;
      void revalidator.revalidate();
    }
  }, [loggedIn, revalidator]);
  // Logged in from the header's login link with nothing in the cart: back to the page the visitor came from.
  useEffect(() => {
    const back = returnLink();
    if (loggedIn && data.student && data.cart.lines.length === 0 && back) navigate(back, { replace: true });
  }, [loggedIn, data, navigate]);
  const input = cartCheckoutInput(data, loggedIn === data.student ? user : null);
  // A new checkout whenever the data is read again (login, merge).
  const key = `${data.student ? 'student' : 'visitor'}-${data.cart.updated_at ?? 'new'}-${data.cart.lines.length}`;
  return (
    <main className="page cart-page" data-testid="cart-page">
      <CheckoutContext.Provider key={key} logic={cartPageLogic} options={{ ...actorOptions('checkout'), input }}>
        {loggedIn ? null : <VisitorPanel data={data} />}
        <CartCheckout data={data} PaymentHost={PaymentHost} />
      </CheckoutContext.Provider>
    </main>
  );
}
