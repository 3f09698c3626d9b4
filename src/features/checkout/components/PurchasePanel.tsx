import { startTransition, useActionState, useEffect, useRef, type ComponentType } from 'react';
import type { AnyActorRef } from 'xstate';
import type { FieldError } from '../../../../domain/forms/common';
import { validateRegistration, type RegistrationConfig } from '../../../../domain/forms/registration';
import { Link } from 'react-router';
import { orderNumber } from '../../../../domain/order-outcome';
import type { RegistrationValues } from '../../../../domain/forms/registration';
import { selectBuyability, selectCartRef, selectFreeCart, selectCreating, selectEmailTaken, selectLoginModalOpen, selectPayment, selectRegistering, selectTaxGateRef } from '../../../../machines/checkout/checkout.selectors';
import { MSG } from '../../../../domain/messages';
import { GROUP_MESSAGE } from '../../../../domain/forms/registration';
import { selectSessionLive } from '../../../../machines/session/session.selectors';
import { t, tm } from '../../../i18n/messages';
import { LoginForm, SessionContext } from '../../../session';
import { Alert, Button, Modal } from '../../../ui';
import { CheckoutForm } from './CheckoutForm';
import { CheckoutContext } from '../checkout-actor';
import type { BankCodeOption, PaymentMethod, PurchasePageData as CoursePageData } from '../purchase-data';
import { AddToCartButton } from './AddToCartButton';
import { SwitchModals, type CartRef } from './CartPanel';
import { readRegistration, RegistrationFields } from './RegistrationForm';
import { TaxModals, type TaxGateRef } from './TaxModals';
import { EmailTaken, ErrorSummary, focusFirstError, SetPassword, type ErrorGroup } from './Layout4Help';
import { ROUTES } from '../../../../machines/shared/effects';

/**
 * The layout-4 buyer's password and login credential: a random secret (crypto, 256 bits,
 * base64url) the buyer never sees or needs; kept only for the login that follows the registration.
 */
export function newBuyerCredential(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/u, '');
}

type SubmitState = { errors: FieldError[]; groups: ErrorGroup[] };
const NO_ERRORS: SubmitState = { errors: [], groups: [] };

/** The lazily loaded payment popups (src/features/payments), handed in by the route. */
export type PaymentSlot = ComponentType<{ methodId: number; actorRef: AnyActorRef; bankAccounts: NonNullable<PaymentMethod['bankList']>; bankCodes: readonly BankCodeOption[]; onLeave?: () => void }>;

/** What the registration needs of the page's data (the course page's, or the /cart page's). */
type RegistrationData = { purchase: Pick<CoursePageData['purchase'], 'customLabels' | 'userGroups'> };

/**
 * The registration inside the login/registration modal (and /cart's visitor panel): the form's
 * values go to the checkout, which registers with username then logs in (its registerAndLogin
 * child) and tells the session. The field errors shown are the form's own checks.
 */
export function ModalRegistration({ config, data }: { config: RegistrationConfig; data: RegistrationData }) {
  const checkout = CheckoutContext.useActorRef();
  const pending = CheckoutContext.useSelector(selectRegistering);
  const formRef = useRef<HTMLFormElement>(null);
  const [state, submit] = useActionState<{ errors: FieldError[] }, HTMLFormElement>((_prev, form) => {
    const values = readRegistration(form, data.purchase.customLabels);
    const checked = validateRegistration(values, config);
    checkout.send({ type: 'registration.submit', values, credential: newBuyerCredential() });
    return { errors: checked.ok ? [] : checked.errors };
  }, { errors: [] });
  // A refused form: focus its first field in error, scrolled into view (as layout 4's form does),
  // not the submit button at the bottom of a long form.
  useEffect(() => {
    if (state.errors.length > 0 && formRef.current) focusFirstError(formRef.current, state.errors);
  }, [state]);
  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        startTransition(() => submit(form));
      }}
      data-testid="modal-registration"
    >
      <RegistrationFields config={config} customLabels={data.purchase.customLabels} userGroups={data.purchase.userGroups} errors={state.errors} disabled={pending} />
      <Button type="submit" block loading={pending} disabled={pending}>
        {t('registerTitle')}
      </Button>
    </form>
  );
}

export function LoginModal({ data, config }: { data: RegistrationData; config: RegistrationConfig }) {
  const open = CheckoutContext.useSelector(selectLoginModalOpen);
  const checkout = CheckoutContext.useActorRef();
  return (
    <Modal open={open} title={`${t('loginTitle')} / ${t('registerTitle')}`} onClose={() => checkout.send({ type: 'auth.dismiss' })} testId="login-modal">
      <LoginForm idPrefix="modal-login" />
      <details className="auth-toggle">
        <summary data-testid="toggle-register">{t('toRegister')}</summary>
        <ModalRegistration config={{ ...config, withLogin: true }} data={data} />
      </details>
    </Modal>
  );
}

export function ChildModals({ PaymentHost, methods, bankCodes = [] }: { PaymentHost: PaymentSlot; methods: readonly PaymentMethod[]; bankCodes?: readonly BankCodeOption[] }) {
  const cartRef = CheckoutContext.useSelector(selectCartRef) as CartRef | undefined;
  const taxRef = CheckoutContext.useSelector(selectTaxGateRef) as TaxGateRef | undefined;
  const payment = CheckoutContext.useSelector(selectPayment, (a, b) => a?.ref === b?.ref);
  const methodId = CheckoutContext.useSelector((s) => s.context.order?.methodId ?? null);
  const checkout = CheckoutContext.useActorRef();
  return (
    <>
      {cartRef ? <SwitchModals cartRef={cartRef} /> : null}
      {taxRef ? <TaxModals taxRef={taxRef} /> : null}
      {payment && methodId !== null ? (
        <PaymentHost methodId={methodId} actorRef={payment.ref} bankAccounts={methods.find((m) => m.id === 1)?.bankList ?? []} bankCodes={bankCodes} onLeave={() => checkout.send({ type: 'payment.leave' })} />
      ) : null}
    </>
  );
}

export interface PurchasePanelProps {
  data: CoursePageData;
  PaymentHost: PaymentSlot;
  /** Layout 4: the whole checkout on the page, with the visitor's registration. */
  embedded: boolean;
}

/**
 * The purchase panel: plans, cart, coupon, promotions, currency, payment method with its
 * sub-form, withholding, totals and the submit button with its disabled reasons; in layout 4 the
 * visitor's registration too. Every state comes from the checkout and cart actors.
 */
export function PurchasePanel({ data, PaymentHost, embedded }: PurchasePanelProps) {
  const checkout = CheckoutContext.useActorRef();
  const creating = CheckoutContext.useSelector(selectCreating);
  const registrationOnPage = CheckoutContext.useSelector((s) => s.context.settings.registrationOnPage);
  const config = CheckoutContext.useSelector((s) => s.context.settings.registration ?? {});
  const loggedIn = SessionContext.useSelector(selectSessionLive);
  const user = SessionContext.useSelector((s) => s.context.user);
  const withRegistration = embedded && registrationOnPage && !loggedIn;
  // The checkout decides whether this buyer may buy the course (a submit of a refused course only warns).
  const buy = CheckoutContext.useSelector(selectBuyability, (a, b) => a.buyable === b.buyable && a.reason === b.reason);
  const withholdingChosen = CheckoutContext.useSelector((s) => s.context.cart.withholding && s.context.cart.totals.withholdingOffered);
  const emailTaken = CheckoutContext.useSelector(selectEmailTaken, (a, b) => a?.email === b?.email && a?.account === b?.account);
  const panelRef = useRef<HTMLElement>(null);
  const [state, submit] = useActionState<SubmitState, HTMLFormElement>((_prev, form) => {
    if (!withRegistration) {
      checkout.send({ type: 'checkout.submit' });
      return NO_ERRORS;
    }
    const values: RegistrationValues = readRegistration(form, data.purchase.customLabels);
    const checked = validateRegistration(values, config);
    const groups: ErrorGroup[] = checked.groups.map((g) => ({ message: g.message, errors: g.errors }));
    // Withholding is for juristic persons only (spec 5): asked here, before any account is created.
    const juristicInvoice = values.is_require_tax_invoice === true && values.tax_person_type === 'juristic_person';
    if (withholdingChosen && !juristicInvoice) {
      const e = { path: 'tax_person_type', message: MSG.WITHHOLDING_JURISTIC_ONLY };
      const tax = groups.find((g) => g.message === GROUP_MESSAGE.tax);
      if (tax) tax.errors = [e, ...tax.errors];
      else groups.push({ message: GROUP_MESSAGE.tax, errors: [e] });
    }
    const errors = groups.flatMap((g) => g.errors);
    // Nothing is created from a form the buyer could not submit: the account and order wait until it is valid.
    if (errors.length > 0) return { errors, groups };
    checkout.send({ type: 'checkout.submit', registration: { values, credential: newBuyerCredential() } });
    return NO_ERRORS;
  }, NO_ERRORS);
  // A failed submit: focus the first field in error, scrolled into view below the sticky bar.
  useEffect(() => {
    if (state.errors.length > 0 && panelRef.current) focusFirstError(panelRef.current, state.errors);
  }, [state]);

  const { course } = data;
  // the course's order as the checkout last read it (read again after the server refused an order of it)
  const unpaidOrderId = CheckoutContext.useSelector((s) => s.context.settings.buying?.orderId ?? null);
  // A free course's unpaid order is one left unrecorded: the way on records it (pay again's free branch), nothing to pay.
  const freeCourse = CheckoutContext.useSelector(selectFreeCart);
  // A book's quantity as chosen in the cart (line.setQty) goes to the cart with it.
  const lineQty = CheckoutContext.useSelector((s) => s.context.cart.lines.find((l) => l.course_id === course.id)?.qty ?? 1);

  return (
    <section ref={panelRef} className="purchase" aria-labelledby="purchase-title" data-testid="purchase-panel">
      <h2 id="purchase-title">{embedded ? t('register') : t('pricing')}</h2>
      {!buy.buyable ? (
        <Alert data-testid="buy-blocked">
          {buy.reason === 'order_not_yet_received' && unpaidOrderId ? (
            // Not a dead end — the unpaid order is paid again (or cancelled) on the order list.
            <Link className="ui-btn ui-btn--primary" to={ROUTES.payOrder(unpaidOrderId)} data-testid="continue-paying">
              {t(freeCourse ? 'getFreeOrderTitle' : 'continuePayingOrder', { order: orderNumber(unpaidOrderId) })}
            </Link>
          ) : (
            tm(buy.message)
          )}
        </Alert>
      ) : null}
      <CheckoutForm
        purchase={data.purchase}
        refused={!buy.buyable}
        onSubmit={(form) => startTransition(() => submit(form))}
        afterLines={
          withRegistration ? (
            <>
              {emailTaken ? <EmailTaken taken={emailTaken} courseId={course.id} onLogIn={() => checkout.send({ type: 'checkout.submit' })} /> : null}
              <RegistrationFields config={config} customLabels={data.purchase.customLabels} userGroups={data.purchase.userGroups} errors={state.errors} disabled={creating} withholdingChosen={withholdingChosen} />
              <ErrorSummary groups={state.groups} root={() => panelRef.current} />
            </>
          ) : null
        }
      />
      {/* Its own form, so outside the checkout's: a nested form would submit the checkout too. */}
      {!withRegistration && embedded && loggedIn && user?.is_non_member ? <SetPassword /> : null}
      {buy.buyable && !embedded ? <AddToCartButton courseId={course.id} name={course.name} qty={lineQty} /> : null}
      <LoginModal data={data} config={config} />
      <ChildModals PaymentHost={PaymentHost} methods={data.purchase.methods} bankCodes={data.purchase.bankCodes} />
    </section>
  );
}
