/** Payment requests (tag payments): methods, reports, and the calls that start each provider's payment. */
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
import { bankCodeRequests } from './bank-codes';
import { request } from '../request';

export const paymentRequests = {
  getPaymentMethods: request('getPaymentMethods', (_input: void, signal) => api.GET('/public/payments/methods', { signal })),
  getBankTransferMethod: request('getBankTransferMethod', (_input: void, signal) => api.GET('/public/payments/methods/1', { signal })),
  getBankAccounts: request('getBankAccounts', (_input: void, signal) => api.GET('/public/payments/methods/1/bank', { signal })),
  getPaymentMethodsForOrder: request('getPaymentMethodsForOrder', (input: OrderIdBody, signal) =>
    api.GET('/private/payments/methods/order/{orderId}', { params: { path: { orderId: input.orderId } }, signal }),
  ),
  ...bankCodeRequests,
  createPaymentReportPublic: request('createPaymentReportPublic', (input: PaymentReportPublic, signal) => api.POST('/public/payment/report', { body: input, signal })),
  createPaymentReportPrivate: request('createPaymentReportPrivate', (input: PaymentReport, signal) => api.POST('/private/payment/report', { body: input, signal })),
  sendPaymentOrderEmail: request('sendPaymentOrderEmail', (input: PaymentOrderEmailRequest, signal) => api.POST('/api/send/to/email/paymentorder', { body: input, signal })),
  createScbQrCode: request('createScbQrCode', (input: OrderIdBody, signal) => api.POST('/api/payment/scb/qrcode/create', { body: input, signal })),
  getOmiseCardPublicKey: request('getOmiseCardPublicKey', (_input: void, signal) => api.GET('/api/omise/creditcard/applicationid', { signal })),
  chargeOmiseCard: request('chargeOmiseCard', (input: OmiseChargeRequest, signal) => api.POST('/api/omise/creditcard', { body: input, signal })),
  createOmisePromptPay: request('createOmisePromptPay', (input: OmiseChargeRequest, signal) => api.POST('/api/omise/promptpay', { body: input, signal })),
  create2c2pPaymentLink: request('create2c2pPaymentLink', (input: TwoC2pPaymentLinkRequest, signal) => api.POST('/api/payment/2c2p/payment/link', { body: input, signal })),
  createGbPrimeCardPayment: request('createGbPrimeCardPayment', (input: GbPrimeCardRequest, signal) => api.POST('/api/gbprime', { body: input, signal })),
  createGbPrimePromptPay: request('createGbPrimePromptPay', (input: GbPrimePromptPayRequest, signal) => api.POST('/api/gbprime/promptpay', { body: input, signal })),
  createPaySolutionsPayment: request('createPaySolutionsPayment', (input: PaySolutionsRequest, signal) => api.POST('/api/pay-solutions', { body: input, signal })),
  createPaypalOrder: request('createPaypalOrder', (input: OrderIdBody, signal) => api.POST('/api/paypal/orders', { body: input, signal })),
  capturePaypalOrder: request('capturePaypalOrder', (input: PaypalCaptureRequest, signal) =>
    api.POST('/api/paypal/orders/{paypalOrderId}/capture', { params: { path: { paypalOrderId: input.paypalOrderId } }, body: { orderId: input.orderId }, signal }),
  ),
};
