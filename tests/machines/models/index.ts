/** Every machine's model, in the order the report lists them. */
import type { MachineModel } from '../support/model';
import { accessCountdownModel } from './access-countdown.model';
import { bankTransferModel } from './bank-transfer.model';
import { cardReturnModel } from './card-return.model';
import { cartModel } from './cart.model';
import { checkoutModel } from './checkout.model';
import { omiseCardModel } from './omise-card.model';
import { orderPaymentModel } from './order-payment.model';
import { orderWatchModel } from './order-watch.model';
import { paypalModel } from './paypal.model';
import { gbPrimePromptPayModel, omisePromptPayModel } from './promptpay.model';
import { gbPrimeCardModel, paySolutionsModel, twoC2pCardModel, twoC2pLinkModel } from './redirects.model';
import { registerAndLoginModel } from './register-and-login.model';
import { scbQrModel } from './scb-qr.model';
import { setPasswordModel } from './set-password.model';
import { sessionModel } from './session.model';
import { shippingAddressModel } from './shipping-address.model';
import { addToCartModel, imageUploadModel, signInLinkModel } from './small-flows.model';
import { taxGateModel } from './tax-gate.model';
import { withholdingCertificateModel } from './withholding-certificate.model';

export const MODELS = [
  checkoutModel,
  cartModel,
  shippingAddressModel,
  taxGateModel,
  registerAndLoginModel,
  setPasswordModel,
  sessionModel,
  accessCountdownModel,
  bankTransferModel,
  paypalModel,
  omiseCardModel,
  omisePromptPayModel,
  scbQrModel,
  twoC2pLinkModel,
  twoC2pCardModel,
  cardReturnModel,
  gbPrimeCardModel,
  gbPrimePromptPayModel,
  paySolutionsModel,
  orderPaymentModel,
  orderWatchModel,
  withholdingCertificateModel,
  addToCartModel,
  imageUploadModel,
  signInLinkModel,
] as unknown as MachineModel[];
