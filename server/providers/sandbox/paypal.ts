/**
 * PayPal emulator (/sandbox/paypal): OAuth (client credentials, as the server SDK asks), Orders v2
 * (create with PayPal-Request-Id idempotency, read, capture — with no body, as
 * @paypal/paypal-server-sdk sends it), Payments v2 (read a capture, refund a capture, read a
 * refund), webhooks (PAYMENT.CAPTURE.COMPLETED / DENIED / REFUNDED posted to our
 * /api/paypal/webhook) and their verification (POST /v1/notifications/verify-webhook-signature),
 * and the buyer's approval page /checkoutnow?token=… with approve / approve with a card that gets
 * declined (INSTRUMENT_DECLINED) / approve with a capture PayPal refuses (TRANSACTION_REFUSED, one
 * of the capture's 422 issues PayPal's sandbox forces with its PayPal-Mock-Response header) /
 * approve with a capture that stays PENDING / cancel.
 * A pending capture is completed or denied later with POST /control/captures/{id}/complete|deny,
 * which sends the webhook. State is in the database (./store.ts).
 *
 * Shapes: paypal/paypal-rest-api-specifications openapi/checkout_orders_v2.json,
 * openapi/payments_payment_v2.json, openapi/notifications_webhooks_v1.json (docs/providers/paypal.md).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PaypalCapture, PaypalOrder, PaypalRefund } from '../paypal';
import { acceptForms, escapeHtml, newId, page, str, type SandboxContext } from './common';
import { acceptEmptyJson } from '../../json-body';

interface OrderRec extends PaypalOrder {
  returnUrl: string;
  cancelUrl: string;
  outcome: 'ok' | 'declined' | 'refused' | 'pending' | null;
}

/** A capture with the order it belongs to (Payments v2 reads it on its own). */
interface CaptureRec extends PaypalCapture {
  orderId: string;
  refunds: PaypalRefund[];
}

/** What the sandbox sent as one webhook delivery: verify-webhook-signature checks against it. */
interface TransmissionRec {
  sig: string;
  eventId: string;
  webhookId: string;
}

/** The webhook id the sandbox's deliveries are registered under (PAYPAL_WEBHOOK_ID of the shop). */
export const PAYPAL_SANDBOX_WEBHOOK_ID = 'WH-SANDBOX-0000000000000001';

function ppError(reply: FastifyReply, status: number, name: string, issue: string, description: string) {
  return reply.code(status).send({ name, message: description, debug_id: newId('', 6), details: [{ issue, description }] });
}

/** PayPal's answer for an id it does not know (an order, a capture or a refund). */
function notFound(reply: FastifyReply) {
  return ppError(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.');
}

export async function paypalSandbox(app: FastifyInstance, opts: { ctx: SandboxContext }): Promise<void> {
  const { ctx } = opts;
  const cfg = () => ctx.config.paypal;
  const base = () => `${ctx.browserOrigin()}/sandbox/paypal`;
  const tokens = ctx.table<number>('paypal', 'token');
  const orders = ctx.table<OrderRec>('paypal', 'order');
  /** PayPal-Request-Id → order id. */
  const byRequestId = ctx.table<string>('paypal', 'request');
  const captures = ctx.table<CaptureRec>('paypal', 'capture');
  const transmissions = ctx.table<TransmissionRec>('paypal', 'transmission');
  const webhookUrl = () => process.env.PAYPAL_SANDBOX_WEBHOOK_URL || `${ctx.selfOrigin()}/api/paypal/webhook`;
  const webhookId = () => process.env.PAYPAL_WEBHOOK_ID || PAYPAL_SANDBOX_WEBHOOK_ID;
  acceptForms(app);
  // The server SDK captures with `Content-Type: application/json` and no body at all.
  acceptEmptyJson(app);
  app.setNotFoundHandler((req, reply) => ppError(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', `${req.method} ${req.url.split('?')[0]} does not exist.`));

  function pubCapture(c: CaptureRec): PaypalCapture {
    const { orderId: _o, refunds: _r, ...rest } = c;
    return {
      ...rest,
      links: [
        { rel: 'self', href: `${base()}/v2/payments/captures/${c.id}`, method: 'GET' },
        { rel: 'refund', href: `${base()}/v2/payments/captures/${c.id}/refund`, method: 'POST' },
        { rel: 'up', href: `${base()}/v2/checkout/orders/${c.orderId}`, method: 'GET' },
      ],
    };
  }

  /** Posts a webhook event as PayPal does: transmission headers; PayPal remembers what it sent. */
  async function sendWebhook(eventType: string, resourceType: 'capture' | 'refund', resource: unknown, summary: string) {
    const id = `WH-${newId('', 10).toUpperCase()}`;
    const event = { id, event_version: '1.0', create_time: ctx.now().toISOString(), resource_type: resourceType, resource_version: '2.0', event_type: eventType, summary, resource, links: [] };
    const body = JSON.stringify(event);
    const transmissionId = randomUUID();
    const time = ctx.now().toISOString();
    // The sandbox's "signature": a digest of what it sent (real PayPal signs with its certificate; the shop never checks it itself, it asks verify-webhook-signature).
    const sig = createHash('sha256').update(`${transmissionId}|${time}|${webhookId()}|${body}`).digest('base64');
    await transmissions.set(transmissionId, { sig, eventId: id, webhookId: webhookId() });
    return ctx.deliver({
      provider: 'paypal',
      url: webhookUrl(),
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-time': time,
        'paypal-transmission-sig': sig,
        'paypal-cert-url': `${base()}/v1/notifications/certs/CERT-SANDBOX`,
        'paypal-auth-algo': 'SHA256withRSA',
      },
      body,
    });
  }

  function pub(o: OrderRec): PaypalOrder {
    return {
      id: o.id,
      status: o.status,
      links: [
        { rel: 'self', href: `${base()}/v2/checkout/orders/${o.id}`, method: 'GET' },
        { rel: 'approve', href: `${base()}/checkoutnow?token=${o.id}`, method: 'GET' },
        { rel: 'capture', href: `${base()}/v2/checkout/orders/${o.id}/capture`, method: 'POST' },
      ],
      ...(o.payer ? { payer: o.payer } : {}),
      purchase_units: o.purchase_units ?? [],
    };
  }

  async function authed(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const h = req.headers.authorization ?? '';
    const until = h.startsWith('Bearer ') ? await tokens.get(h.slice(7)) : undefined;
    if (!until || until < ctx.now().getTime()) {
      void reply.code(401).send({ error: 'invalid_token', error_description: 'Token signature verification failed' });
      return false;
    }
    return true;
  }

  /** GET of one resource by its id (an order, a capture): with a valid token, as PayPal shows it, or not found. */
  function readById<T>(path: string, table: { get(id: string): Promise<T | undefined> }, show: (value: T) => unknown) {
    app.get(path, async (req, reply) => {
      if (!(await authed(req, reply))) return reply;
      const found = await table.get((req.params as { id: string }).id);
      if (!found) return notFound(reply);
      return reply.send(show(found));
    });
  }

  app.post('/v1/oauth2/token', async (req, reply) => {
    const h = req.headers.authorization ?? '';
    const [id, secret] = Buffer.from(h.replace(/^Basic /u, ''), 'base64').toString('utf8').split(':');
    if (id !== cfg().clientId || secret !== cfg().clientSecret) return reply.code(401).send({ error: 'invalid_client', error_description: 'Client Authentication failed' });
    if (str(((req.body ?? {}) as Record<string, unknown>).grant_type) !== 'client_credentials') return reply.code(400).send({ error: 'unsupported_grant_type' });
    const token = `A21AA${randomUUID().replace(/-/gu, '')}`;
    await tokens.set(token, ctx.now().getTime() + 32_400_000);
    return reply.send({ scope: 'https://uri.paypal.com/services/payments/payment', access_token: token, token_type: 'Bearer', app_id: 'APP-SANDBOX', expires_in: 32400, nonce: newId('', 8) });
  });

  app.post('/v2/checkout/orders', async (req, reply) => {
    if (!(await authed(req, reply))) return reply;
    const rid = str(req.headers['paypal-request-id']);
    const prior = rid ? await byRequestId.get(rid) : undefined;
    const priorOrder = prior ? await orders.get(prior) : undefined;
    if (priorOrder) return reply.code(200).send(pub(priorOrder));
    const b = (req.body ?? {}) as Record<string, unknown>;
    const pu = Array.isArray(b.purchase_units) ? (b.purchase_units as Record<string, unknown>[]) : [];
    const amount = (pu[0]?.amount ?? {}) as Record<string, unknown>;
    if (b.intent !== 'CAPTURE') return ppError(reply, 422, 'UNPROCESSABLE_ENTITY', 'INVALID_PARAMETER_VALUE', 'intent must be CAPTURE');
    if (!/^\d+(\.\d{2})?$/u.test(str(amount.value)) || Number(amount.value) <= 0 || !['THB', 'USD'].includes(str(amount.currency_code))) {
      return ppError(reply, 422, 'UNPROCESSABLE_ENTITY', 'INVALID_PARAMETER_VALUE', 'amount is invalid');
    }
    const exp = ((b.payment_source as Record<string, Record<string, Record<string, unknown>>> | undefined)?.paypal?.experience_context ?? {}) as Record<string, unknown>;
    const id = newId('', 8).toUpperCase() + 'SBX';
    const o: OrderRec = {
      id,
      status: 'CREATED',
      purchase_units: [{ reference_id: str(pu[0]?.reference_id), custom_id: str(pu[0]?.custom_id), amount: { currency_code: str(amount.currency_code), value: str(amount.value) } }],
      returnUrl: str(exp.return_url),
      cancelUrl: str(exp.cancel_url),
      outcome: null,
    };
    await orders.set(id, o);
    if (rid) await byRequestId.set(rid, id);
    return reply.code(201).send(pub(o));
  });

  readById('/v2/checkout/orders/:id', orders, pub);

  app.post('/v2/checkout/orders/:id/capture', async (req, reply) => {
    if (!(await authed(req, reply))) return reply;
    const rid = str(req.headers['paypal-request-id']);
    const ridOrder = rid ? await byRequestId.get(rid) : undefined;
    // Under the order's row lock: one capture per order, also across processes.
    const r = await orders.update((req.params as { id: string }).id, (o) => {
      if (o.status === 'COMPLETED') return ridOrder === o.id ? 'replay' : 'captured';
      if (o.status !== 'APPROVED') return 'not-approved';
      if (o.outcome === 'declined') {
        // The buyer must pick another funding source (the buttons restart).
        o.status = 'CREATED';
        o.outcome = null;
        return 'declined';
      }
      // Refused by PayPal (not the card): the order stays approved and uncaptured.
      if (o.outcome === 'refused') return 'refused';
      const unit = o.purchase_units![0]!;
      const at = ctx.now().toISOString();
      const cap: PaypalCapture = {
        id: newId('', 8).toUpperCase() + 'CAP',
        status: o.outcome === 'pending' ? 'PENDING' : 'COMPLETED',
        ...(o.outcome === 'pending' ? { status_details: { reason: 'PENDING_REVIEW' } } : {}),
        amount: unit.amount!,
        final_capture: true,
        custom_id: unit.custom_id,
        supplementary_data: { related_ids: { order_id: o.id } },
        create_time: at,
        update_time: at,
      };
      unit.payments = { captures: [cap] };
      o.status = 'COMPLETED';
      return 'done';
    });
    if (r?.result === 'done') {
      const cap = r.value.purchase_units![0]!.payments!.captures![0]!;
      await captures.set(cap.id, { ...cap, orderId: r.value.id, refunds: [] });
    }
    if (!r) return notFound(reply);
    const o = r.value;
    if (r.result === 'replay') return reply.send(pub(o));
    if (r.result === 'captured') return ppError(reply, 422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED', 'Order already captured.');
    if (r.result === 'not-approved') return ppError(reply, 422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.');
    if (r.result === 'declined') {
      return ppError(reply, 422, 'UNPROCESSABLE_ENTITY', 'INSTRUMENT_DECLINED', 'The instrument presented was either declined by the processor or bank.');
    }
    if (r.result === 'refused') return ppError(reply, 422, 'UNPROCESSABLE_ENTITY', 'TRANSACTION_REFUSED', 'The request was refused.');
    if (rid) await byRequestId.set(rid, o.id);
    return reply.code(201).send(pub(o));
  });

  // --- Payments v2: captures and refunds ---
  readById('/v2/payments/captures/:id', captures, pubCapture);

  // Refund a capture (payments_payment_v2.json captures.refund): no body = the whole capture; PayPal-Request-Id makes a retry answer the same refund.
  app.post('/v2/payments/captures/:id/refund', async (req, reply) => {
    if (!(await authed(req, reply))) return reply;
    const id = (req.params as { id: string }).id;
    const rid = str(req.headers['paypal-request-id']);
    const b = (req.body ?? {}) as Record<string, unknown>;
    const amt = (b.amount ?? null) as { value?: unknown; currency_code?: unknown } | null;
    const r = await captures.update(id, (c): { refund: PaypalRefund; fresh: boolean } | string => {
      if (rid) {
        const prior = c.refunds.find((x) => x.request_id === rid);
        if (prior) return { refund: prior, fresh: false };
      }
      if (c.status !== 'COMPLETED' && c.status !== 'PARTIALLY_REFUNDED') return c.status === 'REFUNDED' ? 'CAPTURE_FULLY_REFUNDED' : 'REFUND_NOT_ALLOWED';
      const refunded = c.refunds.reduce((n, x) => n + Math.round(Number(x.amount.value) * 100), 0);
      const total = Math.round(Number(c.amount.value) * 100);
      const want = amt ? Math.round(Number(amt.value) * 100) : total - refunded;
      if (amt && (str(amt.currency_code) !== c.amount.currency_code || !/^\d+(\.\d{1,2})?$/u.test(str(amt.value)))) return 'INVALID_PARAMETER_VALUE';
      if (!(want > 0) || want > total - refunded) return 'REFUND_AMOUNT_EXCEEDED';
      const at = ctx.now().toISOString();
      const refund: PaypalRefund = {
        id: newId('', 8).toUpperCase() + 'RFD',
        status: 'COMPLETED',
        amount: { currency_code: c.amount.currency_code, value: (want / 100).toFixed(2) },
        ...(typeof b.invoice_id === 'string' ? { invoice_id: b.invoice_id } : {}),
        ...(typeof b.note_to_payer === 'string' ? { note_to_payer: b.note_to_payer } : {}),
        create_time: at,
        update_time: at,
        ...(rid ? { request_id: rid } : {}),
      };
      c.refunds.push(refund);
      c.status = refunded + want === total ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
      c.update_time = at;
      return { refund, fresh: true };
    });
    if (!r) return notFound(reply);
    if (typeof r.result === 'string') return ppError(reply, 422, 'UNPROCESSABLE_ENTITY', r.result, 'The refund could not be made.');
    const { request_id: _rq, ...refund } = r.result.refund;
    const links = [
      { rel: 'self', href: `${base()}/v2/payments/refunds/${refund.id}`, method: 'GET' },
      { rel: 'up', href: `${base()}/v2/payments/captures/${id}`, method: 'GET' },
    ];
    if (r.result.fresh) void sendWebhook('PAYMENT.CAPTURE.REFUNDED', 'refund', { ...refund, links }, `A ${refund.amount.value} ${refund.amount.currency_code} capture payment was refunded`);
    return reply.code(201).send({ ...refund, links });
  });

  app.get('/v2/payments/refunds/:id', async (req, reply) => {
    if (!(await authed(req, reply))) return reply;
    const id = (req.params as { id: string }).id;
    for (const c of await captures.values()) {
      const refund = c.refunds.find((x) => x.id === id);
      if (refund) {
        const { request_id: _rq, ...out } = refund;
        return reply.send({ ...out, links: [{ rel: 'up', href: `${base()}/v2/payments/captures/${c.id}`, method: 'GET' }] });
      }
    }
    return notFound(reply);
  });

  // --- Webhook verification (notifications_webhooks_v1.json verify-webhook-signature) ---
  app.post('/v1/notifications/verify-webhook-signature', async (req, reply) => {
    if (!(await authed(req, reply))) return reply;
    const b = (req.body ?? {}) as Record<string, unknown>;
    const required = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id', 'webhook_event'];
    const missing = required.filter((k) => b[k] === undefined || b[k] === '');
    if (missing.length > 0) return ppError(reply, 400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', `missing ${missing.join(', ')}`);
    const sent = await transmissions.get(str(b.transmission_id));
    const event = (b.webhook_event ?? {}) as Record<string, unknown>;
    const ok = !!sent && sent.sig === str(b.transmission_sig) && sent.webhookId === str(b.webhook_id) && sent.eventId === str(event.id) && str(b.auth_algo) === 'SHA256withRSA';
    return reply.send({ verification_status: ok ? 'SUCCESS' : 'FAILURE' });
  });

  // --- Sandbox controls (not PayPal's API): settle a PENDING capture, which sends the webhook. ---
  app.post('/control/captures/:id/:action', async (req, reply) => {
    const { id, action } = req.params as { id: string; action: string };
    if (action !== 'complete' && action !== 'deny') return reply.code(400).send({ error: 'action is complete or deny' });
    const r = await captures.update(id, (c) => {
      if (c.status !== 'PENDING') return false;
      c.status = action === 'complete' ? 'COMPLETED' : 'DECLINED';
      delete c.status_details;
      c.update_time = ctx.now().toISOString();
      return true;
    });
    if (!r) return reply.code(404).send({ error: 'capture not found' });
    if (r.result) {
      const cap = r.value;
      await orders.update(cap.orderId, (o) => {
        const list = o.purchase_units?.[0]?.payments?.captures;
        const i = list?.findIndex((x) => x.id === cap.id) ?? -1;
        if (list && i >= 0) list[i] = { ...list[i]!, status: cap.status, update_time: cap.update_time };
      });
      const type = action === 'complete' ? 'PAYMENT.CAPTURE.COMPLETED' : 'PAYMENT.CAPTURE.DENIED';
      await sendWebhook(type, 'capture', pubCapture(cap), `Payment ${action === 'complete' ? 'completed' : 'denied'} for $ ${cap.amount.value} ${cap.amount.currency_code}`);
    }
    return reply.send({ changed: r.result, capture: pubCapture(r.value) });
  });

  app.get('/control/captures', async () => ({ captures: (await captures.values()).map(pubCapture) }));
  app.get('/control/deliveries', async () => ({ deliveries: ctx.deliveries.filter((d) => d.provider === 'paypal') }));

  // --- The buyer's approval page ---
  app.get('/checkoutnow', async (req, reply) => {
    const token = str((req.query as Record<string, unknown>).token);
    const o = token ? await orders.get(token) : undefined;
    if (!o) return reply.code(404).type('text/html').send(page('PayPal', '<h1>Order not found</h1>'));
    const a = o.purchase_units?.[0]?.amount;
    return reply.type('text/html').send(
      page(
        'PayPal',
        `<h1>PayPal sandbox buyer</h1><div class="box"><p>Pay ${escapeHtml(a?.value ?? '')} ${escapeHtml(a?.currency_code ?? '')} — order ${escapeHtml(o.id)} (${escapeHtml(o.status)})</p>
<form method="post" action="${escapeHtml(`${base()}/checkoutnow/${o.id}`)}">
<button name="outcome" value="ok" data-testid="pp-approve">Approve</button>
<button name="outcome" value="declined" data-testid="pp-approve-declined">Approve (card will be declined)</button>
<button name="outcome" value="refused" data-testid="pp-approve-refused">Approve (capture will be refused)</button>
<button name="outcome" value="pending" data-testid="pp-approve-pending">Approve (capture stays pending)</button>
<button name="outcome" value="cancel" data-testid="pp-cancel">Cancel</button></form></div>`,
      ),
    );
  });

  app.post('/checkoutnow/:id', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const found = await orders.get(id);
    if (!found) return reply.code(404).type('text/html').send(page('PayPal', '<h1>Order not found</h1>'));
    const outcome = str(((req.body ?? {}) as Record<string, unknown>).outcome);
    if (outcome === 'cancel') return found.cancelUrl ? reply.redirect(found.cancelUrl, 303) : reply.type('text/html').send(page('PayPal', '<h1>Cancelled</h1>'));
    const approved = await orders.update(id, (o) => {
      if (o.status === 'CREATED' && (outcome === 'ok' || outcome === 'declined' || outcome === 'refused' || outcome === 'pending')) {
        o.status = 'APPROVED';
        o.outcome = outcome;
        o.payer = { payer_id: 'SBXPAYER' + newId('', 3).toUpperCase(), email_address: 'buyer@sandbox.paypal.local' };
      }
    });
    const o = approved?.value ?? found;
    if (!o.returnUrl) return reply.type('text/html').send(page('PayPal', `<h1>${escapeHtml(o.status)}</h1>`));
    const u = new URL(o.returnUrl);
    u.searchParams.set('token', o.id);
    u.searchParams.set('PayerID', o.payer?.payer_id ?? '');
    return reply.redirect(u.toString(), 303);
  });
}
