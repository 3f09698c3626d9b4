/**
 * SCB partners API adapter: OAuth token, QR30 (PromptPay bill payment) create, bill-payment
 * inquiry. The payment confirmation callback is unsigned, so it is only trusted after `inquiry`
 * finds the same transaction with the same amount.
 */
import { randomUUID } from 'node:crypto';
import { toDecimalString } from '../../domain/money';
import { type AdapterOptions, ProviderError, isRecord, send } from './http';

export interface ScbKeys {
  applicationKey: string;
  applicationSecret: string;
  billerId: string;
}

export interface ScbStatus {
  code: number;
  description: string;
}

export interface ScbQr {
  qrRawData: string;
  qrImage: string;
  csExtExpiryTime?: string;
}

export interface ScbTransaction {
  eventCode?: string;
  transactionType?: string;
  transactionId: string;
  amount: string;
  transactionDateandTime: string;
  billPaymentRef1: string;
  billPaymentRef2?: string;
  billPaymentRef3?: string;
  payeeProxyId?: string;
  currencyCode?: string;
}

/** The confirmation SCB posts to our callback URL. */
export interface ScbConfirmation {
  transactionId: string;
  amount: string;
  transactionDateandTime?: string;
  billPaymentRef1: string;
  billPaymentRef2?: string;
  billPaymentRef3?: string;
  payeeProxyId?: string;
  currencyCode?: string;
  [k: string]: unknown;
}

function check(res: { status: number; body: unknown }): Record<string, unknown> {
  const b = isRecord(res.body) ? res.body : {};
  const st = isRecord(b.status) ? b.status : {};
  if (res.status >= 400 || st.code !== 1000) {
    throw new ProviderError('scb', res.status, String(st.code ?? 'http_error'), String(st.description ?? `HTTP ${res.status}`), res.body);
  }
  return b;
}

export function createScbClient(opts: AdapterOptions<ScbKeys> & { now?: () => Date }) {
  let cached: { token: string; until: number } | null = null;
  const now = () => (opts.now ? opts.now() : new Date()).getTime();
  const headers = (extra: Record<string, string> = {}) => ({
    resourceOwnerId: opts.keys.applicationKey,
    requestUId: randomUUID(),
    'accept-language': 'EN',
    ...extra,
  });

  async function token(): Promise<string> {
    if (cached && cached.until > now()) return cached.token;
    const res = await send('scb', opts, {
      method: 'POST',
      path: '/v1/oauth/token',
      headers: headers(),
      json: { applicationKey: opts.keys.applicationKey, applicationSecret: opts.keys.applicationSecret },
    });
    const b = check(res);
    const data = isRecord(b.data) ? b.data : {};
    const accessToken = String(data.accessToken ?? '');
    const expiresIn = Number(data.expiresIn ?? 1800);
    cached = { token: accessToken, until: now() + Math.max(0, expiresIn - 60) * 1000 };
    return accessToken;
  }

  return {
    token,
    /** QR30 (qrType PP, ppType BILLERID) for OUR amount (satang). */
    async createQr(input: { amount: number; ref1: string; ref2: string; ref3: string }): Promise<ScbQr> {
      const t = await token();
      const res = await send('scb', opts, {
        method: 'POST',
        path: '/v1/payment/qrcode/create',
        headers: headers({ authorization: `Bearer ${t}` }),
        json: { qrType: 'PP', ppType: 'BILLERID', ppId: opts.keys.billerId, amount: toDecimalString(input.amount), ref1: input.ref1, ref2: input.ref2, ref3: input.ref3 },
      });
      const b = check(res);
      const data = isRecord(b.data) ? b.data : {};
      return { qrRawData: String(data.qrRawData ?? ''), qrImage: String(data.qrImage ?? '') };
    },

    /** Bill-payment inquiry (eventCode 00300100) by reference 1 (and 2) on a transaction date (YYYY-MM-DD, Bangkok). */
    async inquiry(input: { ref1: string; ref2?: string; transactionDate: string }): Promise<ScbTransaction[]> {
      const t = await token();
      const res = await send('scb', opts, {
        method: 'GET',
        path: '/v1/payment/billpayment/inquiry',
        headers: headers({ authorization: `Bearer ${t}` }),
        query: { eventCode: '00300100', transactionDate: input.transactionDate, billerId: opts.keys.billerId, reference1: input.ref1, reference2: input.ref2 },
      });
      const b = check(res);
      return Array.isArray(b.data) ? (b.data as ScbTransaction[]) : [];
    },
  };
}

export type ScbClient = ReturnType<typeof createScbClient>;
