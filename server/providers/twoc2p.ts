/**
 * 2C2P adapter.
 *  - Card form (spec; 2C2P's 3DS API 9.x): 2C2P's browser script encrypts the card (encCardData);
 *    the form fields are signed HERE with HMAC-SHA256 (uppercase hex), version 9.9, amount 12 digits
 *    in hundredths, currency 764, and the browser posts them to the secure payment page. The secret
 *    never leaves the server. The result comes back as a signed base64 XML `paymentResponse`.
 *  - Payment link (PGW v4.x): paymentToken with a JWS (HS256) body -> webPaymentUrl; the result is a
 *    signed JWT posted to backendReturnUrl; paymentInquiry re-reads it. Installments: paymentChannel
 *    IPP with interestType A/C/M and installmentPeriodFilter.
 */
import { createHmac } from 'node:crypto';
import { toCardGatewayAmount, toDecimalString } from '../../domain/money';
import { type AdapterOptions, ProviderError, isRecord, safeEqual, send } from './http';
import { signHs256, verifyHs256 } from './jwt';

export interface TwoC2pKeys {
  merchantId: string;
  secretKey: string;
}

export const CARD_FORM_VERSION = '9.9';

/** Card form (3DS API 9.x) request fields, in signing order (empty ones are left out). */
export const CARD_FORM_REQUEST_FIELDS = ['version', 'merchantID', 'uniqueTransactionCode', 'desc', 'amt', 'currencyCode', 'panCountry', 'cardholderName', 'encCardData'] as const;

/** Fields of the gateway's PaymentResponse (base64 XML), in signing order. */
export const CARD_FORM_RESPONSE_FIELDS = [
  'version',
  'timeStamp',
  'merchantID',
  'respCode',
  'pan',
  'amt',
  'uniqueTransactionCode',
  'tranRef',
  'approvalCode',
  'refNumber',
  'eci',
  'dateTime',
  'status',
  'failReason',
  'userDefined1',
] as const;

/**
 * Payment Action API (2C2P's "payment maintenance" for the 3DS API 9.x card form): the
 * PaymentProcessRequest with processType `I` (inquiry) re-reads a card-form payment by its
 * invoiceNo (= our uniqueTransactionCode). Request and answer are flat XML, base64, signed with
 * HMAC-SHA256 (uppercase hex) over these fields in this order.
 */
export const PAYMENT_ACTION_VERSION = '3.8';
export const PAYMENT_ACTION_REQUEST_FIELDS = ['version', 'timeStamp', 'merchantID', 'processType', 'invoiceNo', 'actionAmount'] as const;
export const PAYMENT_ACTION_RESPONSE_FIELDS = [
  'version',
  'timeStamp',
  'respCode',
  'respDesc',
  'processType',
  'invoiceNo',
  'amount',
  'status',
  'approvalCode',
  'referenceNo',
  'transactionDateTime',
  'paidAgent',
  'paidChannel',
  'maskedPan',
  'eci',
  'userDefined1',
] as const;

/** Where the Payment Action API lives next to a secure payment page URL (same 2C2P front end). */
export function paymentActionUrlFor(securePayUrl: string): string {
  const u = new URL(securePayUrl);
  u.pathname = u.pathname.replace(/\/SecurePayment\/PaymentAuth\.aspx$/iu, '') + '/PaymentActionV2/PaymentAction.aspx';
  u.search = '';
  return u.toString();
}

/** A card-form payment as 2C2P's inquiry reports it (verified). */
export interface TwoC2pCardInquiry {
  /** 00 = the inquiry succeeded (the payment exists); anything else: not found / error. */
  respCode: string;
  respDesc: string;
  invoiceNo: string;
  /** 12-digit amount in hundredths. */
  amount: string;
  /** A approved, S settled, RS ready to settle, PF failed, AR 3-D Secure rejected, IP in progress, V voided, C cancelled. */
  status: string;
  referenceNo: string;
  maskedPan: string;
  fields: Record<string, string>;
}

/** PaymentResponse `status`: A approved; PF payment failed; AR authentication rejected; RS ready to settle; IP in progress; C cancelled. */
export const CARD_FORM_PAID_STATUSES = new Set(['A', 'RS', 'S']);

/** Flat XML <PaymentResponse><k>v</k>...</PaymentResponse> to a record (values unescaped). */
export function parseFlatXml(xml: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of xml.matchAll(/<([A-Za-z0-9_]+)>([^<]*)<\/\1>/gu)) {
    const [, k, v] = m;
    if (k) out[k] = (v ?? '').replace(/&lt;/gu, '<').replace(/&gt;/gu, '>').replace(/&quot;/gu, '"').replace(/&apos;/gu, "'").replace(/&amp;/gu, '&');
  }
  return out;
}

export function toFlatXml(root: string, fields: Record<string, string>): string {
  const esc = (v: string) => v.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
  return `<${root}>${Object.entries(fields).map(([k, v]) => `<${k}>${esc(v)}</${k}>`).join('')}</${root}>`;
}

export function hmacUpper(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex').toUpperCase();
}

export function signFields(fields: Record<string, string>, order: readonly string[], secret: string): string {
  return hmacUpper(secret, order.map((k) => fields[k] ?? '').join(''));
}

export function currencyNumeric(currency: 'THB' | 'USD'): string {
  return currency === 'THB' ? '764' : '840';
}

/** The v4 result (backend return and inquiry), decoded from its JWT. */
export interface TwoC2pResult {
  merchantID: string;
  invoiceNo: string;
  amount: number;
  currencyCode: string;
  respCode: string;
  respDesc: string;
  tranRef?: string;
  cardNo?: string;
  channelCode?: string;
  transactionDateTime?: string;
  installmentPeriod?: number;
  interestType?: string;
  [k: string]: unknown;
}

export function createTwoC2pClient(opts: AdapterOptions<TwoC2pKeys> & { securePayUrl: string; paymentActionUrl?: string }) {
  const { merchantId, secretKey } = opts.keys;

  async function jwtCall(path: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    const res = await send('2c2p', opts, { method: 'POST', path, json: { payload: signHs256(payload, secretKey) } });
    const b = isRecord(res.body) ? res.body : {};
    if (typeof b.payload === 'string') {
      const decoded = verifyHs256<Record<string, unknown>>(b.payload, secretKey);
      if (!decoded) throw new ProviderError('2c2p', res.status, 'bad_signature', 'response signature does not verify');
      return decoded;
    }
    throw new ProviderError('2c2p', res.status, String(b.respCode ?? 'http_error'), String(b.respDesc ?? `HTTP ${res.status}`), res.body);
  }

  return {
    /**
     * Signed card gateway form (spec: version 9.9, HMAC-SHA256 uppercase, 12-digit amount, 764).
     * `encCardData` is the card as 2C2P's browser script encrypted it: our server never sees the number.
     */
    cardForm(input: {
      uniqueTransactionCode: string;
      description: string;
      amount: number;
      currency: 'THB' | 'USD';
      encCardData: string;
      cardholderName?: string;
      panCountry?: string;
    }): { action: string; method: 'POST'; fields: Record<string, string> } {
      const all: Record<string, string> = {
        version: CARD_FORM_VERSION,
        merchantID: merchantId,
        uniqueTransactionCode: input.uniqueTransactionCode,
        desc: input.description.slice(0, 50),
        amt: toCardGatewayAmount(input.amount),
        currencyCode: currencyNumeric(input.currency),
        panCountry: input.panCountry ?? 'TH',
        cardholderName: (input.cardholderName ?? '').slice(0, 50),
        encCardData: input.encCardData,
      };
      const fields: Record<string, string> = {};
      for (const k of CARD_FORM_REQUEST_FIELDS) if (all[k]) fields[k] = all[k];
      fields.hashValue = signFields(fields, CARD_FORM_REQUEST_FIELDS, secretKey);
      return { action: opts.securePayUrl, method: 'POST', fields };
    },

    /** Decodes and verifies the gateway's base64 PaymentResponse; null when the hash or merchant is wrong. */
    decodeCardResponse(paymentResponse: string): Record<string, string> | null {
      let xml: string;
      try {
        xml = Buffer.from(paymentResponse, 'base64').toString('utf8');
      } catch {
        return null;
      }
      const f = parseFlatXml(xml);
      const given = (f.hashValue ?? '').toUpperCase();
      if (!given || f.merchantID !== merchantId) return null;
      return safeEqual(given, signFields(f, CARD_FORM_RESPONSE_FIELDS, secretKey)) ? f : null;
    },

    /**
     * Re-reads a card-form payment with the Payment Action API (processType I). The answer must be
     * signed with our secret and name the asked invoice; otherwise ProviderError.
     */
    async cardInquiry(invoiceNo: string, now: Date = new Date()): Promise<TwoC2pCardInquiry> {
      const req: Record<string, string> = {
        version: PAYMENT_ACTION_VERSION,
        timeStamp: now.toISOString(),
        merchantID: merchantId,
        processType: 'I',
        invoiceNo,
        actionAmount: '',
      };
      req.hashValue = signFields(req, PAYMENT_ACTION_REQUEST_FIELDS, secretKey);
      const url = opts.paymentActionUrl ?? paymentActionUrlFor(opts.securePayUrl);
      const cut = url.lastIndexOf('/');
      const res = await send('2c2p', { ...opts, baseUrl: url.slice(0, cut) }, { method: 'POST', path: url.slice(cut + 1), form: { paymentRequest: Buffer.from(toFlatXml('PaymentProcessRequest', req), 'utf8').toString('base64') } });
      if (res.status !== 200) throw new ProviderError('2c2p', res.status, 'http_error', `HTTP ${res.status}`);
      const f = parseFlatXml(Buffer.from(res.text.trim(), 'base64').toString('utf8'));
      const given = (f.hashValue ?? '').toUpperCase();
      if (!given || !safeEqual(given, signFields(f, PAYMENT_ACTION_RESPONSE_FIELDS, secretKey))) throw new ProviderError('2c2p', 200, 'bad_signature', 'inquiry answer signature does not verify');
      if ((f.invoiceNo ?? '') !== invoiceNo) throw new ProviderError('2c2p', 200, 'wrong_invoice', 'inquiry answer is for another invoice');
      return {
        respCode: f.respCode ?? '',
        respDesc: f.respDesc ?? '',
        invoiceNo,
        amount: f.amount ?? '',
        status: f.status ?? '',
        referenceNo: f.referenceNo ?? '',
        maskedPan: f.maskedPan ?? '',
        fields: f,
      };
    },

    /** PGW v4 payment token: OUR amount; channel CC (card) or IPP (installments). */
    async paymentToken(input: {
      invoiceNo: string;
      description: string;
      amount: number;
      currency: 'THB' | 'USD';
      backendReturnUrl: string;
      frontendReturnUrl: string;
      installment?: { interestType: 'A' | 'C' | 'M'; periods?: number[] };
    }): Promise<{ webPaymentUrl: string; paymentToken: string }> {
      const payload: Record<string, unknown> = {
        merchantID: merchantId,
        invoiceNo: input.invoiceNo,
        description: input.description.slice(0, 250),
        amount: Number(toDecimalString(input.amount)),
        currencyCode: input.currency,
        paymentChannel: input.installment ? ['IPP'] : ['CC'],
        request3DS: 'Y',
        backendReturnUrl: input.backendReturnUrl,
        frontendReturnUrl: input.frontendReturnUrl,
      };
      if (input.installment) {
        payload.interestType = input.installment.interestType;
        if (input.installment.periods) payload.installmentPeriodFilter = input.installment.periods;
      }
      const r = await jwtCall('/payment/4.x/paymentToken', payload);
      if (r.respCode !== '0000') throw new ProviderError('2c2p', 200, String(r.respCode), String(r.respDesc ?? ''), r);
      return { webPaymentUrl: String(r.webPaymentUrl), paymentToken: String(r.paymentToken) };
    },

    /** Re-reads a v4 payment by invoice number (signed answer). */
    async paymentInquiry(invoiceNo: string): Promise<TwoC2pResult> {
      return (await jwtCall('/payment/4.x/paymentInquiry', { merchantID: merchantId, invoiceNo, locale: 'en' })) as TwoC2pResult;
    },

    /** The backend return's `payload` JWT, verified; null when the signature or merchant is wrong. */
    decodeResult(token: string): TwoC2pResult | null {
      const r = verifyHs256<TwoC2pResult>(token, secretKey);
      return r && r.merchantID === merchantId ? r : null;
    },
  };
}

export type TwoC2pClient = ReturnType<typeof createTwoC2pClient>;
