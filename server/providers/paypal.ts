/**
 * PayPal Orders v2 adapter: OAuth client credentials, create order (intent CAPTURE, OUR total),
 * capture, read. Paid only when the capture's status is COMPLETED.
 */
import { toDecimalString } from '../../domain/money';
import { type AdapterOptions, ProviderError, basicAuth, isRecord, send } from './http';

export interface PaypalKeys {
  clientId: string;
  clientSecret: string;
}

export interface PaypalOrder {
  id: string;
  status: 'CREATED' | 'SAVED' | 'APPROVED' | 'VOIDED' | 'COMPLETED' | 'PAYER_ACTION_REQUIRED';
  links?: { rel: string; href: string; method?: string }[];
  payer?: { payer_id?: string; email_address?: string };
  purchase_units?: {
    reference_id?: string;
    custom_id?: string;
    amount?: { currency_code: string; value: string };
    payments?: { captures?: { id: string; status: string; amount: { currency_code: string; value: string } }[] };
  }[];
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

  async function call(method: 'GET' | 'POST', path: string, json?: unknown, requestId?: string): Promise<PaypalOrder> {
    const t = await token();
    const res = await send('paypal', opts, {
      method,
      path,
      headers: { authorization: `Bearer ${t}`, ...(requestId ? { 'paypal-request-id': requestId } : {}), prefer: 'return=representation' },
      json: method === 'POST' ? (json ?? {}) : undefined,
    });
    const b = isRecord(res.body) ? res.body : {};
    if (res.status >= 400) throw new ProviderError('paypal', res.status, String(b.name ?? 'http_error'), String(b.message ?? `HTTP ${res.status}`), b);
    return b as unknown as PaypalOrder;
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
    captureOrder(id: string, requestId: string) {
      return call('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, {}, requestId);
    },
    getOrder(id: string) {
      return call('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`);
    },
  };
}

export type PaypalClient = ReturnType<typeof createPaypalClient>;
