/**
 * SCB partners API adapter: OAuth token, QR30 (PromptPay bill payment) create, bill-payment
 * inquiry. The payment confirmation callback is unsigned, so it is only trusted after `inquiry`
 * finds the same transaction with the same amount.
 */
import { randomUUID } from 'node:crypto';
import { fromMajor, toDecimalString } from '../../domain/money';
import { type AdapterOptions, ProviderError, isRecord, send } from './http';
import type { AttemptRef, PaymentProvider, ProviderStatus } from './provider';

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

/** Bangkok calendar date (YYYY-MM-DD) of an instant: SCB's inquiry is by transaction date. */
function bangkokDay(at: Date): string {
  return new Date(at.getTime() + 7 * 3600_000).toISOString().slice(0, 10);
}

/**
 * SCB behind the one provider interface. `ref` is `<ref1>.<ref2>` (the shop's provider_ref);
 * `details.ref1` / `details.ref2` and `details.created_at` (when the QR was made) are read when
 * present. SCB's partners API offers no refund of a bill payment: refunds are manual (a person
 * transfers the money back and the shop records it). SCB's confirmation callback is unsigned, so
 * it is never trusted alone: `verifyNotification` only names the attempt, the caller re-reads it.
 */
export function createScbProvider(client: ScbClient, now: () => Date): PaymentProvider {
  const refs = (a: AttemptRef) => {
    const [r1 = '', r2 = ''] = (a.providerRef ?? a.ref).split('.');
    return { ref1: typeof a.details?.ref1 === 'string' ? a.details.ref1 : r1, ref2: typeof a.details?.ref2 === 'string' ? a.details.ref2 : r2 };
  };
  return {
    name: 'scb',
    capabilities: { refund: 'manual', cancel: false },
    async initiatePayment(input) {
      const [ref1 = '', ref2 = ''] = input.ref.split('.');
      const ref3 = typeof input.input?.ref3 === 'string' ? input.input.ref3 : ref1;
      const qr = await client.createQr({ amount: input.amount, ref1, ref2, ref3 });
      return { kind: 'qr', payload: qr.qrRawData, imageUrl: null, expiresAt: null, providerRef: input.ref };
    },
    async getPaymentStatus(a: AttemptRef): Promise<ProviderStatus> {
      const { ref1, ref2 } = refs(a);
      const created = typeof a.details?.created_at === 'string' ? new Date(a.details.created_at) : now();
      const days = [...new Set([bangkokDay(created), bangkokDay(now())])];
      for (const transactionDate of days) {
        const txns = await client.inquiry({ ref1, ref2, transactionDate });
        const t = txns.find((x) => x.billPaymentRef1 === ref1 && (x.billPaymentRef2 ?? '') === ref2);
        if (t) return { kind: 'paid', paidAmount: fromMajor(Number(t.amount)), currency: 'THB', txnId: t.transactionId };
      }
      return { kind: 'pending' };
    },
    async verifyNotification(n) {
      const b = isRecord(n.body) ? n.body : {};
      if (typeof b.billPaymentRef1 !== 'string' || typeof b.transactionId !== 'string') return null;
      return { ref: `${b.billPaymentRef1}.${typeof b.billPaymentRef2 === 'string' ? b.billPaymentRef2 : ''}`, eventId: b.transactionId };
    },
    async refundPayment() {
      return { kind: 'manual' };
    },
  };
}
