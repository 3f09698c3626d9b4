/** Payment actors (tag payments): methods, reports, and the calls that start each provider's payment. */
import type {
  GbPrimeCardRequest,
  GbPrimePromptPayRequest,
  OmiseChargeRequest,
  OrderIdBody,
  PaymentOrderEmailRequest,
  PaymentReport,
  PaymentReportPublic,
  PaypalCaptureRequest,
  PaySolutionsRequest,
  TwoC2pPaymentLinkRequest,
} from '../../../machines/shared/api';
import { api } from '../client';
import { operation } from './call';

export const paymentActors = {
  getPaymentMethods: operation('getPaymentMethods', (_input: void, signal) => api.GET('/public/payments/methods', { signal })),
  getBankTransferMethod: operation('getBankTransferMethod', (_input: void, signal) => api.GET('/public/payments/methods/1', { signal })),
  getBankAccounts: operation('getBankAccounts', (_input: void, signal) => api.GET('/public/payments/methods/1/bank', { signal })),
  getPaymentMethodsForOrder: operation('getPaymentMethodsForOrder', (input: OrderIdBody, signal) =>
    api.GET('/private/payments/methods/order/{orderId}', { params: { path: { orderId: input.orderId } }, signal }),
  ),
  getBankCodeOptions: operation('getBankCodeOptions', (_input: void, signal) => api.GET('/api/payments/methods/banktreansfer', { signal })),
  createPaymentReportPublic: operation('createPaymentReportPublic', (input: PaymentReportPublic, signal) => api.POST('/public/payment/report', { body: input, signal })),
  createPaymentReportPrivate: operation('createPaymentReportPrivate', (input: PaymentReport, signal) => api.POST('/private/payment/report', { body: input, signal })),
  sendPaymentOrderEmail: operation('sendPaymentOrderEmail', (input: PaymentOrderEmailRequest, signal) => api.POST('/api/send/to/email/paymentorder', { body: input, signal })),
  createScbQrCode: operation('createScbQrCode', (input: OrderIdBody, signal) => api.POST('/api/payment/scb/qrcode/create', { body: input, signal })),
  getOmiseCardPublicKey: operation('getOmiseCardPublicKey', (_input: void, signal) => api.GET('/api/omise/creditcard/applicationid', { signal })),
  chargeOmiseCard: operation('chargeOmiseCard', (input: OmiseChargeRequest, signal) => api.POST('/api/omise/creditcard', { body: input, signal })),
  createOmisePromptPay: operation('createOmisePromptPay', (input: OmiseChargeRequest, signal) => api.POST('/api/omise/promptpay', { body: input, signal })),
  create2c2pPaymentLink: operation('create2c2pPaymentLink', (input: TwoC2pPaymentLinkRequest, signal) => api.POST('/api/payment/2c2p/payment/link', { body: input, signal })),
  createGbPrimeCardPayment: operation('createGbPrimeCardPayment', (input: GbPrimeCardRequest, signal) => api.POST('/api/gbprime', { body: input, signal })),
  createGbPrimePromptPay: operation('createGbPrimePromptPay', (input: GbPrimePromptPayRequest, signal) => api.POST('/api/gbprime/promptpay', { body: input, signal })),
  createPaySolutionsPayment: operation('createPaySolutionsPayment', (input: PaySolutionsRequest, signal) => api.POST('/api/pay-solutions', { body: input, signal })),
  createPaypalOrder: operation('createPaypalOrder', (input: OrderIdBody, signal) => api.POST('/api/paypal/orders', { body: input, signal })),
  capturePaypalOrder: operation('capturePaypalOrder', (input: PaypalCaptureRequest, signal) =>
    api.POST('/api/paypal/orders/{paypalOrderId}/capture', { params: { path: { paypalOrderId: input.paypalOrderId } }, body: { orderId: input.orderId }, signal }),
  ),
};
