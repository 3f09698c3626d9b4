/**
 * PayPal adapter: OAuth client credentials, Orders v2 (create with OUR total, capture, read),
 * Payments v2 (read a capture, refund a capture) and webhook verification
 * (POST /v1/notifications/verify-webhook-signature). Paid only when the capture is COMPLETED; a
 * PENDING capture is pending (settled later by PAYMENT.CAPTURE.COMPLETED / DENIED or a re-read).
 * Published shapes: paypal/paypal-rest-api-specifications openapi/checkout_orders_v2.json,
 * openapi/payments_payment_v2.json, openapi/notifications_webhooks_v1.json; calls as
 * @paypal/paypal-server-sdk makes them (capture with no body). Every field: docs/providers/paypal.md.
 */
import { fromMajor, toDecimalString } from '../../domain/money';
import { type AdapterOptions, ProviderError, basicAuth, isRecord, send } from './http';
import type { AttemptRef, IncomingNotification, PaymentProvider, ProviderStatus, RefundResult, VerifiedNotification } from './provider';

export interface PaypalKeys {
  clientId: string;
  clientSecret: string;
  /** The id PayPal gave our webhook subscription (verify-webhook-signature's webhook_id). */
  webhookId?: string;
}

export interface PaypalMoney {
  currency_code: string;
  value: string;
}

export type PaypalCaptureStatus = 'COMPLETED' | 'DECLINED' | 'PARTIALLY_REFUNDED' | 'PENDING' | 'REFUNDED' | 'FAILED';

export interface PaypalCapture {
  id: string;
  status: PaypalCaptureStatus;
  status_details?: { reason?: string };
  amount: PaypalMoney;
  final_capture?: boolean;
  custom_id?: string;
  invoice_id?: string;
  supplementary_data?: { related_ids?: { order_id?: string } };
  links?: { rel: string; href: string; method?: string }[];
  create_time?: string;
  update_time?: string;
}

export interface PaypalRefund {
  id: string;
  status: 'CANCELLED' | 'FAILED' | 'PENDING' | 'COMPLETED';
  amount: PaypalMoney;
  invoice_id?: string;
  note_to_payer?: string;
  create_time?: string;
  update_time?: string;
  /** Sandbox bookkeeping only (the PayPal-Request-Id that made it); never sent. */
  request_id?: string;
}

export interface PaypalOrder {
  id: string;
  status: 'CREATED' | 'SAVED' | 'APPROVED' | 'VOIDED' | 'COMPLETED' | 'PAYER_ACTION_REQUIRED';
  links?: { rel: string; href: string; method?: string }[];
  payer?: { payer_id?: string; email_address?: string };
  purchase_units?: {
    reference_id?: string;
    custom_id?: string;
    amount?: PaypalMoney;
    payments?: { captures?: PaypalCapture[] };
  }[];
}

export interface PaypalWebhookEvent {
  id: string;
  event_type: string;
  resource_type?: string;
  resource: Record<string, unknown>;
  create_time?: string;
}

export function paypalIssue(err: unknown): string | null {
  if (!(err instanceof ProviderError) || !isRecord(err.body)) return null;
  const details = err.body.details;
  if (Array.isArray(details) && isRecord(details[0])) return String(details[0].issue ?? '') || null;
  return null;
}

export function firstCapture(o: PaypalOrder) {
  return o.purchase_units?.[0]?.payments?.captures?.[0] ?? null;
}

/** A capture in the shop's words: COMPLETED (also after a refund) paid, PENDING pending, DECLINED / FAILED failed. */
export function captureStatus(c: PaypalCapture): ProviderStatus {
  if (c.status === 'COMPLETED' || c.status === 'PARTIALLY_REFUNDED' || c.status === 'REFUNDED') {
    return { kind: 'paid', paidAmount: fromMajor(Number(c.amount.value)), currency: c.amount.currency_code === 'USD' ? 'USD' : 'THB', txnId: c.id };
  }
  if (c.status === 'PENDING') return { kind: 'pending' };
  return { kind: 'failed', code: c.status, message: `capture ${c.status}` };
}

/** An order's status: its capture's, else pending while the buyer can still approve, else cancelled. */
export function orderStatus(o: PaypalOrder): ProviderStatus {
  const cap = firstCapture(o);
  if (cap) return captureStatus(cap);
  if (o.status === 'VOIDED') return { kind: 'cancelled' };
  return { kind: 'pending' };
}

/** The PayPal webhook headers verify-webhook-signature needs (lower-cased as Node gives them). */
export const PAYPAL_TRANSMISSION_HEADERS = ['paypal-transmission-id', 'paypal-transmission-time', 'paypal-transmission-sig', 'paypal-cert-url', 'paypal-auth-algo'] as const;

export function createPaypalClient(opts: AdapterOptions<PaypalKeys> & { now?: () => Date }) {
  let cached: { token: string; until: number } | null = null;
  const now = () => (opts.now ? opts.now() : new Date()).getTime();

  async function token(): Promise<string> {
    if (cached && cached.until > now()) return cached.token;
    const res = await send('paypal', opts, {
      method: 'POST',
      path: '/v1/oauth2/token',
      headers: { authorization: basicAuth(opts.keys.clientId, opts.keys.clientSecret) },
      form: { grant_type: 'client_credentials' },
    });
    const b = isRecord(res.body) ? res.body : {};
    if (res.status >= 400 || typeof b.access_token !== 'string') throw new ProviderError('paypal', res.status, String(b.error ?? 'auth_failed'), String(b.error_description ?? 'authentication failed'), b);
    cached = { token: b.access_token, until: now() + Math.max(0, Number(b.expires_in ?? 3600) - 60) * 1000 };
    return b.access_token;
  }

  async function call<T = PaypalOrder>(method: 'GET' | 'POST', path: string, json?: unknown, requestId?: string): Promise<T> {
    const t = await token();
    const res = await send('paypal', opts, {
      method,
      path,
      headers: { authorization: `Bearer ${t}`, ...(requestId ? { 'paypal-request-id': requestId } : {}), prefer: 'return=representation', ...(method === 'POST' && json === undefined ? { 'content-type': 'application/json' } : {}) },
      json,
    });
    const b = isRecord(res.body) ? res.body : {};
    if (res.status >= 400) throw new ProviderError('paypal', res.status, String(b.name ?? b.error ?? 'http_error'), String(b.message ?? b.error_description ?? `HTTP ${res.status}`), b);
    return b as unknown as T;
  }

  return {
    clientId: opts.keys.clientId,
    createOrder(input: { amount: number; currency: 'THB' | 'USD'; orderId: number; returnUrl: string; cancelUrl: string; requestId: string }) {
      return call(
        'POST',
        '/v2/checkout/orders',
        {
          intent: 'CAPTURE',
          purchase_units: [
            { reference_id: `order-${input.orderId}`, custom_id: String(input.orderId), amount: { currency_code: input.currency, value: toDecimalString(input.amount) } },
          ],
          payment_source: { paypal: { experience_context: { return_url: input.returnUrl, cancel_url: input.cancelUrl, user_action: 'PAY_NOW' } } },
        },
        input.requestId,
      );
    },
    /** Capture with no body (as PayPal's server SDK does); PayPal-Request-Id makes a retry answer the same capture. */
    captureOrder(id: string, requestId: string) {
      return call('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, undefined, requestId);
    },
    getOrder(id: string) {
      return call('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`);
    },
    getCapture(id: string) {
      return call<PaypalCapture>('GET', `/v2/payments/captures/${encodeURIComponent(id)}`);
    },
    /** Refunds `amount` (minor units) of a capture; the same requestId answers the same refund. */
    refundCapture(captureId: string, amount: { value: number; currency: 'THB' | 'USD' }, requestId: string, invoiceId?: string) {
      return call<PaypalRefund>('POST', `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, { amount: { currency_code: amount.currency, value: toDecimalString(amount.value) }, ...(invoiceId ? { invoice_id: invoiceId } : {}) }, requestId);
    },
    /** Asks PayPal whether a webhook delivery is genuine (PayPal's documented way; no certificate handling here). */
    async verifyWebhook(headers: Record<string, string | string[] | undefined>, event: unknown): Promise<boolean> {
      const h = (k: string) => {
        const v = headers[k];
        return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
      };
      if (!opts.keys.webhookId || PAYPAL_TRANSMISSION_HEADERS.some((k) => !h(k))) return false;
      const r = await call<{ verification_status?: string }>('POST', '/v1/notifications/verify-webhook-signature', {
        auth_algo: h('paypal-auth-algo'),
        cert_url: h('paypal-cert-url'),
        transmission_id: h('paypal-transmission-id'),
        transmission_sig: h('paypal-transmission-sig'),
        transmission_time: h('paypal-transmission-time'),
        webhook_id: opts.keys.webhookId,
        webhook_event: event,
      });
      return r.verification_status === 'SUCCESS';
    },
  };
}

export type PaypalClient = ReturnType<typeof createPaypalClient>;

/**
 * PayPal behind the one provider interface. `ref` is the PayPal order id (the shop stores it as the
 * attempt's provider_ref); the capture id is the transaction id a refund needs.
 */
export function createPaypalProvider(client: PaypalClient): PaymentProvider {
  return {
    name: 'paypal',
    capabilities: { refund: 'api', cancel: false },
    async initiatePayment(input) {
      const o = await client.createOrder({
        amount: input.amount,
        currency: input.currency,
        orderId: input.orderId,
        returnUrl: input.returnUrl,
        cancelUrl: input.returnUrl,
        requestId: String(input.input?.requestId ?? input.ref),
      });
      const approve = o.links?.find((l) => l.rel === 'approve' || l.rel === 'payer-action')?.href ?? '';
      return { kind: 'approval', url: approve, providerRef: o.id };
    },
    async getPaymentStatus(a: AttemptRef) {
      return orderStatus(await client.getOrder(a.providerRef ?? a.ref));
    },
    async verifyNotification(n: IncomingNotification): Promise<VerifiedNotification | null> {
      if (!isRecord(n.body) || typeof n.body.id !== 'string' || typeof n.body.event_type !== 'string') return null;
      if (!(await client.verifyWebhook(n.headers, n.body))) return null;
      const ev = n.body as unknown as PaypalWebhookEvent;
      const res = isRecord(ev.resource) ? ev.resource : {};
      const related = isRecord(res.supplementary_data) && isRecord(res.supplementary_data.related_ids) ? res.supplementary_data.related_ids : {};
      const orderId = typeof related.order_id === 'string' ? related.order_id : null;
      if (!orderId) return { ref: '', eventId: ev.id };
      return { ref: orderId, byProviderRef: true, eventId: ev.id, claimed: ev.resource_type === 'capture' ? captureStatus(res as unknown as PaypalCapture) : undefined };
    },
    async refundPayment(a, amount, idempotencyKey): Promise<RefundResult> {
      let captureId = a.txnId;
      if (!captureId) captureId = firstCapture(await client.getOrder(a.providerRef ?? a.ref))?.id ?? null;
      if (!captureId) throw new ProviderError('paypal', 422, 'NO_CAPTURE', 'this PayPal order has no capture to refund');
      const r = await client.refundCapture(captureId, { value: amount, currency: a.currency }, idempotencyKey);
      return { kind: 'refunded', refundId: r.id, amount, pending: r.status === 'PENDING' };
    },
  };
}
