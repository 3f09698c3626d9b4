/**
 * The API shapes the machines' actors take and give: openapi.yaml's components, through
 * generated/api.ts (snake_case as the spec spells them). Actors are typed with these so the app's
 * implementations (src/api) and the machines agree on one contract.
 */
import type { components } from '../../generated/api';

type Schemas = components['schemas'];

export type Id = Schemas['Id'];
export type PaymentMethodId = Schemas['PaymentMethodId'];
export type OrderPaymentStatus = Schemas['OrderPaymentStatus'];
export type TaxPersonType = Schemas['TaxPersonType'];
export type ValidationIssue = Schemas['ValidationIssue'];

export type OrderIdBody = Schemas['OrderIdBody'];
export type Order = Schemas['Order'];
export type OrderDetail = Schemas['OrderDetail'];
export type OrderCreate = Schemas['OrderCreate'];
export type CreateOrderResponse = Schemas['CreateOrderResponse'];
export type DeleteOrderRequest = Schemas['DeleteOrderRequest'];
export type ClearCartRequest = Schemas['ClearCartRequest'];
export type OrderedCourse = Schemas['OrderedCourse'];
/** What the buyer's ordered courses say for buyability (src/api/requests/orders.ts orderedFacts): the owned courses (approved), each course's latest order status and that order. */
export interface OrderedFacts {
  ownedCourseIds: number[];
  orderStatuses: Record<number, string>;
  orderIds: Record<number, number>;
}
export type SuccessResponse = Schemas['SuccessResponse'];

export type SessionUser = Schemas['SessionUser'];
export type LoginRequest = Schemas['LoginRequest'];
export type NonMemberLoginRequest = Schemas['NonMemberLoginRequest'];
export type LoginResponse = Schemas['LoginResponse'];
export type RegistrationPayload = Schemas['RegistrationPayload'];
export type RegistrationResponse = Schemas['RegistrationResponse'];
export type SetPasswordRequest = Schemas['SetPasswordRequest'];
export type Student = Schemas['Student'];
export type TaxInfo = Schemas['TaxInfo'];

export type Coupon = Schemas['Coupon'];
export type CouponLookupRequest = Schemas['CouponLookupRequest'];

export type PaymentReport = Schemas['PaymentReport'];
export type PaymentReportPublic = Schemas['PaymentReportPublic'];
export type PaymentReportResponse = Schemas['PaymentReportResponse'];
export type PaymentOrderEmailRequest = Schemas['PaymentOrderEmailRequest'];
export type ApproveOrderPaymentRequest = Schemas['ApproveOrderPaymentRequest'];
export type OrderTokenResponse = Schemas['OrderTokenResponse'];
/** uploadFile sends one file in the multipart field `imageinput`. */
export interface UploadRequest {
  imageinput: Blob;
}
export type UploadResponse = Schemas['UploadResponse'];
export type SignInLinkRequest = Schemas['SignInLinkRequest'];

export type ScbQrCodeResponse = Schemas['ScbQrCodeResponse'];
export type OmisePublicKeyResponse = Schemas['OmisePublicKeyResponse'];
export type OmiseChargeRequest = Schemas['OmiseChargeRequest'];
export type OmiseCardChargeResponse = Schemas['OmiseCardChargeResponse'];
export type OmisePromptPayResponse = Schemas['OmisePromptPayResponse'];
export type TwoC2pPaymentLinkRequest = Schemas['TwoC2pPaymentLinkRequest'];
export type TwoC2pPaymentLinkResponse = Schemas['TwoC2pPaymentLinkResponse'];
export type TwoC2pCardRequest = Schemas['TwoC2pCardRequest'];
export type TwoC2pCardForm = Schemas['TwoC2pCardForm'];
export type GbPrimeCardRequest = Schemas['GbPrimeCardRequest'];
export type GbPrimeCardResponse = Schemas['GbPrimeCardResponse'];
export type GbPrimePromptPayRequest = Schemas['GbPrimePromptPayRequest'];
export type GbPrimePromptPayResponse = Schemas['GbPrimePromptPayResponse'];
export type PaySolutionsRequest = Schemas['PaySolutionsRequest'];
export type PaySolutionsResponse = Schemas['PaySolutionsResponse'];
export type PaypalCreateOrderResponse = Schemas['PaypalCreateOrderResponse'];
export type PaypalCaptureResponse = Schemas['PaypalCaptureResponse'];

/** capturePaypalOrder takes the PayPal order id (path) and our order id (body). */
export interface PaypalCaptureRequest {
  paypalOrderId: string;
  orderId: Id;
}

/** `{ success: true, data }` answers (getOrder, getStudentProfile, ...). */
export interface DataResponse<T> {
  success: true;
  data: T;
}

// withholding certificate of a paid order
export type WithholdingCertificate = Schemas['WithholdingCertificate'];
export type OrderWithholding = Schemas['OrderWithholding'];
export interface UploadWithholdingCertificateInput {
  orderId: number;
  file: Blob & { name: string };
}
export interface UploadWithholdingCertificateResponse {
  success: true;
  data: WithholdingCertificate;
}
