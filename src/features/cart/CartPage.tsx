import { useEffect } from 'react';
import { Link, useLoaderData, useRevalidator, useSearchParams } from 'react-router';
import { actorOptions } from '../../api/actor-options';
import { msg, t } from '../../i18n/messages';
import { LoginForm, SessionContext, useReadAgainOnLogInOut } from '../../session';
import { CheckoutContext, DataLayer, SessionLink } from '../checkout/checkout-actor';
import { ChildModals, LoginModal, ModalRegistration, type PaymentSlot } from '../checkout/components/PurchasePanel';
import { CheckoutForm } from '../checkout/components/CheckoutForm';
import { ReportShownCurrency, ShownCurrencyProvider, useShownCurrency } from '../checkout/shown-currency';
import '../checkout/checkout.css';
import { cartCheckoutInput, cartPageLogic, setCartReloader } from './cart-checkout';
import type { CartPageData } from './loader';

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
  const config = CheckoutContext.useSelector((s) => s.context.settings.registration ?? {});
  return (
    <section className="purchase cart-page__checkout" aria-labelledby="cart-title" data-testid="cart-checkout">
      <h1 id="cart-title">{t('cartTitle')}</h1>
      <CheckoutForm
        purchase={data.purchase}
        editable
        onSubmit={() => checkout.send({ type: 'checkout.submit' })}
        afterLines={
          <p>
            <Link to="/">{t('continueShopping')}</Link>
          </p>
        }
      />
      <LoginModal data={data} config={config} />
      <ChildModals PaymentHost={PaymentHost} methods={data.purchase.methods} bankCodes={data.purchase.bankCodes} />
    </section>
  );
}

/**
 * /cart: several courses and books in one order. Lines are removed, plans changed and a book's
 * quantity set here (the cart machine; each change saved to the server cart). A visitor sees the
 * login panel; at login the page reads its data again, which merges the visitor's cart into the
 * student's, and the checkout starts again from the merged cart, in the currency the buyer chose.
 */
export function CartPage({ PaymentHost }: { PaymentHost: PaymentSlot }) {
  const data = useLoaderData() as CartPageData;
  // The cart's currency outlives a checkout: read again at login, the new checkout starts in the buyer's choice.
  return (
    <ShownCurrencyProvider initial={data.settings.currency}>
      <CartPageBody data={data} PaymentHost={PaymentHost} />
    </ShownCurrencyProvider>
  );
}

function CartCurrency() {
  const currency = CheckoutContext.useSelector((s) => s.context.cart.currency);
  return <ReportShownCurrency currency={currency} />;
}

function CartPageBody({ data, PaymentHost }: { data: CartPageData; PaymentHost: PaymentSlot }) {
  const chosenCurrency = useShownCurrency(data.settings.currency);
  const user = SessionContext.useSelector((s) => s.context.user);
  const revalidator = useRevalidator();
  useEffect(() => {
    document.title = `${t('cart')} — ${msg('APP_TITLE')}`;
  }, []);
  // At login (or logout) the data is read again: the visitor's cart is merged into the student's.
  const loggedIn = useReadAgainOnLogInOut(() => void revalidator.revalidate());
  // An order refused as stale: the page reads the server's cart again and shows it.
  useEffect(() => setCartReloader(() => void revalidator.revalidate()), [revalidator]);
  // Logged in with nothing in the cart: the loader (read again at login) sends the visitor back (followReturnLink).
  const input = cartCheckoutInput(data, loggedIn === data.student ? user : null, chosenCurrency);
  // A new checkout whenever the data is read again (login, merge).
  const key = `${data.student ? 'student' : 'visitor'}-${data.cart.updated_at ?? 'new'}-${data.cart.lines.length}`;
  return (
    <main className="page cart-page" data-testid="cart-page">
      <CheckoutContext.Provider key={key} logic={cartPageLogic} options={{ ...actorOptions('checkout'), input }}>
        <CartCurrency />
        <SessionLink forwardLogin={false} />
        <DataLayer />
        {loggedIn ? null : <VisitorPanel data={data} />}
        <CartCheckout data={data} PaymentHost={PaymentHost} />
      </CheckoutContext.Provider>
    </main>
  );
}
