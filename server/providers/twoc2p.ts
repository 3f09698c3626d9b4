/**
 * 2C2P adapter, on 2C2P's published API (every field and its source: docs/providers/2c2p.md).
 *
 *  - Card form (3DS API, version 9.9): 2C2P's browser script encrypts the card (encCardData); HERE
 *    the request XML is built, base64-encoded into `<payload>`, signed (`<signature>` = upper-case
 *    hex HMAC-SHA256 of that base64 text with the secret key) and wrapped in
 *    `<PaymentRequest><version/><payload/><signature/></PaymentRequest>`, base64 again: the ONE form
 *    field `paymentRequest` the browser posts to the secure payment page. The gateway answers in the
 *    same envelope (`paymentResponse`, root `PaymentResponse`). The secret never leaves the server.
 *  - Payment Action API (PaymentActionV2/PaymentProcess.aspx, version 3.4), as 2C2P's official
 *    Magento 2 plugin calls it: inquiry (I), void (V), refund (R) of any 2C2P transaction by its
 *    invoice number; request and answer are base64 XML with an HMAC-SHA1 `hashValue`.
 *  - Payment link (PGW 4.3): /payment/4.3/paymentToken and /payment/4.3/paymentInquiry, JSON
 *    `{ payload }` where payload is a JWT (HS256, secret key); the backend notification is the same
 *    `{ payload }` JWT. Installments: paymentChannel IPP, interestType, installmentPeriodFilter.
 *
 * `createTwoC2pProvider` implements the shared PaymentProvider interface on top of the client.
 */
import { createHmac } from 'node:crypto';
import { fromMajor, toCardGatewayAmount, toDecimalString } from '../../domain/money';
import { type AdapterOptions, type FetchLike, ProviderError, isRecord, safeEqual, send } from './http';
import { signHs256, verifyHs256 } from './jwt';
import type { AttemptRef, Currency, IncomingNotification, InitiateInput, Initiated, PaymentProvider, ProviderStatus, RefundResult, VerifiedNotification } from './provider';

export interface TwoC2pKeys {
  merchantId: string;
  secretKey: string;
}

// ---------------------------------------------------------------------------------------------
// Wire helpers (exported: the sandbox speaks the same envelopes; the tests re-implement them apart)
// ---------------------------------------------------------------------------------------------

/** Card form (3DS API) version our requests carry. */
export const CARD_FORM_VERSION = '9.9';
/** Fields of the card form's inner PaymentRequest, in the order 2C2P's 9.9 sample writes them. */
export const CARD_FORM_REQUEST_FIELDS = ['merchantID', 'uniqueTransactionCode', 'desc', 'amt', 'currencyCode', 'panCountry', 'cardholderName', 'encCardData'] as const;

/** Payment Action API version and hash fields, exactly as 2C2P's Magento 2 plugin (Model/PaymentMethod.php). */
export const PAYMENT_ACTION_VERSION = '3.4';
export const PAYMENT_ACTION_REQUEST_HASH_FIELDS = ['version', 'merchantID', 'processType', 'invoiceNo', 'actionAmount'] as const;
export const PAYMENT_ACTION_RESPONSE_HASH_FIELDS = [
  'version',
  'respCode',
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
  'paymentScheme',
  'processBy',
  'refundReferenceNo',
  'userDefined1',
  'userDefined2',
  'userDefined3',
  'userDefined4',
  'userDefined5',
] as const;

/** PGW version in the payment-link paths (2C2P's snippets: /payment/4.3/paymentToken). */
export const PGW_VERSION = '4.3';

/** Card-form `status` (and Payment Action `status`) values that mean the money is taken. */
export const PAID_STATUSES = new Set(['A', 'S', 'RS', 'SS']);
/** Still open at the gateway (IP in progress, PA pending authentication). */
export const OPEN_STATUSES = new Set(['IP', 'PA']);

/** Flat XML <Root><k>v</k>...</Root> to a record (values unescaped; nested elements are skipped). */
export function parseFlatXml(xml: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of xml.matchAll(/<([A-Za-z0-9_]+)>([^<]*)<\/\1>/gu)) {
    const [, k, v] = m;
    if (k && !(k in out)) out[k] = (v ?? '').trim().replace(/&lt;/gu, '<').replace(/&gt;/gu, '>').replace(/&quot;/gu, '"').replace(/&apos;/gu, "'").replace(/&amp;/gu, '&');
  }
  return out;
}

export function toFlatXml(root: string, fields: Record<string, string>): string {
  const esc = (v: string) => v.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
  return `<${root}>${Object.entries(fields)
    .map(([k, v]) => `<${k}>${esc(v)}</${k}>`)
    .join('')}</${root}>`;
}

export function hmacSha256Upper(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex').toUpperCase();
}

export function hmacSha1Upper(secret: string, text: string): string {
  return createHmac('sha1', secret).update(text, 'utf8').digest('hex').toUpperCase();
}

/**
 * Base64 as it arrives in a form field: 2C2P's samples post `paymentRequest=` + base64 without URL
 * encoding, so a `+` may come back as a space; both are read.
 */
export function fromBase64Text(b64: string): string {
  return Buffer.from(b64.trim().replace(/ /gu, '+'), 'base64').toString('utf8');
}

/**
 * The 3DS API envelope: base64(<Root><version/><payload>base64(innerXml)</payload><signature/></Root>),
 * signature = upper-case hex HMAC-SHA256 of the payload's base64 text.
 */
export function sealEnvelope(root: 'PaymentRequest' | 'PaymentResponse', version: string, innerXml: string, secret: string): string {
  const payload = Buffer.from(innerXml, 'utf8').toString('base64');
  const signature = hmacSha256Upper(secret, payload);
  return Buffer.from(`<${root}><version>${version}</version><payload>${payload}</payload><signature>${signature}</signature></${root}>`, 'utf8').toString('base64');
}

/** Opens an envelope; null when it is not one or the signature does not verify (compared without case). */
export function openEnvelope(b64: string, secret: string): { version: string; fields: Record<string, string>; innerXml: string } | null {
  let outer: Record<string, string>;
  try {
    outer = parseFlatXml(fromBase64Text(b64));
  } catch {
    return null;
  }
  const payload = (outer.payload ?? '').replace(/\s+/gu, '');
  const given = (outer.signature ?? '').trim().toUpperCase();
  if (!payload || !given || !safeEqual(given, hmacSha256Upper(secret, payload))) return null;
  const innerXml = Buffer.from(payload, 'base64').toString('utf8');
  return { version: outer.version ?? '', fields: parseFlatXml(innerXml), innerXml };
}

export function paymentActionRequestHash(f: Record<string, string>, secret: string): string {
  return hmacSha1Upper(secret, PAYMENT_ACTION_REQUEST_HASH_FIELDS.map((k) => f[k] ?? '').join(''));
}

export function paymentActionResponseHash(f: Record<string, string>, secret: string): string {
  return hmacSha1Upper(secret, PAYMENT_ACTION_RESPONSE_HASH_FIELDS.map((k) => f[k] ?? '').join(''));
}

export function currencyNumeric(currency: Currency): string {
  return currency === 'THB' ? '764' : '840';
}

/** Where the Payment Action API lives next to a secure payment page URL (same 2C2P front end). */
export function paymentActionUrlFor(securePayUrl: string): string {
  const u = new URL(securePayUrl);
  u.pathname = u.pathname.replace(/\/SecurePayment\/PaymentAuth\.aspx$/iu, '') + '/PaymentActionV2/PaymentProcess.aspx';
  u.search = '';
  return u.toString();
}

/**
 * An amount 2C2P reports, to minor units: a 12-digit string is hundredths ("000000002500" = 25.00,
 * the 3DS API's `amt`); anything else is a decimal in major units ("25.00", 25, "230.87").
 */
export function amountToMinor(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? fromMajor(v) : null;
  if (typeof v !== 'string' || v.trim() === '') return null;
  const s = v.trim();
  if (/^\d{12}$/u.test(s)) return Number(s);
  if (!/^\d+(\.\d+)?$/u.test(s)) return null;
  return fromMajor(Number(s));
}

// ---------------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------------

/** A Payment Action answer, verified (hashValue) and for the asked invoice. */
export interface PaymentActionAnswer {
  /** 00 = the action was done / the transaction exists. */
  respCode: string;
  respDesc: string;
  processType: string;
  invoiceNo: string;
  /** As 2C2P wrote it (decimal, or 12 digits); `amountMinor` read with amountToMinor. */
  amount: string;
  amountMinor: number | null;
  /** A approved, S settled, RS ready to settle, V voided, RF refunded, PF failed, AR 3-D Secure rejected, IP in progress... */
  status: string;
  referenceNo: string;
  refundReferenceNo: string;
  maskedPan: string;
  fields: Record<string, string>;
}

/** The PGW 4.3 result (backend notification and inquiry), decoded from its JWT. */
export interface TwoC2pResult {
  merchantID: string;
  invoiceNo: string;
  /** Decimal major units: a number in 2C2P's inquiry sample, a string in its notification sample. */
  amount: number | string;
  currencyCode: string;
  respCode: string;
  respDesc: string;
  tranRef?: string;
  referenceNo?: string;
  accountNo?: string;
  channelCode?: string;
  transactionDateTime?: string;
  installmentPeriod?: number;
  interestType?: string;
  [k: string]: unknown;
}

export interface TwoC2pClientOptions extends AdapterOptions<TwoC2pKeys> {
  /** The secure payment page the card form posts to (browser origin). */
  securePayUrl: string;
  /** The Payment Action API (server to server); default: next to securePayUrl. */
  paymentActionUrl?: string;
}

export function createTwoC2pClient(opts: TwoC2pClientOptions) {
  const { merchantId, secretKey } = opts.keys;
  const actionUrl = opts.paymentActionUrl ?? paymentActionUrlFor(opts.securePayUrl);

  async function jwtCall(endpoint: 'paymentToken' | 'paymentInquiry', payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    const res = await send('2c2p', opts, { method: 'POST', path: `/payment/${PGW_VERSION}/${endpoint}`, json: { payload: signHs256(payload, secretKey) } });
    const b = isRecord(res.body) ? res.body : {};
    if (typeof b.payload === 'string') {
      const decoded = verifyHs256<Record<string, unknown>>(b.payload, secretKey);
      if (!decoded) throw new ProviderError('2c2p', res.status, 'bad_signature', 'response signature does not verify');
      return decoded;
    }
    // 2C2P answers a request it cannot read (bad signature, unknown merchant) with a plain, unsigned { respCode, respDesc }.
    throw new ProviderError('2c2p', res.status, String(b.respCode ?? 'http_error'), String(b.respDesc ?? `HTTP ${res.status}`), res.body);
  }

  async function paymentAction(processType: 'I' | 'V' | 'R' | 'S', invoiceNo: string, actionAmount?: string): Promise<PaymentActionAnswer> {
    const req: Record<string, string> = { version: PAYMENT_ACTION_VERSION, merchantID: merchantId, processType, invoiceNo };
    if (actionAmount !== undefined) req.actionAmount = actionAmount;
    req.hashValue = paymentActionRequestHash(req, secretKey);
    const cut = actionUrl.lastIndexOf('/');
    const res = await send('2c2p', { ...opts, baseUrl: actionUrl.slice(0, cut) }, { method: 'POST', path: actionUrl.slice(cut + 1), form: { paymentRequest: Buffer.from(toFlatXml('PaymentProcessRequest', req), 'utf8').toString('base64') } });
    if (res.status !== 200) throw new ProviderError('2c2p', res.status, 'http_error', `HTTP ${res.status}`);
    const xml = fromBase64Text(res.text);
    if (!xml.trimStart().startsWith('<')) {
      // Later Payment Action versions wrap the answer in PKCS#7 (2C2P/My2C2PPKCS7): not this version.
      throw new ProviderError('2c2p', 200, 'unreadable_answer', 'Payment Action answer is not base64 XML (PKCS#7-wrapped answers are not supported)');
    }
    const f = parseFlatXml(xml);
    const given = (f.hashValue ?? '').toUpperCase();
    if (!given || !safeEqual(given, paymentActionResponseHash(f, secretKey))) throw new ProviderError('2c2p', 200, 'bad_signature', 'Payment Action answer hash does not verify');
    if ((f.invoiceNo ?? '') !== invoiceNo) throw new ProviderError('2c2p', 200, 'wrong_invoice', 'Payment Action answer is for another invoice');
    return {
      respCode: f.respCode ?? '',
      respDesc: f.respDesc ?? '',
      processType: f.processType ?? '',
      invoiceNo,
      amount: f.amount ?? '',
      amountMinor: amountToMinor(f.amount ?? ''),
      status: f.status ?? '',
      referenceNo: f.referenceNo ?? '',
      refundReferenceNo: f.refundReferenceNo ?? '',
      maskedPan: f.maskedPan ?? '',
      fields: f,
    };
  }

  return {
    merchantId,
    /**
     * The card form: ONE field `paymentRequest` (the signed 3DS API envelope) to post to `action`.
     * `encCardData` is the card as 2C2P's browser script encrypted it: our server never sees the number.
     */
    cardForm(input: {
      uniqueTransactionCode: string;
      description: string;
      amount: number;
      currency: Currency;
      encCardData: string;
      cardholderName?: string;
      panCountry?: string;
    }): { action: string; method: 'POST'; fields: { paymentRequest: string }; request: Record<string, string> } {
      const request: Record<string, string> = {
        merchantID: merchantId,
        uniqueTransactionCode: input.uniqueTransactionCode,
        desc: input.description.slice(0, 50),
        amt: toCardGatewayAmount(input.amount),
        currencyCode: currencyNumeric(input.currency),
        panCountry: input.panCountry ?? 'TH',
        cardholderName: (input.cardholderName ?? '').slice(0, 50),
        encCardData: input.encCardData,
      };
      const paymentRequest = sealEnvelope('PaymentRequest', CARD_FORM_VERSION, toFlatXml('PaymentRequest', request), secretKey);
      return { action: opts.securePayUrl, method: 'POST', fields: { paymentRequest }, request };
    },

    /** The gateway's `paymentResponse`, opened and verified; null when the signature or the merchant is wrong. */
    decodeCardResponse(paymentResponse: string): Record<string, string> | null {
      const env = openEnvelope(paymentResponse, secretKey);
      if (!env || env.fields.merchantID !== merchantId) return null;
      return env.fields;
    },

    /** Payment Action inquiry (processType I) of any 2C2P transaction by invoice number. */
    inquiry(invoiceNo: string): Promise<PaymentActionAnswer> {
      return paymentAction('I', invoiceNo);
    },
    /** Void (V) of an approved, not yet settled transaction. */
    void(invoiceNo: string): Promise<PaymentActionAnswer> {
      return paymentAction('V', invoiceNo);
    },
    /** Refund (R) of a settled transaction; amount in minor units, sent as a decimal. */
    refund(invoiceNo: string, amount: number): Promise<PaymentActionAnswer> {
      return paymentAction('R', invoiceNo, toDecimalString(amount));
    },

    /** PGW 4.3 payment token: OUR amount; channel CC (card) or IPP (installments). */
    async paymentToken(input: {
      invoiceNo: string;
      description: string;
      amount: number;
      currency: Currency;
      backendReturnUrl: string;
      frontendReturnUrl: string;
      locale?: 'th' | 'en';
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
        frontendReturnUrl: input.frontendReturnUrl,
        backendReturnUrl: input.backendReturnUrl,
      };
      if (input.locale) payload.locale = input.locale;
      if (input.installment) {
        payload.interestType = input.installment.interestType;
        if (input.installment.periods) payload.installmentPeriodFilter = input.installment.periods;
      }
      const r = await jwtCall('paymentToken', payload);
      if (r.respCode !== '0000' || typeof r.webPaymentUrl !== 'string' || typeof r.paymentToken !== 'string') {
        throw new ProviderError('2c2p', 200, String(r.respCode ?? 'bad_answer'), String(r.respDesc ?? ''), r);
      }
      return { webPaymentUrl: r.webPaymentUrl, paymentToken: r.paymentToken };
    },

    /** PGW 4.3 payment inquiry by invoice number (signed answer, for that invoice and merchant). */
    async paymentInquiry(invoiceNo: string): Promise<TwoC2pResult> {
      const r = (await jwtCall('paymentInquiry', { merchantID: merchantId, invoiceNo, locale: 'en' })) as TwoC2pResult;
      if (r.invoiceNo !== undefined && String(r.invoiceNo) !== invoiceNo) throw new ProviderError('2c2p', 200, 'wrong_invoice', 'inquiry answer is for another invoice');
      if (r.merchantID !== undefined && r.merchantID !== merchantId) throw new ProviderError('2c2p', 200, 'wrong_merchant', 'inquiry answer is for another merchant');
      return r;
    },

    /** The backend notification's `payload` JWT, verified; null when the signature or merchant is wrong. */
    decodeResult(token: string): TwoC2pResult | null {
      const r = verifyHs256<TwoC2pResult>(token, secretKey);
      return r && r.merchantID === merchantId && typeof r.invoiceNo === 'string' ? r : null;
    },
  };
}

export type TwoC2pClient = ReturnType<typeof createTwoC2pClient>;

// ---------------------------------------------------------------------------------------------
// Results in the shop's words
// ---------------------------------------------------------------------------------------------

function currencyOf(code: unknown): Currency | null {
  const c = String(code ?? '');
  return c === 'THB' || c === '764' ? 'THB' : c === 'USD' || c === '840' ? 'USD' : null;
}

/** A Payment Action inquiry answer (card form, or any transaction) as a ProviderStatus. */
export function statusFromPaymentAction(a: PaymentActionAnswer, currency: Currency, notified?: Record<string, string> | null): ProviderStatus {
  // respCode other than 00: the transaction is not (yet) known to the gateway: the buyer has not reached it.
  if (a.respCode !== '00') return { kind: 'pending' };
  if (PAID_STATUSES.has(a.status)) {
    if (a.amountMinor === null) return { kind: 'failed', code: 'unreadable_amount', message: `2C2P amount ${a.amount}` };
    return { kind: 'paid', paidAmount: a.amountMinor, currency, txnId: a.referenceNo || null };
  }
  if (OPEN_STATUSES.has(a.status) || a.status === '') return { kind: 'pending' };
  if (a.status === 'V' || a.status === 'C') return { kind: 'cancelled' };
  // A payment the bank refused (PF) fails with the bank's respCode from the verified notification
  // (4051 insufficient funds...); any other status (AR 3-D Secure rejected, FF fraud rules...) is itself the reason.
  const same = notified && notified.status === a.status;
  return { kind: 'failed', code: (a.status === 'PF' && same && notified.respCode) || a.status, message: (same && notified.failReason) || a.respDesc || a.status };
}

/** A PGW 4.3 result (inquiry or notification) as a ProviderStatus. */
export function statusFromPgw(r: TwoC2pResult): ProviderStatus {
  const code = String(r.respCode ?? '');
  if (code === '0000') {
    const paid = amountToMinor(r.amount);
    const currency = currencyOf(r.currencyCode);
    if (paid === null || currency === null) return { kind: 'failed', code: 'unreadable_amount', message: `2C2P amount ${String(r.amount)} ${String(r.currencyCode)}` };
    return { kind: 'paid', paidAmount: paid, currency, txnId: (r.tranRef as string | undefined) || (r.referenceNo as string | undefined) || null };
  }
  // 0001 pending, 2001 in progress, 1000-1005 the buyer is still on a payment step, 2002 not found (not paid yet).
  if (code === '0001' || code === '2001' || code === '2002' || /^100[0-5]$/u.test(code)) return { kind: 'pending' };
  if (code === '0003' || code === '4080') return { kind: 'cancelled' };
  if (code === '9020' || code === '5009') return { kind: 'expired' };
  return { kind: 'failed', code, message: String(r.respDesc ?? code) };
}

// ---------------------------------------------------------------------------------------------
// The shared provider interface
// ---------------------------------------------------------------------------------------------

/** What `initiatePayment` reads from `input.input`. */
export type TwoC2pInitiateInput =
  | { kind: 'card-form'; encryptedCardInfo: string; panCountry?: string }
  | { kind: 'payment-link'; installment?: { interestType: 'A' | 'C' | 'M'; periods?: number[] }; locale?: 'th' | 'en' };

export interface TwoC2pProviderOptions {
  /** PGW 4.3 API base (https://sandbox-pgw.2c2p.com or https://pgw.2c2p.com; paths /payment/4.3/... are added). */
  baseUrl: string;
  /** The card form's secure payment page (…/SecurePayment/PaymentAuth.aspx), as the browser reaches it. */
  securePayUrl: string;
  /** The Payment Action API (…/PaymentActionV2/PaymentProcess.aspx); default next to securePayUrl. */
  paymentActionUrl?: string;
  keys: TwoC2pKeys;
  fetch?: FetchLike;
  timeoutMs?: number;
}

export type TwoC2pProvider = PaymentProvider & { readonly client: TwoC2pClient };

function isCardForm(attempt: AttemptRef): boolean {
  return attempt.details?.kind === 'card-form';
}

export function createTwoC2pProvider(opts: TwoC2pProviderOptions): TwoC2pProvider {
  return twoC2pProviderOn(createTwoC2pClient({ baseUrl: opts.baseUrl, securePayUrl: opts.securePayUrl, paymentActionUrl: opts.paymentActionUrl, keys: opts.keys, fetch: opts.fetch, timeoutMs: opts.timeoutMs }));
}

const providers = new WeakMap<TwoC2pClient, TwoC2pProvider>();

/** The PaymentProvider over an existing client (one per client). */
export function twoC2pProviderOn(client: TwoC2pClient): TwoC2pProvider {
  const known = providers.get(client);
  if (known) return known;
  const made = makeProvider(client);
  providers.set(client, made);
  return made;
}

function makeProvider(client: TwoC2pClient): TwoC2pProvider {
  async function readStatus(attempt: AttemptRef): Promise<ProviderStatus> {
    if (isCardForm(attempt)) return statusFromPaymentAction(await client.inquiry(attempt.ref), attempt.currency);
    return statusFromPgw(await client.paymentInquiry(attempt.ref));
  }

  return {
    name: '2c2p',
    client,
    capabilities: { refund: 'api', cancel: false },

    async initiatePayment(input: InitiateInput): Promise<Initiated> {
      const i = (input.input ?? {}) as Partial<TwoC2pInitiateInput> & Record<string, unknown>;
      if (i.kind === 'card-form') {
        if (typeof i.encryptedCardInfo !== 'string' || !i.encryptedCardInfo) throw new ProviderError('2c2p', 0, 'missing_card', 'encryptedCardInfo is required for the card form');
        const f = client.cardForm({
          uniqueTransactionCode: input.ref,
          description: input.description,
          amount: input.amount,
          currency: input.currency,
          encCardData: i.encryptedCardInfo,
          cardholderName: input.customer?.name,
          panCountry: typeof i.panCountry === 'string' ? i.panCountry : undefined,
        });
        return { kind: 'form', action: f.action, method: 'POST', fields: f.fields, providerRef: null };
      }
      const link = await client.paymentToken({
        invoiceNo: input.ref,
        description: input.description,
        amount: input.amount,
        currency: input.currency,
        backendReturnUrl: input.notifyUrl,
        frontendReturnUrl: input.returnUrl,
        ...(i.kind === 'payment-link' && i.locale ? { locale: i.locale } : {}),
        ...(i.kind === 'payment-link' && i.installment ? { installment: i.installment } : {}),
      });
      return { kind: 'redirect', url: link.webPaymentUrl, providerRef: link.paymentToken };
    },

    getPaymentStatus(attempt: AttemptRef): Promise<ProviderStatus> {
      return readStatus(attempt);
    },

    async verifyNotification(n: IncomingNotification): Promise<VerifiedNotification | null> {
      const body = isRecord(n.body) ? n.body : {};
      if (typeof body.paymentResponse === 'string') {
        const f = client.decodeCardResponse(body.paymentResponse);
        if (!f || !f.uniqueTransactionCode) return null;
        // The card form's notification only says "look again": the caller reads the inquiry (getPaymentStatus).
        return { ref: f.uniqueTransactionCode, eventId: null };
      }
      if (typeof body.payload === 'string') {
        const r = client.decodeResult(body.payload);
        if (!r) return null;
        return { ref: r.invoiceNo, eventId: null, claimed: statusFromPgw(r) };
      }
      return null;
    },

    /**
     * Refund through the Payment Action API as 2C2P's Magento 2 plugin does: inquiry first; an
     * approved, unsettled payment (A) is voided (V, whole amount only), a settled one (S) refunded
     * (R, `actionAmount`); already voided / refunded answers the earlier result without a second call
     * (2C2P takes no idempotency key: reading first is what keeps a repeated request single).
     */
    async refundPayment(attempt, amount): Promise<RefundResult> {
      const now = await client.inquiry(attempt.ref);
      if (now.respCode !== '00') throw new ProviderError('2c2p', 200, now.respCode || 'not_found', `refund: inquiry answered ${now.respCode} ${now.respDesc}`);
      if (now.status === 'V') return { kind: 'refunded', refundId: `${attempt.ref}:V`, amount: now.amountMinor ?? amount };
      if (now.status === 'RF') return { kind: 'refunded', refundId: now.refundReferenceNo || `${attempt.ref}:RF`, amount };
      if (now.status === 'A') {
        if (now.amountMinor !== null && amount !== now.amountMinor) throw new ProviderError('2c2p', 200, 'partial_void', 'an unsettled payment can only be voided whole');
        const v = await client.void(attempt.ref);
        if (v.respCode !== '00' && v.status !== 'V') throw new ProviderError('2c2p', 200, v.respCode, `void refused: ${v.respDesc}`);
        return { kind: 'refunded', refundId: `${attempt.ref}:V`, amount };
      }
      if (now.status === 'S') {
        const r = await client.refund(attempt.ref, amount);
        if (r.respCode !== '00') throw new ProviderError('2c2p', 200, r.respCode, `refund refused: ${r.respDesc}`);
        return { kind: 'refunded', refundId: r.refundReferenceNo || r.referenceNo || `${attempt.ref}:R`, amount, pending: r.status !== 'RF' };
      }
      throw new ProviderError('2c2p', 200, `status_${now.status || 'unknown'}`, `payment status ${now.status} cannot be voided or refunded yet`);
    },
  };
}
