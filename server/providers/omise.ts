/**
 * Omise (Opn Payments) adapter: charges (card token or source), sources (PromptPay), charge
 * retrieval, webhook signature. API shape: https://docs.omise.co (Basic auth with the secret key,
 * amounts in satang). The vault (tokens) is the browser's business; `createToken` exists for tests
 * and the CLI only.
 */
import { createHmac } from 'node:crypto';
import { toOmiseAmount } from '../../domain/money';
import { type AdapterOptions, ProviderError, basicAuth, isRecord, safeEqual, send } from './http';
import type { AttemptRef, PaymentProvider, ProviderStatus, RefundResult } from './provider';

export interface OmiseKeys {
  publicKey: string;
  secretKey: string;
  /** Webhook signing secret, base64 (as the dashboard shows it). */
  webhookSecret: string;
}

export interface OmiseOptions extends AdapterOptions<OmiseKeys> {
  /** Vault base URL (tokens), https://vault.omise.co in production. */
  vaultUrl: string;
}

export type OmiseChargeStatus = 'failed' | 'reversed' | 'expired' | 'pending' | 'successful';

export interface OmiseCard {
  object: 'card';
  id: string;
  brand: string;
  last_digits: string;
  bank: string | null;
  name: string | null;
  expiration_month: number;
  expiration_year: number;
}

export interface OmiseSource {
  object: 'source';
  id: string;
  type: string;
  flow: string;
  amount: number;
  currency: string;
  scannable_code?: { object: 'barcode'; type: string; image: { object: 'document'; download_uri: string; filename?: string } } | null;
}

export interface OmiseCharge {
  object: 'charge';
  id: string;
  amount: number;
  currency: string;
  status: OmiseChargeStatus;
  paid: boolean;
  authorized: boolean;
  authorize_uri: string | null;
  return_uri: string | null;
  failure_code: string | null;
  failure_message: string | null;
  card: OmiseCard | null;
  source: OmiseSource | null;
  metadata: Record<string, unknown>;
  expires_at: string | null;
  created_at: string;
}

export interface OmiseRefund {
  object: 'refund';
  id: string;
  amount: number;
  currency: string;
  charge: string;
  transaction: string | null;
  voided: boolean;
  status?: string;
  metadata?: Record<string, unknown>;
  created_at: string;
}

export interface OmiseList<T> {
  object: 'list';
  data: T[];
  total: number;
  offset: number;
  limit: number;
}

export interface OmiseEvent {
  object: 'event';
  id: string;
  key: string;
  data: unknown;
  created_at: string;
}

export interface OmiseToken {
  object: 'token';
  id: string;
  used: boolean;
  card: OmiseCard;
}

function failure(status: number, body: unknown): ProviderError {
  const b = isRecord(body) ? body : {};
  return new ProviderError('omise', status, String(b.code ?? 'http_error'), String(b.message ?? `HTTP ${status}`), body);
}

export function createOmiseClient(opts: OmiseOptions) {
  const auth = { authorization: basicAuth(opts.keys.secretKey) };

  async function call<T>(method: 'GET' | 'POST', path: string, json?: unknown): Promise<T> {
    const res = await send('omise', opts, { method, path, headers: method === 'POST' && json === undefined ? { ...auth, 'content-type': 'application/json' } : auth, json });
    if (res.status >= 400 || !isRecord(res.body) || res.body.object === 'error') throw failure(res.status, res.body);
    return res.body as T;
  }

  return {
    publicKey: opts.keys.publicKey,
    vaultUrl: opts.vaultUrl,

    /** Card charge from a token (amount from OUR order, satang). 3-D Secure when return_uri is honoured. */
    createCardCharge(input: { amount: number; currency: 'thb' | 'usd'; token: string; returnUri: string; orderId: number; description?: string }): Promise<OmiseCharge> {
      return call<OmiseCharge>('POST', '/charges', {
        amount: toOmiseAmount(input.amount),
        currency: input.currency,
        card: input.token,
        return_uri: input.returnUri,
        description: input.description ?? `Order ${input.orderId}`,
        metadata: { order_id: input.orderId },
      });
    },

    createPromptPaySource(input: { amount: number }): Promise<OmiseSource> {
      return call<OmiseSource>('POST', '/sources', { type: 'promptpay', amount: toOmiseAmount(input.amount), currency: 'thb' });
    },

    createSourceCharge(input: { amount: number; sourceId: string; returnUri: string; orderId: number }): Promise<OmiseCharge> {
      return call<OmiseCharge>('POST', '/charges', {
        amount: toOmiseAmount(input.amount),
        currency: 'thb',
        source: input.sourceId,
        return_uri: input.returnUri,
        metadata: { order_id: input.orderId },
      });
    },

    retrieveCharge(id: string): Promise<OmiseCharge> {
      return call<OmiseCharge>('GET', `/charges/${encodeURIComponent(id)}`);
    },

    /** Expires a pending charge (POST /charges/:id/expire, no body, as omise-node's charges.expire). */
    expireCharge(id: string): Promise<OmiseCharge> {
      return call<OmiseCharge>('POST', `/charges/${encodeURIComponent(id)}/expire`);
    },

    /** Refunds `amount` satang of a charge; our idempotency key rides in the refund's metadata. */
    createRefund(chargeId: string, amount: number, metadata: Record<string, string>): Promise<OmiseRefund> {
      return call<OmiseRefund>('POST', `/charges/${encodeURIComponent(chargeId)}/refunds`, { amount: toOmiseAmount(amount), metadata });
    },

    listRefunds(chargeId: string): Promise<OmiseList<OmiseRefund>> {
      return call<OmiseList<OmiseRefund>>('GET', `/charges/${encodeURIComponent(chargeId)}/refunds`);
    },

    retrieveEvent(id: string): Promise<OmiseEvent> {
      return call<OmiseEvent>('GET', `/events/${encodeURIComponent(id)}`);
    },

    /** Tokenise a card the way Omise.js does (browser side in the app; tests and CLI only here). */
    async createToken(card: { name: string; number: string; expiration_month: number; expiration_year: number; security_code: string }): Promise<OmiseToken> {
      const res = await send('omise', { ...opts, baseUrl: opts.vaultUrl }, {
        method: 'POST',
        path: '/tokens',
        headers: { authorization: basicAuth(opts.keys.publicKey) },
        json: { card },
      });
      if (res.status >= 400 || !isRecord(res.body) || res.body.object !== 'token') throw failure(res.status, res.body);
      return res.body as unknown as OmiseToken;
    },
  };
}

export type OmiseClient = ReturnType<typeof createOmiseClient>;

/** A charge counts as paid only when successful with no failure code or message (providers.md). */
export function isOmiseChargePaid(c: Pick<OmiseCharge, 'status' | 'failure_code' | 'failure_message'>): boolean {
  return c.status === 'successful' && c.failure_code === null && c.failure_message === null;
}

/** A charge in the shop's words. */
export function omiseChargeStatus(c: OmiseCharge): ProviderStatus {
  if (isOmiseChargePaid(c)) return { kind: 'paid', paidAmount: c.amount, currency: c.currency.toUpperCase() === 'USD' ? 'USD' : 'THB', txnId: c.id };
  if (c.status === 'pending') return { kind: 'pending' };
  if (c.status === 'expired') return { kind: 'expired' };
  return { kind: 'failed', code: c.failure_code ?? c.status, message: c.failure_message ?? c.status };
}

/**
 * Omise behind the one provider interface (`ref` = the charge id). Starting a charge stays in the
 * payment handlers (card token and PromptPay source need the browser's input and two calls);
 * status, refund and expire are here. Omise has no idempotency header for refunds: the key is put
 * in the refund's metadata and the charge's refunds are read first, so a retry finds the refund
 * it already made.
 */
export function createOmiseProvider(client: OmiseClient, webhookSecret: string, nowMs: () => number): PaymentProvider {
  return {
    name: 'omise',
    capabilities: { refund: 'api', cancel: true },
    async initiatePayment(input) {
      const token = typeof input.input?.token === 'string' ? input.input.token : null;
      const currency = input.currency === 'USD' ? 'usd' : 'thb';
      if (token) {
        const c = await client.createCardCharge({ amount: input.amount, currency, token, returnUri: input.returnUrl, orderId: input.orderId, description: input.description });
        if (c.status === 'pending' && c.authorize_uri) return { kind: 'redirect', url: c.authorize_uri, providerRef: c.id };
        return { kind: 'done', status: omiseChargeStatus(c), providerRef: c.id };
      }
      const src = await client.createPromptPaySource({ amount: input.amount });
      const c = await client.createSourceCharge({ amount: input.amount, sourceId: src.id, returnUri: input.returnUrl, orderId: input.orderId });
      const uri = c.source?.scannable_code?.image.download_uri ?? src.scannable_code?.image.download_uri ?? '';
      return { kind: 'qr', payload: uri, imageUrl: uri, expiresAt: c.expires_at, providerRef: c.id };
    },
    async getPaymentStatus(a: AttemptRef) {
      return omiseChargeStatus(await client.retrieveCharge(a.providerRef ?? a.ref));
    },
    async verifyNotification(n) {
      const h = (k: string) => {
        const v = n.headers[k];
        return Array.isArray(v) ? v[0] : v;
      };
      const check = verifyOmiseSignature({ secretBase64: webhookSecret, rawBody: n.rawBody, signature: h('omise-signature'), timestamp: h('omise-signature-timestamp'), nowMs: nowMs() });
      if (!check.ok || !isRecord(n.body) || typeof n.body.id !== 'string') return null;
      const data = isRecord(n.body.data) ? n.body.data : {};
      if (data.object !== 'charge' || typeof data.id !== 'string') return { ref: '', eventId: n.body.id };
      // Omise's event only says "look again": the caller re-reads the charge (getPaymentStatus).
      return { ref: data.id, byProviderRef: true, eventId: n.body.id };
    },
    async refundPayment(a, amount, idempotencyKey): Promise<RefundResult> {
      const chargeId = a.providerRef ?? a.ref;
      const prior = (await client.listRefunds(chargeId)).data.find((r) => r.metadata?.idempotency_key === idempotencyKey);
      const r = prior ?? (await client.createRefund(chargeId, amount, { idempotency_key: idempotencyKey }));
      return { kind: 'refunded', refundId: r.id, amount: r.amount };
    },
    async cancelPayment(a: AttemptRef) {
      return omiseChargeStatus(await client.expireCharge(a.providerRef ?? a.ref));
    },
  };
}

export const OMISE_SIGNATURE_TOLERANCE_S = 300;

/** Hex HMAC-SHA256 of `${timestamp}.${rawBody}` with the base64-decoded secret. */
export function omiseSignature(secretBase64: string, timestamp: string, rawBody: string): string {
  return createHmac('sha256', Buffer.from(secretBase64, 'base64')).update(`${timestamp}.${rawBody}`).digest('hex');
}

/**
 * Verifies Omise-Signature (one or more comma-separated hex signatures, for secret rotation) and
 * Omise-Signature-Timestamp (unix seconds, within the tolerance of now).
 */
export function verifyOmiseSignature(args: {
  secretBase64: string;
  rawBody: string;
  signature: string | undefined;
  timestamp: string | undefined;
  nowMs: number;
  toleranceS?: number;
}): { ok: true } | { ok: false; reason: 'missing' | 'stale' | 'mismatch' } {
  const { signature, timestamp } = args;
  if (!signature || !timestamp || !/^\d{1,12}$/u.test(timestamp)) return { ok: false, reason: 'missing' };
  const age = Math.abs(args.nowMs / 1000 - Number(timestamp));
  if (age > (args.toleranceS ?? OMISE_SIGNATURE_TOLERANCE_S)) return { ok: false, reason: 'stale' };
  const expected = omiseSignature(args.secretBase64, timestamp, args.rawBody);
  const ok = signature.split(',').some((s) => safeEqual(s.trim().toLowerCase(), expected));
  return ok ? { ok: true } : { ok: false, reason: 'mismatch' };
}
