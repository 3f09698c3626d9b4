/**
 * GB Prime Pay adapter (THB only). Card: the browser tokenises with the public key (/v2/tokens),
 * the server charges the token with the secret key (/v2/tokens/charge, otp Y), the browser
 * form-posts publicKey + gbpReferenceNo to /v2/tokens/3d_secured. For the spec's redirect flow
 * (`invoice_url`), `checkoutUrl` builds GB Prime Pay's hosted card page for OUR amount, protected
 * by a checksum (HMAC-SHA256 with the secret key) so the browser cannot change the amount.
 * PromptPay: /v3/qrcode answers a PNG. Background results are unsigned: `checkStatus` re-reads the
 * transaction by referenceNo before anything is trusted.
 */
import { createHmac } from 'node:crypto';
import { fromMajor, toDecimalString } from '../../domain/money';
import { type AdapterOptions, ProviderError, basicAuth, isRecord, joinUrl, send } from './http';

export interface GbPrimeKeys {
  publicKey: string;
  secretKey: string;
  /** Customer token of the QR (PromptPay) API. */
  token: string;
}

/** Transaction status of check_status_txn: S settled, A authorized, G paid (QR), P pending, D declined, V voided, E expired. */
export type GbTxnStatus = 'S' | 'A' | 'G' | 'P' | 'D' | 'V' | 'E';
export const GB_PAID = new Set<string>(['S', 'A', 'G']);

export interface GbTxn {
  referenceNo: string;
  gbpReferenceNo: string;
  amount: number;
  status: GbTxnStatus;
  paymentType: string;
  resultCode: string;
}

export function gbChecksum(secretKey: string, parts: string[]): string {
  return createHmac('sha256', secretKey).update(parts.join('')).digest('hex');
}

function fail(res: { status: number; body: unknown }): ProviderError {
  const b = isRecord(res.body) ? res.body : {};
  return new ProviderError('gbprime', res.status, String(b.resultCode ?? 'http_error'), String(b.resultMessage ?? `HTTP ${res.status}`), res.body);
}

export function createGbPrimeClient(opts: AdapterOptions<GbPrimeKeys>) {
  const { publicKey, secretKey, token } = opts.keys;
  return {
    publicKey,

    /** Browser-side in the app (public key); tests and the CLI only here. */
    async createToken(card: { number: string; expirationMonth: string; expirationYear: string; securityCode: string; name: string }): Promise<string> {
      const res = await send('gbprime', opts, { method: 'POST', path: '/v2/tokens', headers: { authorization: basicAuth(publicKey) }, json: { rememberCard: false, card } });
      const b = isRecord(res.body) ? res.body : {};
      if (res.status >= 400 || b.resultCode !== '00' || !isRecord(b.card)) throw fail(res);
      return String(b.card.token);
    },

    /** Charges a card token for OUR amount; with otp Y the answer needs the 3-D Secure form next. */
    async chargeToken(input: { amount: number; referenceNo: string; cardToken: string; detail: string; customerName: string; customerEmail: string; responseUrl: string; backgroundUrl: string; otp?: 'Y' | 'N' }) {
      const res = await send('gbprime', opts, {
        method: 'POST',
        path: '/v2/tokens/charge',
        headers: { authorization: basicAuth(secretKey) },
        json: {
          amount: Number(toDecimalString(input.amount)),
          referenceNo: input.referenceNo,
          detail: input.detail,
          customerName: input.customerName,
          customerEmail: input.customerEmail,
          card: { token: input.cardToken },
          otp: input.otp ?? 'Y',
          responseUrl: input.responseUrl,
          backgroundUrl: input.backgroundUrl,
        },
      });
      const b = isRecord(res.body) ? res.body : {};
      if (res.status >= 400 || b.resultCode !== '00') throw fail(res);
      return { gbpReferenceNo: String(b.gbpReferenceNo), resultCode: String(b.resultCode) };
    },

    /** The form the browser posts for 3-D Secure. */
    threeDSecureForm(gbpReferenceNo: string) {
      return { action: joinUrl(opts.baseUrl, '/v2/tokens/3d_secured'), method: 'POST' as const, fields: { publicKey, gbpReferenceNo } };
    },

    /** GB Prime Pay's hosted card page for OUR amount (checksum over amount, referenceNo and the URLs). */
    checkoutUrl(input: { amount: number; referenceNo: string; detail: string; customerName: string; customerEmail: string; responseUrl: string; failureUrl: string; backgroundUrl: string }): string {
      const amount = toDecimalString(input.amount);
      const u = new URL(joinUrl(opts.baseUrl, '/v2/checkout'));
      const q: Record<string, string> = {
        publicKey,
        amount,
        referenceNo: input.referenceNo,
        detail: input.detail.slice(0, 250),
        customerName: input.customerName,
        customerEmail: input.customerEmail,
        responseUrl: input.responseUrl,
        failureUrl: input.failureUrl,
        backgroundUrl: input.backgroundUrl,
      };
      for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
      u.searchParams.set('checksum', gbChecksum(secretKey, [amount, input.referenceNo, input.responseUrl, input.failureUrl, input.backgroundUrl]));
      return u.toString();
    },

    /** PromptPay QR (QR Cash) for OUR amount: a PNG. */
    async qrcode(input: { amount: number; referenceNo: string; backgroundUrl: string; detail: string }): Promise<Buffer> {
      const res = await send(
        'gbprime',
        opts,
        {
          method: 'POST',
          path: '/v3/qrcode',
          form: { token, amount: toDecimalString(input.amount), referenceNo: input.referenceNo, backgroundUrl: input.backgroundUrl, detail: input.detail.slice(0, 250) },
        },
        true,
      );
      if (res.status >= 400 || !res.bytes) throw fail(res);
      return res.bytes;
    },

    /** Re-reads a transaction by our referenceNo (null when GB Prime Pay does not know it). */
    async checkStatus(referenceNo: string): Promise<GbTxn | null> {
      const res = await send('gbprime', opts, { method: 'POST', path: '/v1/check_status_txn', headers: { authorization: basicAuth(secretKey) }, json: { referenceNo } });
      const b = isRecord(res.body) ? res.body : {};
      if (res.status >= 400) throw fail(res);
      if (b.resultCode !== '00' || !isRecord(b.txn)) return null;
      const t = b.txn;
      return {
        referenceNo: String(t.referenceNo),
        gbpReferenceNo: String(t.gbpReferenceNo ?? ''),
        amount: fromMajor(Number(t.amount)),
        status: String(t.status) as GbTxnStatus,
        paymentType: String(t.paymentType ?? ''),
        resultCode: String(t.resultCode ?? ''),
      };
    },
  };
}

export type GbPrimeClient = ReturnType<typeof createGbPrimeClient>;
