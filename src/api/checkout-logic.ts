/**
 * The checkout machine with every real actor and effect, its children included (cart, tax gate,
 * layout-4 registration and set-password, the ten payment machines). The course page creates one actor of it.
 */
import { fromPromise, type AnyActorLogic } from 'xstate';
import type { Coupon } from '../../domain/types';
import type { CouponLookupRequest, DataResponse, OrderedFacts } from '../../machines/shared/api';
import type { cartMachine } from '../../machines/cart/cart.machine';
import type { Quote, QuoteRequest } from '../../machines/cart/cart-summary';
import { checkoutMachine } from '../../machines/checkout/checkout.machine';
import { registerAndLoginMachine } from '../../machines/registration/register-and-login.machine';
import { setPasswordMachine } from '../../machines/registration/set-password.machine';
import { taxGateMachine } from '../../machines/tax/tax-gate.machine';
import { cartActors, orderActors, paymentActors, sessionActors, studentActors } from './actors';
import { readOrderedFacts } from './requests/orders';
import { api } from './client';
import { consoleLog } from './console-log';
import { effectActions } from './effects';
import { unwrap } from './errors';
import { paymentMachineLogics } from './payment-logic';
import { builtOnFirstUse } from '../../machines/shared/built-on-first-use';

const log = consoleLog('checkout');

const actions = { ...effectActions, log };

/** The cart reads the coupon with the domain's (wider) Coupon type. */
const getCouponByCouponCode = fromPromise<DataResponse<Coupon>, CouponLookupRequest>(async ({ input, signal }) =>
  unwrap(await api.POST('/public/cart/getCouponByCouponCode', { body: input, signal }), 'getCouponByCouponCode'),
);

/** The server's quote of the cart's choices: every amount the page shows (null for an empty cart). */
async function requestQuote(input: QuoteRequest | null, signal: AbortSignal): Promise<Quote | null | undefined> {
  return input ? unwrap(await api.POST('/public/cart/quote', { body: input, signal }), 'quoteCart').data : null;
}
const quoteCart = fromPromise<Quote | null | undefined, QuoteRequest | null>(({ input, signal }) => requestQuote(input, signal));

/**
 * The quote asked only once `pending()` is done: the /cart page's quote is bound to the saved cart
 * (its version digests the saved lines), so it waits for the line change it follows to be saved.
 * Asked at once, it read the cart before the save and the order after: a false QUOTE_STALE.
 */
export function quoteAfter(pending: () => Promise<unknown>) {
  return fromPromise<Quote | null | undefined, QuoteRequest | null>(async ({ input, signal }) => {
    await pending();
    return requestQuote(input, signal);
  });
}

/** The cart as the checkout declares it (it announces to its parent), with the coupon lookup and the quote. */
const cartLogic = (checkoutMachine.implementations.actors.cart as typeof cartMachine).provide({
  actors: { getCouponByCouponCode, quoteCart },
  actions: { notify: effectActions.notify },
});

// Built when a registration or an order first uses them (machines/shared/built-on-first-use.ts).
export const registerAndLoginLogic = builtOnFirstUse(() =>
  registerAndLoginMachine.provide({
    actors: { registerStudent: studentActors.registerStudent, login: sessionActors.login, loginNonMember: sessionActors.loginNonMember },
    actions: effectActions,
  }),
);

export const setPasswordLogic = setPasswordMachine.provide({ actors: { setStudentPassword: studentActors.setStudentPassword } });

export const taxGateLogic = builtOnFirstUse(() =>
  taxGateMachine.provide({
    actors: { getStudentProfile: studentActors.getStudentProfile, updateStudentTax: studentActors.updateStudentTax, uploadFile: studentActors.uploadFile },
    actions: effectActions,
  }),
);

export const checkoutLogic = checkoutMachine.provide({
  actors: {
    cart: cartLogic,
    registerAndLogin: registerAndLoginLogic,
    setPassword: setPasswordLogic,
    taxGate: taxGateLogic,
    createOrder: orderActors.createOrder,
    confirmSession: studentActors.getStudentProfile,
    readOrderedCourses: fromPromise<OrderedFacts, void>(({ signal }) => readOrderedFacts(signal)),
    createPaymentReportPublic: paymentActors.createPaymentReportPublic,
    clearCart: cartActors.clearCart,
    ...paymentMachineLogics,
  } satisfies Record<string, AnyActorLogic>,
  actions,
});
