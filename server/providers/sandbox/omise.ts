/**
 * Omise emulator (/sandbox/omise): the vault (tokens, Omise.js-compatible), charges, sources
 * (PromptPay with a real EMVCo QR), events, refunds, expire, the 3-D Secure authorize page
 * (pass / fail) and signed webhooks (Omise-Signature) to our /api/omise/webhook. State is in the
 * database (./store.ts).
 *
 * Kept honest by Omise's own library (omise-node, npm `omise`; tests/server/payments/omise-official.test.ts):
 * every request it sends is JSON (also an empty body, `charges.expire`), sources are created with the
 * PUBLIC key (lib/resources/Source.js), and any answer whose `object` is not `error` counts as
 * success (lib/api.js) — so every refusal and every unknown route answers Omise's error envelope
 * `{ object: 'error', location, code, message }` (https://docs.omise.co/api-errors). Field list of
 * charges and refunds: https://docs.omise.co/charges-api, https://docs.omise.co/refunds-api and
 * omise-node's types/index.d.ts (docs/providers/omise.md).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toDecimalString } from '../../../domain/money';
import { buildPromptPayPayload } from '../../../domain/promptpay';
import { omiseSignature, type OmiseCharge, type OmiseCard, type OmiseEvent, type OmiseSource } from '../omise';
import { cardBrand, luhnValid, omiseOutcome, validExpiry, type CardOutcome } from './cards';
import { acceptForms, escapeHtml, newId, page, qrPng, str, tokenPreflight, type SandboxContext } from './common';
import { acceptEmptyJson } from '../../json-body';

/** PromptPay proxy the sandbox merchant is paid to (a tax id). */
export const OMISE_SANDBOX_PROMPTPAY_ID = '0105556000001';

interface TokenRec {
  card: OmiseCard;
  outcome: CardOutcome;
  used: boolean;
}

export interface OmiseRefundRec {
  object: 'refund';
  id: string;
  livemode: false;
  location: string;
  amount: number;
  currency: string;
  charge: string;
  transaction: string;
  voided: boolean;
  status: 'closed';
  funding_amount: number;
  funding_currency: string;
  metadata: Record<string, unknown>;
  created_at: string;
}

interface ChargeRec extends OmiseCharge {
  /** The outcome decided when the token was made (never the card number). */
  _outcome: CardOutcome | null;
  description?: string | null;
  paid_at?: string | null;
  expired_at?: string | null;
  refunded_amount?: number;
  _refunds?: OmiseRefundRec[];
}

/** Omise's list object (https://docs.omise.co/api-pagination). */
function omiseList<T>(location: string, data: T[], now: Date) {
  return { object: 'list', location, data, limit: 20, offset: 0, total: data.length, order: 'chronological', from: '1970-01-01T00:00:00Z', to: now.toISOString() };
}

function basicUser(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(h.slice(6), 'base64').toString('utf8');
  return decoded.split(':')[0] ?? null;
}

function omiseError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.code(status).send({ object: 'error', location: 'https://www.omise.co/api-errors', code, message });
}

/** Reads `card[number]` style form keys or a JSON `{ card: {...} }` body. */
function readCard(body: unknown): Record<string, string> {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.card === 'object' && b.card !== null) {
    return Object.fromEntries(Object.entries(b.card as Record<string, unknown>).map(([k, v]) => [k, str(v)]));
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(b)) {
    const m = /^card\[(\w+)\]$/u.exec(k);
    if (m?.[1]) out[m[1]] = str(v);
  }
  return out;
}

const OMISE_JS = `/* Omise.js-compatible client for the loopback sandbox (same calls as https://cdn.omise.co/omise.js). */
(function(){var pk=null;var vault=(document.currentScript&&document.currentScript.src||'').replace(/\\/omise\\.js.*$/,'/vault');
window.Omise={setPublicKey:function(k){pk=k},createToken:function(type,card,cb){if(type!=='card'){cb(400,{object:'error',code:'invalid_type',message:'only card'});return}
fetch(vault+'/tokens',{method:'POST',headers:{'content-type':'application/json',authorization:'Basic '+btoa(pk+':')},body:JSON.stringify({card:card})})
.then(function(r){return r.json().then(function(j){cb(r.status,j)})}).catch(function(e){cb(0,{object:'error',code:'network_error',message:String(e)})})}};})();`;

export async function omiseSandbox(app: FastifyInstance, opts: { ctx: SandboxContext }): Promise<void> {
  const { ctx } = opts;
  const cfg = () => ctx.config.omise;
  const tokens = ctx.table<TokenRec>('omise', 'token');
  const sources = ctx.table<OmiseSource & { used: boolean }>('omise', 'source');
  const charges = ctx.table<ChargeRec>('omise', 'charge');
  const events = ctx.table<OmiseEvent>('omise', 'event');
  const webhookUrl = () => process.env.OMISE_SANDBOX_WEBHOOK_URL || `${ctx.selfOrigin()}/api/omise/webhook`;
  const base = () => `${ctx.browserOrigin()}/sandbox/omise`;
  acceptForms(app);
  // omise-node posts JSON, also with no body at all (charges.expire, charges.reverse).
  acceptEmptyJson(app);
  // Every route this emulator lacks answers as Omise does: 404 with its error envelope (omise-node
  // rejects only on `object: 'error'`; any other 404 body would read as success).
  app.setNotFoundHandler((req, reply) => omiseError(reply, 404, 'not_found', `${req.method} ${req.url.split('?')[0]} was not found`));

  function publicCharge(c: ChargeRec) {
    const { _outcome: _ignored, _refunds, ...rest } = c;
    const refunds = _refunds ?? [];
    const refunded = c.refunded_amount ?? 0;
    const paid = c.status === 'successful';
    return {
      ...rest,
      livemode: false,
      location: `/charges/${c.id}`,
      description: c.description ?? null,
      capture: true,
      capturable: false,
      authorized_amount: c.authorized ? c.amount : 0,
      captured_amount: paid ? c.amount : 0,
      funding_amount: c.amount,
      funding_currency: c.currency,
      net: paid ? c.amount : 0,
      fee: 0,
      fee_vat: 0,
      interest: 0,
      interest_vat: 0,
      transaction: paid ? `trxn_test_${c.id.slice(10)}` : null,
      paid_at: c.paid_at ?? null,
      expired: c.status === 'expired',
      expired_at: c.expired_at ?? null,
      reversed: false,
      reversed_at: null,
      reversible: false,
      voided: false,
      refunded_amount: refunded,
      refundable: paid && refunded < c.amount,
      partially_refundable: paid && refunded < c.amount,
      refunds: omiseList(`/charges/${c.id}/refunds`, refunds, ctx.now()),
      disputable: paid,
      dispute: null,
      customer: null,
      ip: null,
      zero_interest_installments: false,
      can_perform_void: false,
      failure_code: c.failure_code,
      failure_message: c.failure_message,
    };
  }

  /** A pending charge past its expiry becomes expired (true when it did). */
  function settleExpiry(c: ChargeRec): boolean {
    if (c.status === 'pending' && c.expires_at && Date.parse(c.expires_at) <= ctx.now().getTime()) {
      c.status = 'expired';
      c.expired_at = ctx.now().toISOString();
      c.failure_code = 'expired_charge';
      c.failure_message = 'charge expired';
      return true;
    }
    return false;
  }

  /**
   * Settles expiry, then applies `fn` (a completion) to the stored charge under its row lock; sends
   * charge.complete once when either changed it. Undefined when there is no such charge.
   */
  async function changeCharge(id: string, fn: (c: ChargeRec) => boolean = () => false): Promise<{ charge: ChargeRec; changed: boolean } | undefined> {
    const r = await charges.update(id, (c) => {
      const expired = settleExpiry(c);
      return { expired, changed: fn(c) };
    });
    if (!r) return undefined;
    if (r.result.expired || r.result.changed) void emit('charge.complete', r.value);
    return { charge: r.value, changed: r.result.changed };
  }

  async function emit(key: string, c: ChargeRec | OmiseRefundRec): Promise<void> {
    const id = newId('evnt_test_');
    const data = c.object === 'charge' ? publicCharge(c as ChargeRec) : c;
    const ev = { object: 'event', id, livemode: false, location: `/events/${id}`, key, data, created_at: ctx.now().toISOString() } as OmiseEvent;
    await events.set(ev.id, ev);
    await sendEvent(ev);
  }

  async function sendEvent(ev: OmiseEvent) {
    const body = JSON.stringify(ev);
    const ts = String(Math.floor(ctx.now().getTime() / 1000));
    return ctx.deliver({
      provider: 'omise',
      url: webhookUrl(),
      method: 'POST',
      headers: { 'content-type': 'application/json', 'omise-signature': omiseSignature(cfg().webhookSecret, ts, body), 'omise-signature-timestamp': ts },
      body,
    });
  }

  function requireSecret(req: FastifyRequest, reply: FastifyReply): boolean {
    if (basicUser(req) !== cfg().secretKey) {
      void omiseError(reply, 401, 'authentication_failure', 'authentication failed');
      return false;
    }
    return true;
  }

  /** The secret key, or (sources only, as Omise allows and omise-node does) the public key. */
  function requireKey(req: FastifyRequest, reply: FastifyReply, publicToo: boolean): boolean {
    const user = basicUser(req);
    if (user === cfg().secretKey || (publicToo && user === cfg().publicKey)) return true;
    void omiseError(reply, 401, 'authentication_failure', 'authentication failed');
    return false;
  }

  function complete(c: ChargeRec, paid: boolean, failure?: { code: string; message: string }) {
    if (c.status !== 'pending') return false;
    if (paid) {
      c.status = 'successful';
      c.paid = true;
      c.authorized = true;
      c.paid_at = ctx.now().toISOString();
    } else {
      if (failure?.code === 'expired_charge') c.expired_at = ctx.now().toISOString();
      c.status = failure?.code === 'expired_charge' ? 'expired' : 'failed';
      c.failure_code = failure?.code ?? 'failed_processing';
      c.failure_message = failure?.message ?? 'payment could not be processed';
    }
    return true;
  }

  // --- Omise.js and the vault (public key) ---
  app.get('/omise.js', async (_req, reply) => reply.type('application/javascript').send(OMISE_JS));

  tokenPreflight(app, '/vault/tokens');

  app.post('/vault/tokens', { logLevel: 'silent' }, async (req, reply) => {
    reply.header('access-control-allow-origin', '*');
    if (basicUser(req) !== cfg().publicKey) return omiseError(reply, 401, 'authentication_failure', 'authentication failed');
    const card = readCard(req.body);
    const number = (card.number ?? '').replace(/[\s-]/gu, '');
    const month = Number(card.expiration_month);
    const year = Number(card.expiration_year);
    if (!luhnValid(number)) return omiseError(reply, 400, 'invalid_card', 'number is invalid');
    if (!validExpiry(month, year, ctx.now())) return omiseError(reply, 400, 'invalid_card', 'expiration date is invalid');
    if (!/^\d{3,4}$/u.test(card.security_code ?? '')) return omiseError(reply, 400, 'invalid_card', 'security code is invalid');
    if (!card.name) return omiseError(reply, 400, 'invalid_card', 'name is required');
    const rec: TokenRec = {
      card: {
        object: 'card',
        id: newId('card_test_'),
        brand: cardBrand(number),
        last_digits: number.slice(-4),
        bank: 'Sandbox Bank',
        name: card.name,
        expiration_month: month,
        expiration_year: year < 100 ? 2000 + year : year,
      },
      outcome: omiseOutcome(number, cfg().threeDS),
      used: false,
    };
    const id = newId('tokn_test_');
    await tokens.set(id, rec);
    return reply.send(publicToken(id, rec));
  });

  function publicToken(id: string, rec: TokenRec) {
    const card = { ...rec.card, livemode: false, country: 'th', city: null, postal_code: null, financing: 'credit', fingerprint: `fp_${rec.card.id.slice(10)}`, security_code_check: true, created_at: ctx.now().toISOString() };
    return { object: 'token', id, livemode: false, location: `https://vault.omise.co/tokens/${id}`, used: rec.used, card, created_at: ctx.now().toISOString() };
  }

  // omise-node tokens.retrieve (public key, vault).
  app.get('/vault/tokens/:id', async (req, reply) => {
    reply.header('access-control-allow-origin', '*');
    if (basicUser(req) !== cfg().publicKey) return omiseError(reply, 401, 'authentication_failure', 'authentication failed');
    const id = (req.params as { id: string }).id;
    const rec = await tokens.get(id);
    if (!rec) return omiseError(reply, 404, 'not_found', 'token was not found');
    return reply.send(publicToken(id, rec));
  });

  // --- API (secret key; sources also with the public key) ---
  app.post('/sources', async (req, reply) => {
    if (!requireKey(req, reply, true)) return reply;
    const b = (req.body ?? {}) as Record<string, unknown>;
    const amount = Number(b.amount);
    if (b.type !== 'promptpay') return omiseError(reply, 400, 'invalid_source', 'type is not supported by this sandbox');
    if (String(b.currency).toLowerCase() !== 'thb') return omiseError(reply, 400, 'invalid_source', 'currency must be thb');
    if (!Number.isSafeInteger(amount) || amount < 2000) return omiseError(reply, 400, 'invalid_source', 'amount must be at least 2000');
    const id = newId('src_test_');
    const src = {
      object: 'source' as const,
      id,
      livemode: false,
      location: `/sources/${id}`,
      type: 'promptpay',
      flow: 'offline',
      amount,
      currency: 'thb',
      charge_status: 'unknown',
      created_at: ctx.now().toISOString(),
      scannable_code: { object: 'barcode' as const, type: 'qr', image: { object: 'document' as const, download_uri: `${base()}/qr/${id}.png`, filename: 'qrcode.png' } },
      used: false,
    };
    await sources.set(id, src);
    const { used: _u, ...out } = src;
    return reply.send(out);
  });

  app.post('/charges', async (req, reply) => {
    if (!requireSecret(req, reply)) return reply;
    const b = (req.body ?? {}) as Record<string, unknown>;
    const amount = Number(b.amount);
    const currency = String(b.currency ?? '').toLowerCase();
    if (!Number.isSafeInteger(amount) || amount < 2000) return omiseError(reply, 400, 'invalid_charge', 'amount must be at least 2000');
    if (currency !== 'thb' && currency !== 'usd') return omiseError(reply, 400, 'invalid_charge', 'currency is not supported');
    const returnUri = typeof b.return_uri === 'string' ? b.return_uri : null;
    const id = newId('chrg_test_');
    const now = ctx.now();
    const charge: ChargeRec = {
      object: 'charge',
      id,
      amount,
      currency,
      status: 'pending',
      paid: false,
      authorized: false,
      authorize_uri: null,
      return_uri: returnUri,
      failure_code: null,
      failure_message: null,
      card: null,
      source: null,
      metadata: (b.metadata as Record<string, unknown>) ?? {},
      expires_at: null,
      created_at: now.toISOString(),
      description: typeof b.description === 'string' ? b.description : null,
      paid_at: null,
      expired_at: null,
      refunded_amount: 0,
      _refunds: [],
      _outcome: null,
    };
    if (typeof b.card === 'string') {
      // Taken under the token's row lock: one charge per token, also across processes.
      const took = await tokens.update(b.card, (t) => (t.used ? false : (t.used = true)));
      if (!took) return omiseError(reply, 404, 'not_found', 'token was not found');
      if (!took.result) return omiseError(reply, 400, 'used_token', 'token was already used');
      const tok = took.value;
      charge.card = tok.card;
      charge._outcome = tok.outcome;
      if (tok.outcome.kind === 'fail') {
        charge.status = 'failed';
        charge.failure_code = tok.outcome.code;
        charge.failure_message = tok.outcome.message;
      } else if (tok.outcome.kind === 'threeDS' && returnUri) {
        charge.authorize_uri = `${base()}/payments/${id}/authorize`;
      } else {
        charge.status = 'successful';
        charge.paid = true;
        charge.authorized = true;
        charge.paid_at = now.toISOString();
      }
    } else if (typeof b.source === 'string') {
      const took = await sources.update(b.source, (s) => {
        if (s.used) return 'used';
        if (s.amount !== amount) return 'amount';
        s.used = true;
        return 'ok';
      });
      if (!took) return omiseError(reply, 404, 'not_found', 'source was not found');
      if (took.result === 'used') return omiseError(reply, 400, 'invalid_charge', 'source was already used');
      if (took.result === 'amount') return omiseError(reply, 400, 'invalid_charge', 'amount does not match the source amount');
      const src = took.value;
      const { used: _u, ...pub } = src;
      charge.source = pub;
      charge.expires_at = new Date(now.getTime() + cfg().promptpayTtlMinutes * 60_000).toISOString();
    } else {
      return omiseError(reply, 400, 'invalid_charge', 'card or source is required');
    }
    await charges.set(id, charge);
    void emit('charge.create', charge);
    return reply.send(publicCharge(charge));
  });

  app.get('/charges/:id', async (req, reply) => {
    if (!requireSecret(req, reply)) return reply;
    const r = await changeCharge((req.params as { id: string }).id);
    if (!r) return omiseError(reply, 404, 'not_found', 'charge was not found');
    return reply.send(publicCharge(r.charge));
  });

  app.get('/charges', async (req, reply) => {
    if (!requireSecret(req, reply)) return reply;
    return reply.send(omiseList('/charges', (await charges.values()).map(publicCharge), ctx.now()));
  });

  app.get('/sources/:id', async (req, reply) => {
    if (!requireKey(req, reply, true)) return reply;
    const src = await sources.get((req.params as { id: string }).id);
    if (!src) return omiseError(reply, 404, 'not_found', 'source was not found');
    const { used: _u, ...out } = src;
    return reply.send(out);
  });

  // Expire a pending charge (https://docs.omise.co/charges-api, "Expire charge"; omise-node charges.expire sends no body).
  app.post('/charges/:id/expire', async (req, reply) => {
    if (!requireSecret(req, reply)) return reply;
    const r = await changeCharge((req.params as { id: string }).id, (c) => complete(c, false, { code: 'expired_charge', message: 'charge expired' }));
    if (!r) return omiseError(reply, 404, 'not_found', 'charge was not found');
    // Already expired: answered as it is; a charge that is paid or failed cannot be expired.
    if (r.charge.status !== 'expired') return omiseError(reply, 400, 'failed_expire', `charge is ${r.charge.status}: only a pending charge can be expired`);
    return reply.send(publicCharge(r.charge));
  });

  // Refunds (https://docs.omise.co/refunds-api): amount in the charge's smallest unit, at most what is left.
  app.post('/charges/:id/refunds', async (req, reply) => {
    if (!requireSecret(req, reply)) return reply;
    const id = (req.params as { id: string }).id;
    const b = (req.body ?? {}) as Record<string, unknown>;
    const amount = Number(b.amount);
    const metadata = typeof b.metadata === 'object' && b.metadata !== null ? (b.metadata as Record<string, unknown>) : {};
    const r = await charges.update(id, (c): OmiseRefundRec | string => {
      if (c.status !== 'successful') return `charge is ${c.status}: only a successful charge can be refunded`;
      const left = c.amount - (c.refunded_amount ?? 0);
      if (!Number.isSafeInteger(amount) || amount <= 0) return 'amount must be a positive integer';
      if (amount > left) return `amount must not exceed the refundable ${left}`;
      if ((c._refunds ?? []).length >= 15) return 'refund limit reached';
      const rid = newId('rfnd_test_');
      const refund: OmiseRefundRec = {
        object: 'refund', id: rid, livemode: false, location: `/charges/${c.id}/refunds/${rid}`, amount, currency: c.currency, charge: c.id,
        transaction: newId('trxn_test_'), voided: false, status: 'closed', funding_amount: amount, funding_currency: c.currency, metadata, created_at: ctx.now().toISOString(),
      };
      c._refunds = [...(c._refunds ?? []), refund];
      c.refunded_amount = (c.refunded_amount ?? 0) + amount;
      return refund;
    });
    if (!r) return omiseError(reply, 404, 'not_found', 'charge was not found');
    if (typeof r.result === 'string') return omiseError(reply, 400, 'failed_refund', r.result);
    void emit('refund.create', r.result);
    return reply.send(r.result);
  });

  app.get('/charges/:id/refunds', async (req, reply) => {
    if (!requireSecret(req, reply)) return reply;
    const c = await charges.get((req.params as { id: string }).id);
    if (!c) return omiseError(reply, 404, 'not_found', 'charge was not found');
    return reply.send(omiseList(`/charges/${c.id}/refunds`, c._refunds ?? [], ctx.now()));
  });

  app.get('/charges/:id/refunds/:rid', async (req, reply) => {
    if (!requireSecret(req, reply)) return reply;
    const { id, rid } = req.params as { id: string; rid: string };
    const refund = (await charges.get(id))?._refunds?.find((x) => x.id === rid);
    if (!refund) return omiseError(reply, 404, 'not_found', 'refund was not found');
    return reply.send(refund);
  });

  app.get('/events', async (req, reply) => {
    if (!requireSecret(req, reply)) return reply;
    return reply.send(omiseList('/events', await events.values(), ctx.now()));
  });

  app.get('/events/:id', async (req, reply) => {
    if (!requireSecret(req, reply)) return reply;
    const ev = await events.get((req.params as { id: string }).id);
    if (!ev) return omiseError(reply, 404, 'not_found', 'event was not found');
    return reply.send(ev);
  });

  // Omise test-mode helpers for offline charges (secret key).
  app.post('/charges/:id/mark_as_paid', async (req, reply) => {
    if (!requireSecret(req, reply)) return reply;
    const r = await changeCharge((req.params as { id: string }).id, (c) => complete(c, true));
    if (!r) return omiseError(reply, 404, 'not_found', 'charge was not found');
    if (!r.changed) return omiseError(reply, 400, 'failed_capture', `charge is ${r.charge.status}`);
    return reply.send(publicCharge(r.charge));
  });
  app.post('/charges/:id/mark_as_failed', async (req, reply) => {
    if (!requireSecret(req, reply)) return reply;
    const r = await changeCharge((req.params as { id: string }).id, (c) => complete(c, false, { code: 'payment_rejected', message: 'payment was rejected' }));
    if (!r) return omiseError(reply, 404, 'not_found', 'charge was not found');
    if (!r.changed) return omiseError(reply, 400, 'failed_capture', `charge is ${r.charge.status}`);
    return reply.send(publicCharge(r.charge));
  });

  // --- Browser pages ---
  app.get('/payments/:id/authorize', async (req, reply) => {
    const c = await charges.get((req.params as { id: string }).id);
    if (!c || !c.authorize_uri) return reply.code(404).type('text/html').send(page('Not found', '<h1>Unknown payment</h1>'));
    const action = `${base()}/payments/${c.id}/authorize`;
    const done = c.status !== 'pending' ? `<p>This payment is already <b>${escapeHtml(c.status)}</b>.</p>` : '';
    return reply.type('text/html').send(
      page(
        '3-D Secure',
        `<h1>3-D Secure verification</h1><div class="box"><p>Amount: ${toDecimalString(c.amount)} ${escapeHtml(c.currency.toUpperCase())}<br>Card: •••• ${escapeHtml(c.card?.last_digits ?? '')}</p>${done}
<form method="post" action="${escapeHtml(action)}"><label>One-time password (any 6 digits)<input name="otp" value="123456" inputmode="numeric"></label>
<button name="result" value="pass" data-testid="3ds-pass">Pass</button><button name="result" value="fail" data-testid="3ds-fail">Fail</button></form></div>`,
      ),
    );
  });

  app.post('/payments/:id/authorize', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const found = await charges.get(id);
    if (!found || !found.authorize_uri) return reply.code(404).type('text/html').send(page('Not found', '<h1>Unknown payment</h1>'));
    const result = str((req.body as Record<string, unknown> | undefined)?.result);
    const c = (await changeCharge(id, (ch) => complete(ch, result === 'pass', { code: 'failed_3ds', message: '3-D Secure authentication failed' })))?.charge ?? found;
    return reply.redirect(c.return_uri ?? `${base()}/payments/${c.id}/authorize`, 303);
  });

  app.get('/qr/:file', async (req, reply) => {
    const id = (req.params as { file: string }).file.replace(/\.png$/u, '');
    const src = await sources.get(id);
    if (!src) return reply.code(404).send({ object: 'error', code: 'not_found', message: 'source was not found' });
    const payload = buildPromptPayPayload({ kind: 'taxId', id: OMISE_SANDBOX_PROMPTPAY_ID }, { amount: src.amount });
    return reply.type('image/png').header('cache-control', 'no-store').send(await qrPng(payload));
  });

  // --- Sandbox controls (not part of Omise's API): pay / fail / expire a pending charge, redeliver. ---
  app.post('/control/charges/:id/:action', async (req, reply) => {
    const { id, action } = req.params as { id: string; action: string };
    const outcomes: Record<string, (c: ChargeRec) => boolean> = {
      paid: (c) => complete(c, true),
      failed: (c) => complete(c, false, { code: 'payment_rejected', message: 'payment was rejected' }),
      expired: (c) => complete(c, false, { code: 'expired_charge', message: 'charge expired' }),
    };
    const fn = Object.hasOwn(outcomes, action) ? outcomes[action] : undefined;
    if (!(await charges.has(id))) return reply.code(404).send({ error: 'charge not found' });
    if (!fn) return reply.code(400).send({ error: 'action is paid, failed or expired' });
    const r = await changeCharge(id, fn);
    if (!r) return reply.code(404).send({ error: 'charge not found' });
    return reply.send({ changed: r.changed, charge: publicCharge(r.charge) });
  });

  app.get('/control/charges/:id', async (req, reply) => {
    const r = await changeCharge((req.params as { id: string }).id);
    if (!r) return reply.code(404).send({ error: 'charge not found' });
    return reply.send(publicCharge(r.charge));
  });

  app.get('/control/events', async () => ({ events: await events.values() }));

  app.post('/control/events/:id/redeliver', async (req, reply) => {
    const ev = await events.get((req.params as { id: string }).id);
    if (!ev) return reply.code(404).send({ error: 'event not found' });
    const d = await sendEvent(ev);
    return reply.send({ status: d.status });
  });

  app.get('/control/deliveries', async () => ({ deliveries: ctx.deliveries.filter((d) => d.provider === 'omise') }));
}
