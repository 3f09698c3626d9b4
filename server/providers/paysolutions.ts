/**
 * PaySolutions adapter (THB only), on PaySolutions' published API (docs/providers/paysolutions.md):
 *
 * - the hosted payment form (https://payment.paysolutions.asia/epaylink/payment.aspx, form POST:
 *   merchantid, refno, customeremail, productdetail, total, lang, cc, returnurl, postbackurl);
 * - the Inquiry API (POST https://apis.paysolutions.asia/order/orderdetailpost, JSON, headers
 *   `apikey`, `merchantSecretKey`, `merchantId` = the LAST 5 DIGITS of the merchant id), which
 *   answers ONE object, or nothing when the payment did not succeed.
 *
 * The postback is unsigned: `verifyNotification` only takes our `refno` from it; the status the
 * shop applies is the one the inquiry reads (`getPaymentStatus`). PaySolutions publishes no refund
 * or void call: refunds are manual.
 */
import { fromMajor, toDecimalString } from '../../domain/money';
import { type AdapterOptions, ProviderError, isRecord, send, unsignedNotification } from './http';
import type { AttemptRef, IncomingNotification, InitiateInput, Initiated, PaymentProvider, ProviderStatus, RefundResult, VerifiedNotification } from './provider';

export interface PaySolutionsKeys {
  /** The 8-digit merchant id (payment form); the inquiry takes its last 5 digits. */
  merchantId: string;
  apiKey: string;
  secretKey: string;
}

/** Status of a completed payment in the inquiry's answer. */
export const PAYSOLUTIONS_PAID = 'CP';

/** One order as the Inquiry API answers it (amount in minor units). */
export interface PaySolutionsTxn {
  refno: string;
  orderNo: string;
  total: number;
  status: string;
  statusName: string;
}

/** The inquiry's `merchantId` header and body field: the last 5 digits of the merchant id. */
export function inquiryMerchantId(merchantId: string): string {
  return merchantId.slice(-5);
}

/** Reads the inquiry's answer: one object, or nothing (empty body, `null`, `{}`) when the payment did not succeed. An array (older reading) is tolerated: a paid row wins. */
export function readInquiryAnswer(body: unknown): PaySolutionsTxn | null {
  let row: Record<string, unknown> | undefined;
  if (Array.isArray(body)) {
    const rows = body.filter(isRecord);
    row = rows.find((r) => r.Status === PAYSOLUTIONS_PAID) ?? rows[rows.length - 1];
  } else if (isRecord(body)) row = body;
  if (!row || row.ReferenceNo === undefined || row.Status === undefined) return null;
  const total = Number(row.Total);
  return {
    refno: String(row.ReferenceNo),
    orderNo: String(row.OrderNo ?? ''),
    total: Number.isFinite(total) ? fromMajor(total) : 0,
    status: String(row.Status),
    statusName: String(row.StatusName ?? ''),
  };
}

/** PaySolutions' page language for ours: `TH` or `EN` (form: `lang`, 2 characters; PaySolutions'
 * own OpenCart plugin opens its page in English for an English shop and in Thai otherwise). */
export function paySolutionsLang(locale: 'th' | 'en' | undefined): 'TH' | 'EN' {
  return locale === 'en' ? 'EN' : 'TH';
}

export function createPaySolutionsClient(opts: AdapterOptions<PaySolutionsKeys> & { formUrl: string }) {
  const { merchantId, apiKey, secretKey } = opts.keys;
  return {
    merchantId,
    /** The form the browser posts to PaySolutions, for OUR total (baht with 2 decimals). */
    hostedForm(input: { refno: string; total: number; email: string; productDetail: string; returnUrl: string; postbackUrl: string; locale?: 'th' | 'en' }) {
      // The page's language: `lang`, 2 characters (form); TH or EN as the buyer reads our page.
      const lang = paySolutionsLang(input.locale);
      const u = new URL(opts.formUrl);
      u.searchParams.set('lang', lang);
      return {
        action: u.toString(),
        fields: {
          customeremail: input.email,
          productdetail: input.productDetail.slice(0, 255),
          refno: input.refno,
          merchantid: merchantId,
          cc: '00' as const,
          total: toDecimalString(input.total),
          lang,
          returnurl: input.returnUrl,
          postbackurl: input.postbackUrl,
        },
      };
    },

    /** Inquiry API: the order by refno; null when PaySolutions answers nothing (not paid, or unknown). */
    async inquiry(refno: string): Promise<PaySolutionsTxn | null> {
      const mid = inquiryMerchantId(merchantId);
      const res = await send('paysolutions', opts, {
        method: 'POST',
        path: '/order/orderdetailpost',
        headers: { apikey: apiKey, merchantSecretKey: secretKey, merchantId: mid },
        json: { merchantId: mid, orderNo: 'X', refno, productDetail: 'QWERTY' },
      });
      if (res.status >= 400) {
        const b = isRecord(res.body) ? res.body : {};
        throw new ProviderError('paysolutions', res.status, String(b.code ?? 'http_error'), String(b.message ?? `HTTP ${res.status}`), res.body);
      }
      return readInquiryAnswer(typeof res.body === 'string' && res.body.trim() === '' ? null : res.body);
    },
  };
}

export type PaySolutionsClient = ReturnType<typeof createPaySolutionsClient>;

/** The shop's reading of an inquiry answer (null: nothing answered = not paid yet). */
export function paySolutionsStatus(txn: PaySolutionsTxn | null): ProviderStatus {
  if (!txn) return { kind: 'pending' };
  if (txn.status === PAYSOLUTIONS_PAID) return { kind: 'paid', paidAmount: txn.total, currency: 'THB', txnId: txn.orderNo || null };
  return { kind: 'failed', code: txn.status, message: txn.statusName || txn.status };
}

/**
 * PaySolutions as a `PaymentProvider`. `initiatePayment` answers the hosted form (`input.email`
 * optional, else `customer.email`); the notification is the postback (form fields).
 */
export function createPaySolutionsProvider(client: PaySolutionsClient): PaymentProvider {
  return {
    name: 'paysolutions',
    capabilities: { refund: 'manual', cancel: false },
    async initiatePayment(input: InitiateInput): Promise<Initiated> {
      const form = client.hostedForm({
        refno: input.ref,
        total: input.amount,
        email: String(input.input?.email ?? input.customer?.email ?? ''),
        productDetail: input.description,
        returnUrl: input.returnUrl,
        postbackUrl: input.notifyUrl,
        locale: input.locale,
      });
      return { kind: 'form', action: form.action, method: 'POST', fields: form.fields, providerRef: input.ref };
    },
    async getPaymentStatus(attempt: AttemptRef): Promise<ProviderStatus> {
      return paySolutionsStatus(await client.inquiry(attempt.ref));
    },
    // Unsigned: no claim is trusted; the caller applies getPaymentStatus (the inquiry).
    async verifyNotification(n: IncomingNotification): Promise<VerifiedNotification | null> {
      return unsignedNotification(n.body, 'refno', /^\d{1,12}$/u, (b) => String(b.merchantid ?? '') === client.merchantId);
    },
    async refundPayment(): Promise<RefundResult> {
      return { kind: 'manual' };
    },
  };
}
