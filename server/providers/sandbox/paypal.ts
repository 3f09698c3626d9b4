/**
 * PayPal emulator (/sandbox/paypal): OAuth, Orders v2 (create with PayPal-Request-Id idempotency,
 * read, capture) and the buyer's approval page /checkoutnow?token=… with approve / approve with a
 * card that gets declined (INSTRUMENT_DECLINED) / approve with a pending capture / cancel.
 * State is in the database (./store.ts).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PaypalOrder } from '../paypal';
import { acceptForms, escapeHtml, newId, page, str, type SandboxContext } from './common';

interface OrderRec extends PaypalOrder {
  returnUrl: string;
  cancelUrl: string;
  outcome: 'ok' | 'declined' | 'pending' | null;
}

function ppError(reply: FastifyReply, status: number, name: string, issue: string, description: string) {
  return reply.code(status).send({ name, message: description, debug_id: newId('', 6), details: [{ issue, description }] });
}

export async function paypalSandbox(app: FastifyInstance, opts: { ctx: SandboxContext }): Promise<void> {
  const { ctx } = opts;
  const cfg = () => ctx.config.paypal;
  const base = () => `${ctx.browserOrigin()}/sandbox/paypal`;
  const tokens = ctx.table<number>('paypal', 'token');
  const orders = ctx.table<OrderRec>('paypal', 'order');
  /** PayPal-Request-Id → order id. */
  const byRequestId = ctx.table<string>('paypal', 'request');
  acceptForms(app);

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

  app.get('/v2/checkout/orders/:id', async (req, reply) => {
    if (!(await authed(req, reply))) return reply;
    const o = await orders.get((req.params as { id: string }).id);
    if (!o) return ppError(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.');
    return reply.send(pub(o));
  });

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
      const unit = o.purchase_units![0]!;
      unit.payments = { captures: [{ id: newId('', 8).toUpperCase() + 'CAP', status: o.outcome === 'pending' ? 'PENDING' : 'COMPLETED', amount: unit.amount! }] };
      o.status = 'COMPLETED';
      return 'done';
    });
    if (!r) return ppError(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.');
    const o = r.value;
    if (r.result === 'replay') return reply.send(pub(o));
    if (r.result === 'captured') return ppError(reply, 422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED', 'Order already captured.');
    if (r.result === 'not-approved') return ppError(reply, 422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.');
    if (r.result === 'declined') {
      return ppError(reply, 422, 'UNPROCESSABLE_ENTITY', 'INSTRUMENT_DECLINED', 'The instrument presented was either declined by the processor or bank.');
    }
    if (rid) await byRequestId.set(rid, o.id);
    return reply.code(201).send(pub(o));
  });

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
      if (o.status === 'CREATED' && (outcome === 'ok' || outcome === 'declined' || outcome === 'pending')) {
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
