/**
 * GB Prime Pay adapter (THB only), on the calls GB Prime Pay's official plugins make
 * (docs/providers/gbprimepay.md cites every field):
 *
 * - card, token API + 3-D Secure (GBPrimepay/magento2-gbprimepay-payment-gateway, Helper/Constant.php,
 *   Model/GBPrimePayDirect.php, Helper/ConfigHelper.php createOtpCharge): the BROWSER calls
 *   POST /v1/tokens with the PUBLIC key (Basic; `tokenEndpoint` tells the card page where and with
 *   which key — card data never reaches our server, so this adapter has no token call), the server
 *   calls POST /v1/tokens/charge with the SECRET key and `otp: 'Y'`, then the browser form-posts
 *   `publicKey` + `gbpReferenceNo` to /v1/tokens/3d_secured; GB Prime Pay posts the browser back to
 *   `responseUrl` and the server to `backgroundUrl`;
 * - PromptPay QR (QR Cash): a multipart/form-data POST to /gbp/gateway/qrcode with the customer
 *   `token`, answered with a PNG (Controller/Checkout/PendingQrcode.php, ConfigHelper sendQRCurl);
 * - status: POST /v1/check_status_txn with the secret key (doc.globalprimepay.com/apiquery), which
 *   answers `txn` (one object) or `txns` (an array) — both are read.
 *
 * Background notifications are unsigned (the plugins only look at the sender's host name): the
 * shop takes `referenceNo` from them and applies what `check_status_txn` answers. No refund or
 * void call appears in any published source: refunds are manual. Amounts on the wire are baht
 * with 2 decimals.
 */
import { fromMajor, toDecimalString } from '../../domain/money';
import { type AdapterOptions, ProviderError, basicAuth, isRecord, joinUrl, send, unsignedNotification } from './http';
import type { AttemptRef, IncomingNotification, InitiateInput, Initiated, PaymentProvider, ProviderStatus, RefundResult, VerifiedNotification } from './provider';

export interface GbPrimeKeys {
  publicKey: string;
  secretKey: string;
  /** Customer token of the QR (PromptPay) API. */
  token: string;
}

/**
 * Transaction status letters of check_status_txn. The published example shows 'S' (settled); the
 * others are GB Prime Pay's merchant-portal letters: A authorized, G paid (QR), P pending,
 * D declined, V voided, E expired (no published table: see the doc).
 */
export type GbTxnStatus = 'S' | 'A' | 'G' | 'P' | 'D' | 'V' | 'E';
export const GB_PAID = new Set<string>(['S', 'A', 'G']);

export interface GbTxn {
  referenceNo: string;
  gbpReferenceNo: string;
  amount: number;
  status: string;
  paymentType: string;
  resultCode: string;
}

function fail(res: { status: number; body: unknown }): ProviderError {
  const b = isRecord(res.body) ? res.body : {};
  return new ProviderError('gbprime', res.status, String(b.resultCode ?? 'http_error'), String(b.resultMessage ?? `HTTP ${res.status}`), res.body);
}

function readTxn(t: Record<string, unknown>): GbTxn {
  const amount = Number(t.amount);
  return {
    referenceNo: String(t.referenceNo ?? ''),
    gbpReferenceNo: String(t.gbpReferenceNo ?? ''),
    amount: Number.isFinite(amount) ? fromMajor(amount) : 0,
    status: String(t.status ?? ''),
    paymentType: String(t.paymentType ?? t.PaymentType ?? ''),
    resultCode: String(t.resultCode ?? ''),
  };
}

/** check_status_txn's answer: `txn` (object) or `txns` (array: a paid one wins, else the last); null when there is none. */
export function readStatusAnswer(body: unknown): GbTxn | null {
  const b = isRecord(body) ? body : {};
  if (b.resultCode !== '00') return null;
  if (Array.isArray(b.txns)) {
    const rows = b.txns.filter(isRecord).map(readTxn);
    return rows.find((r) => GB_PAID.has(r.status)) ?? rows[rows.length - 1] ?? null;
  }
  if (isRecord(b.txn)) return readTxn(b.txn);
  return null;
}

export function createGbPrimeClient(opts: AdapterOptions<GbPrimeKeys>) {
  const { publicKey, secretKey, token } = opts.keys;
  return {
    publicKey,

    /**
     * Where the card page's script tokenises the card in the browser: POST {base}/v1/tokens with
     * `Authorization: Basic base64(publicKey + ":")` and `{ rememberCard: false, card: { number,
     * expirationMonth, expirationYear, securityCode, name } }`, answered `{ resultCode: "00",
     * card: { token } }` (M2-config sendAPICurl, M2-direct). The public key is meant for the client.
     */
    tokenEndpoint() {
      return { url: joinUrl(opts.baseUrl, '/v1/tokens'), publicKey };
    },

    /** POST /v1/tokens/charge (secret key) for OUR amount; with otp Y the answer needs the 3-D Secure form next. */
    async chargeToken(input: { amount: number; referenceNo: string; cardToken: string; detail: string; customerName: string; customerEmail: string; responseUrl: string; backgroundUrl: string; otp?: 'Y' | 'N' }) {
      const res = await send('gbprime', opts, {
        method: 'POST',
        path: '/v1/tokens/charge',
        headers: { authorization: basicAuth(secretKey) },
        json: {
          amount: Number(toDecimalString(input.amount)),
          referenceNo: input.referenceNo,
          detail: input.detail.slice(0, 250),
          customerName: input.customerName,
          customerEmail: input.customerEmail,
          merchantDefined1: input.referenceNo,
          card: { token: input.cardToken },
          otp: input.otp ?? 'Y',
          responseUrl: input.responseUrl,
          backgroundUrl: input.backgroundUrl,
        },
      });
      const b = isRecord(res.body) ? res.body : {};
      if (res.status >= 400 || b.resultCode !== '00' || !b.gbpReferenceNo) throw fail(res);
      return { gbpReferenceNo: String(b.gbpReferenceNo), resultCode: String(b.resultCode) };
    },

    /** The form the browser posts for 3-D Secure (/v1/tokens/3d_secured: publicKey, gbpReferenceNo). */
    threeDSecureForm(gbpReferenceNo: string) {
      return { action: joinUrl(opts.baseUrl, '/v1/tokens/3d_secured'), method: 'POST' as const, fields: { publicKey, gbpReferenceNo } };
    },

    /** PromptPay QR (QR Cash) for OUR amount: multipart POST /gbp/gateway/qrcode, answered with a PNG. */
    async qrcode(input: { amount: number; referenceNo: string; backgroundUrl: string; detail: string; customerName?: string; customerEmail?: string }): Promise<Buffer> {
      const body = new FormData();
      const fields: Record<string, string> = {
        token,
        amount: toDecimalString(input.amount),
        referenceNo: input.referenceNo,
        backgroundUrl: input.backgroundUrl,
        detail: input.detail.slice(0, 250),
        customerName: input.customerName ?? '',
        customerEmail: input.customerEmail ?? '',
        merchantDefined1: input.referenceNo,
      };
      for (const [k, v] of Object.entries(fields)) body.append(k, v);
      const f = opts.fetch ?? fetch;
      let res: Response;
      try {
        res = await f(joinUrl(opts.baseUrl, '/gbp/gateway/qrcode'), { method: 'POST', body, signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000) });
      } catch (err) {
        throw new ProviderError('gbprime', 0, 'network_error', err instanceof Error ? err.message : String(err));
      }
      const bytes = Buffer.from(await res.arrayBuffer());
      // A refusal is a text answer ("Incomplete information") or JSON, never a PNG.
      const png = bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      if (!res.ok || !png) {
        const text = bytes.toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = { resultCode: 'refused', resultMessage: text.slice(0, 200) };
        }
        throw fail({ status: res.status, body: parsed });
      }
      return bytes;
    },

    /** POST /v1/check_status_txn (secret key) by our referenceNo; null when GB Prime Pay knows none. */
    async checkStatus(referenceNo: string): Promise<GbTxn | null> {
      const res = await send('gbprime', opts, { method: 'POST', path: '/v1/check_status_txn', headers: { authorization: basicAuth(secretKey) }, json: { referenceNo } });
      if (res.status >= 400) throw fail(res);
      return readStatusAnswer(res.body);
    },
  };
}

export type GbPrimeClient = ReturnType<typeof createGbPrimeClient>;

/** The shop's reading of a transaction (null: GB Prime Pay knows none yet). */
export function gbPrimeStatus(txn: GbTxn | null): ProviderStatus {
  if (!txn) return { kind: 'pending' };
  if (GB_PAID.has(txn.status)) return { kind: 'paid', paidAmount: txn.amount, currency: 'THB', txnId: txn.gbpReferenceNo || null };
  if (txn.status === 'P' || txn.status === '') return { kind: 'pending' };
  if (txn.status === 'E') return { kind: 'expired' };
  // A card decline keeps the bank's ISO 8583 result code (51, 05, 54...); a failed 3-D Secure
  // (status V) and a QR / non-card payment that did not pay keep the status letter: card-data
  // codes say nothing about them.
  const byLetter = txn.status === 'V' || (txn.paymentType !== '' && txn.paymentType !== 'C');
  const code = byLetter || !txn.resultCode || txn.resultCode === '00' ? txn.status : txn.resultCode;
  return { kind: 'failed', code, message: `GB Prime Pay status ${txn.status}` };
}

/**
 * GB Prime Pay as a `PaymentProvider`. `initiatePayment`:
 * - `input.kind === 'card'` with `input.cardToken` (made by the browser with the public key; card
 *   data never reaches us): charge (secret key, otp Y), answered with the 3-D Secure `form`;
 *   `returnUrl` is the `responseUrl`;
 * - `input.kind === 'qr'`: the PromptPay PNG, answered as `qr` (base64 PNG in `imageUrl` as a data URL).
 * `pages` reaches the browser-facing base (3-D Secure page) when it differs from the API base.
 */
export function createGbPrimeProvider(client: GbPrimeClient, pages: Pick<GbPrimeClient, 'threeDSecureForm'> = client): PaymentProvider {
  return {
    name: 'gbprime',
    capabilities: { refund: 'manual', cancel: false },
    async initiatePayment(input: InitiateInput): Promise<Initiated> {
      const i = input.input ?? {};
      if (i.kind === 'qr') {
        const png = await client.qrcode({ amount: input.amount, referenceNo: input.ref, backgroundUrl: input.notifyUrl, detail: input.description, customerName: input.customer?.name, customerEmail: input.customer?.email });
        return { kind: 'qr', payload: '', imageUrl: `data:image/png;base64,${png.toString('base64')}`, expiresAt: typeof i.expiresAt === 'string' ? i.expiresAt : null, providerRef: input.ref };
      }
      if (typeof i.cardToken !== 'string' || !i.cardToken) throw new Error('GB Prime Pay card: a card token made in the browser is required');
      const cardToken = i.cardToken;
      const charged = await client.chargeToken({
        amount: input.amount,
        referenceNo: input.ref,
        cardToken,
        detail: input.description,
        customerName: input.customer?.name ?? '',
        customerEmail: input.customer?.email ?? '',
        responseUrl: input.returnUrl,
        backgroundUrl: input.notifyUrl,
        otp: 'Y',
      });
      const f = pages.threeDSecureForm(charged.gbpReferenceNo);
      return { kind: 'form', action: f.action, method: 'POST', fields: f.fields, providerRef: input.ref };
    },
    async getPaymentStatus(attempt: AttemptRef): Promise<ProviderStatus> {
      return gbPrimeStatus(await client.checkStatus(attempt.ref));
    },
    // Unsigned: nothing in it is trusted; the caller applies getPaymentStatus (check_status_txn).
    async verifyNotification(n: IncomingNotification): Promise<VerifiedNotification | null> {
      return unsignedNotification(n.body, 'referenceNo', /^[A-Za-z0-9]{1,20}$/u);
    },
    async refundPayment(): Promise<RefundResult> {
      return { kind: 'manual' };
    },
  };
}
