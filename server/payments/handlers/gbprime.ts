/**
 * GB Prime Pay card (method 11) and PromptPay QR (method 12), through `createGbPrimeProvider`.
 *
 * Card, on GB Prime Pay's token API + 3-D Secure (its Magento 2 plugin's calls), card data never
 * reaching our server: createGbPrimeCardPayment opens an attempt and answers `invoice_url`, the
 * shop's own card page (showGbPrimeCardPage, reachable with the attempt's random key); its script
 * (getGbPrimeCardScript) tokenises the card in the browser (GB Prime Pay's POST /v1/tokens, public
 * key) and posts only the token to submitGbPrimeCard, which charges OUR total (/v1/tokens/charge,
 * secret key, otp Y) and answers the auto-posting 3-D Secure form (/v1/tokens/3d_secured). GB Prime Pay posts the browser back to handleGbPrimeResponse and its
 * server to handleGbPrimeBackground; both re-read check_status_txn before anything is applied.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { components } from '../../../generated/api';
import { ApiError } from '../../errors';
import type { AppContext } from '../../context';
import type { Handlers } from '../../openapi/router';
import { GBPRIME_CARD, GBPRIME_PROMPTPAY } from '../../../domain/payment-methods';
import { localeOfAcceptLanguage, message, type MessageKey, type MessageLocale } from '../../../domain/messages';
import { formatMoney } from '../../../domain/money';
import { createGbPrimeProvider } from '../../providers/gbprime';
import { ProviderError, safeEqual } from '../../providers/http';
import type { ProviderStatus } from '../../providers/provider';
import { escapeHtml } from '../../html';
import { applyOutcome, recordPending, type Outcome } from '../apply';
import { afterPaymentPath, attemptRef, customerName, orderDescription, providerFailed, startPayment, type PaymentsDeps } from '../common';
import { findPaymentByRef, paymentsOfOrder, type PaymentRow } from '../repository';

/**
 * The card page's script (same origin: the page policy allows no inline script).
 * - On the 3-D Secure step (`#f`): submits the form to GB Prime Pay.
 * - On the card step (`#c`): on submit, sends the card from the browser to GB Prime Pay's
 *   POST /v1/tokens (`data-tokens`) with `Authorization: Basic base64(publicKey + ":")` and the body
 *   GB Prime Pay's plugin sends (`rememberCard: false`, `card.{number, expirationMonth,
 *   expirationYear, securityCode, name}`), then form-posts ONLY `token` (answer `card.token`) to
 *   our server — or `resultCode` when GB Prime Pay refused the card data. No answer at all
 *   (network, CORS): the page says so and nothing is posted.
 */
export const GBPRIME_CARD_SCRIPT = `(function () {
  var f = document.getElementById('f');
  if (f) { f.submit(); return; }
  var c = document.getElementById('c');
  if (!c) return;
  var pay = c.querySelector('button[type="submit"]');
  var err = document.getElementById('gbp-error');
  var busy = false;
  function val(id) { return String(document.getElementById(id).value || '').trim(); }
  function post(name, value) {
    var i = document.createElement('input');
    i.type = 'hidden';
    i.name = name;
    i.value = value;
    c.appendChild(i);
    c.submit();
  }
  c.addEventListener('submit', function (e) {
    e.preventDefault();
    if (busy) return;
    busy = true;
    pay.disabled = true;
    err.hidden = true;
    var card = {
      number: val('gbp-number').replace(/[\\s-]/g, ''),
      expirationMonth: val('gbp-month'),
      expirationYear: val('gbp-year'),
      securityCode: val('gbp-cvv'),
      name: val('gbp-name')
    };
    fetch(c.getAttribute('data-tokens'), {
      method: 'POST',
      mode: 'cors',
      credentials: 'omit',
      headers: { 'Authorization': 'Basic ' + btoa(c.getAttribute('data-key') + ':'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ rememberCard: false, card: card })
    }).then(function (r) {
      return r.json().then(function (b) { return b; }, function () { return null; });
    }).then(function (b) {
      if (b && b.resultCode === '00' && b.card && b.card.token) return post('token', String(b.card.token));
      if (b && typeof b.resultCode === 'string' && /^[0-9A-Za-z]{1,4}$/.test(b.resultCode)) return post('resultCode', b.resultCode);
      throw new Error('no answer');
    }).catch(function () {
      busy = false;
      pay.disabled = false;
      err.hidden = false;
    });
  });
  pay.disabled = false;
})();
`;

export const GBPRIME_QR_TTL_MINUTES = Number(process.env.GBPRIME_QR_TTL_MINUTES) > 0 ? Number(process.env.GBPRIME_QR_TTL_MINUTES) : 15;

function html(reply: FastifyReply, status: number, body: string): never {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body) as never;
}

function pageOf(locale: MessageLocale, title: string, body: string): string {
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}label{display:block;margin:.6rem 0}input{display:block;width:100%;padding:.5rem;box-sizing:border-box}button{margin-top:1rem;padding:.6rem 1.2rem}</style></head><body>${body}</body></html>`;
}

export function gbprimeHandlers(deps: PaymentsDeps): Handlers {
  const gbClient = () => deps.providers.gbprime();
  const gb = () => {
    const c = gbClient();
    return createGbPrimeProvider(c, c);
  };
  const localeOf = (req: FastifyRequest): MessageLocale => localeOfAcceptLanguage(req.headers['accept-language'] as string | undefined) ?? 'th';

  /** The open card attempt the page's key belongs to; null when it is gone, paid or not ours. */
  async function cardAttempt(ctx: AppContext, ref: string, key: string | undefined): Promise<PaymentRow | null> {
    const p = await findPaymentByRef(ctx.db, 'gbprime', ref);
    if (!p || p.method_id !== GBPRIME_CARD || typeof p.details.key !== 'string' || !key || !safeEqual(p.details.key, key)) return null;
    return p;
  }

  /** Re-reads the attempt from GB Prime Pay (check_status_txn) and applies it once. */
  async function reconcile(ctx: AppContext, ref: string, eventKind: string): Promise<{ status: ProviderStatus; payment: PaymentRow | null }> {
    const payment = await findPaymentByRef(ctx.db, 'gbprime', ref);
    if (!payment) return { status: { kind: 'pending' }, payment: null };
    const status = await gb().getPaymentStatus({ ref, amount: payment.amount, currency: 'THB' });
    if (status.kind !== 'pending') {
      const outcome: Outcome = status;
      const eventId = `${ref}:${status.kind === 'failed' ? status.code : status.kind}`;
      const r = await applyOutcome(ctx, { provider: 'gbprime', ref, eventId, eventKind, outcome, details: status.kind === 'paid' && status.txnId ? { gbpReferenceNo: status.txnId } : undefined });
      return { status, payment: r.payment ?? payment };
    }
    return { status, payment };
  }

  return {
    createGbPrimeCardPayment: async (req, _reply, ctx) => {
      const b = req.body;
      return startPayment(ctx, req, b.orderId, GBPRIME_CARD, async (o, now) => {
        const referenceNo = attemptRef('G', o.id, now);
        const success = b.success_url ?? (await afterPaymentPath(ctx.db, { status: 'approved', order_token: o.order_token }));
        const failure = b.failure_url ?? '/myaccount/student/order';
        const key = randomBytes(16).toString('hex');
        await recordPending(ctx, {
          provider: 'gbprime',
          ref: referenceNo,
          eventKind: 'card.create',
          ensure: { order_id: o.id, method_id: GBPRIME_CARD, amount: o.total, currency: 'THB', details: { kind: 'card', key, success, failure, email: b.email, name: b.name || customerName(o) } },
        });
        const invoiceUrl = `${deps.browserOrigin(req)}/api/gbprime/card/${encodeURIComponent(referenceNo)}?k=${key}`;
        return { success: true as const, data: { invoice_url: invoiceUrl } };
      });
    },

    showGbPrimeCardPage: async (req, reply, ctx) => {
      const locale = localeOf(req);
      const t = (k: MessageKey) => escapeHtml(message(k, locale));
      const p = await cardAttempt(ctx, req.params.referenceNo, req.query.k);
      if (!p || p.status !== 'pending') return html(reply, 404, pageOf(locale, message('GBP_CARD_TITLE', locale), `<h1>${t('GBP_CARD_TITLE')}</h1><p data-testid="gbp-gone">${t('GBP_CARD_GONE')}</p>`));
      // Our own sandbox: the form comes filled with a sandbox test card (never with a real provider).
      const demo = deps.providers.usesSandbox('gbprime');
      const v = (s: string) => (demo ? ` value="${escapeHtml(s)}"` : '');
      const action = `/api/gbprime/card/${encodeURIComponent(p.provider_ref)}?k=${encodeURIComponent(String(p.details.key))}`;
      // The card goes from the browser to GB Prime Pay's POST /v1/tokens (public key; card.js) and
      // only the token comes to us: the card inputs have no `name`, so the form never posts them,
      // and the button stays disabled until the script is there. The loopback sandbox is reached
      // on the page's own origin (connect-src 'self'); GB Prime Pay at GBPRIME_API_BASE's origin.
      const endpoint = gbClient().tokenEndpoint();
      const tokensUrl = demo ? `${deps.browserOrigin(req)}/sandbox/gbprime/v1/tokens` : endpoint.url;
      const field = (id: string, label: MessageKey, attrs: string) => `<label>${t(label)}<input id="gbp-${id}" data-testid="gbp-${id}"${attrs}></label>`;
      const body = `<h1>${t('GBP_CARD_TITLE')}</h1><p>${t('GBP_CARD_AMOUNT')} <strong data-testid="gbp-amount">${escapeHtml(formatMoney(p.amount, 'THB', locale === 'en' ? 'en-US' : 'th-TH'))}</strong></p>
<noscript><p>${t('GBP_CARD_NEEDS_SCRIPT')}</p></noscript>
<form id="c" method="post" action="${escapeHtml(action)}" autocomplete="off" data-tokens="${escapeHtml(tokensUrl)}" data-key="${escapeHtml(endpoint.publicKey)}">
${field('number', 'GBP_CARD_NUMBER', ` inputmode="numeric" autocomplete="off" required${v('4535017710535741')}`)}
${field('month', 'GBP_CARD_MONTH', ` inputmode="numeric" maxlength="2" autocomplete="off" required${v('12')}`)}
${field('year', 'GBP_CARD_YEAR', ` inputmode="numeric" maxlength="2" autocomplete="off" required${v('30')}`)}
${field('cvv', 'GBP_CARD_CVV', ` type="password" inputmode="numeric" maxlength="4" autocomplete="off" required${v('123')}`)}
${field('name', 'GBP_CARD_NAME', ` autocomplete="off" required value="${escapeHtml(String(p.details.name ?? ''))}"`)}
<p id="gbp-error" data-testid="gbp-error" role="alert" hidden>${t('GBP_CARD_UNREACHABLE')}</p>
<button type="submit" data-testid="gbp-pay" disabled>${t('GBP_CARD_PAY')}</button></form><script src="/api/gbprime/card.js"></script>`;
      return html(reply, 200, pageOf(locale, message('GBP_CARD_TITLE', locale), body));
    },

    submitGbPrimeCard: async (req, reply, ctx) => {
      const locale = localeOf(req);
      const ref = req.params.referenceNo;
      const p = await cardAttempt(ctx, ref, req.query.k);
      if (!p) return html(reply, 404, pageOf(locale, message('GBP_CARD_TITLE', locale), `<p data-testid="gbp-gone">${escapeHtml(message('GBP_CARD_GONE', locale))}</p>`));
      const failure = String(p.details.failure ?? '/myaccount/student/order');
      if (p.status === 'successful') return reply.code(303).header('location', String(p.details.success ?? failure)).send() as never;
      if (p.status !== 'pending' || p.details.charged) return reply.code(303).header('location', failure).send() as never;
      // Only a token (or GB Prime Pay's refusal of the card data) comes here; the contract refuses card fields.
      const b = req.body as components['schemas']['GbPrimeCardToken'];
      if (!('token' in b) || !b.token) {
        // GB Prime Pay refused the card data in the browser (/v1/tokens): the attempt failed with its result code.
        await applyOutcome(ctx, { provider: 'gbprime', ref, eventId: `${ref}:refused`, eventKind: 'card.refused', outcome: { kind: 'failed', code: b.resultCode ?? 'refused', message: `GB Prime Pay refused the card data (${b.resultCode ?? ''})` } });
        return reply.code(303).header('location', failure).send() as never;
      }
      const o = await ctx.orders.getOrderForPayment(ctx.db, p.order_id);
      let started;
      try {
        started = await gb().initiatePayment({
          ref,
          orderId: p.order_id,
          amount: p.amount,
          currency: 'THB',
          description: o ? orderDescription(o) : `Order ${p.order_id}`,
          returnUrl: `${deps.browserOrigin(req)}/api/gbprime/response`,
          notifyUrl: `${deps.callbackOrigin()}/api/gbprime/background`,
          customer: { name: String(p.details.name ?? ''), email: String(p.details.email ?? '') },
          input: { kind: 'card', cardToken: b.token },
        });
      } catch (err) {
        if (!(err instanceof ProviderError) || err.status === 0 || err.status >= 500) throw providerFailed(err, ctx, 'gbprime card');
        // A refused charge (an unknown or used token, a refused card): the attempt failed with GB Prime Pay's result code.
        await applyOutcome(ctx, { provider: 'gbprime', ref, eventId: `${ref}:refused`, eventKind: 'card.refused', outcome: { kind: 'failed', code: err.code, message: err.message } });
        return reply.code(303).header('location', failure).send() as never;
      }
      if (started.kind !== 'form') throw new ApiError(500, 'INTERNAL_ERROR', 'Unexpected GB Prime Pay answer');
      await applyOutcome(ctx, { provider: 'gbprime', ref, eventId: null, eventKind: 'card.charge', outcome: { kind: 'pending' }, details: { charged: true } });
      const inputs = Object.entries(started.fields)
        .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
        .join('');
      return html(
        reply,
        200,
        pageOf(locale, message('GBP_CARD_TITLE', locale), `<form id="f" method="post" action="${escapeHtml(started.action)}">${inputs}<button type="submit" data-testid="gbp-continue">${escapeHtml(message('GBP_CARD_PAY', locale))}</button></form><script src="/api/gbprime/card.js"></script>`),
      );
    },

    getGbPrimeCardScript: async (_req, reply) => {
      return reply.code(200).type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(GBPRIME_CARD_SCRIPT) as never;
    },

    handleGbPrimeResponse: async (req, reply, ctx) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const verified = await gb().verifyNotification({ headers: req.headers, rawBody: req.rawBody ?? '', body: b });
      const payment = verified ? await findPaymentByRef(ctx.db, 'gbprime', verified.ref) : null;
      if (!verified || !payment) return reply.code(303).header('location', '/myaccount/student/order').send() as never;
      let status: ProviderStatus = { kind: 'pending' };
      try {
        status = (await reconcile(ctx, verified.ref, 'response')).status;
      } catch (err) {
        // GB Prime Pay unreachable: the order list polls and the background notification settles it.
        ctx.log.warn({ err: err instanceof Error ? err.message : String(err), ref: verified.ref }, 'gbprime response: could not re-read the transaction');
      }
      const target = status.kind === 'paid' ? String(payment.details.success ?? '/myaccount/student/order') : String(payment.details.failure ?? '/myaccount/student/order');
      return reply.code(303).header('location', target).header('cache-control', 'no-store').send() as never;
    },

    createGbPrimePromptPay: async (req, _reply, ctx) => {
      const b = req.body;
      return startPayment(ctx, req, b.orderId, GBPRIME_PROMPTPAY, async (o, now) => {
        const open = (await paymentsOfOrder(ctx.db, o.id))
          .reverse()
          .find((p) => p.provider === 'gbprime' && p.method_id === GBPRIME_PROMPTPAY && p.status === 'pending' && p.amount === o.total && p.expires_at && p.expires_at > now && typeof p.details.qrImage === 'string');
        if (open?.expires_at) return { success: true as const, data: { qrImage: String(open.details.qrImage), referenceNo: open.provider_ref, expires_at: open.expires_at.toISOString() } };
        const referenceNo = attemptRef('P', o.id, now);
        const expiresAt = new Date(now.getTime() + GBPRIME_QR_TTL_MINUTES * 60_000);
        let qrImage: string;
        try {
          const started = await gb().initiatePayment({
            ref: referenceNo,
            orderId: o.id,
            amount: o.total,
            currency: 'THB',
            description: orderDescription(o),
            returnUrl: '',
            notifyUrl: `${deps.callbackOrigin()}/api/gbprime/background`,
            customer: { name: b.name || customerName(o), email: b.email },
            input: { kind: 'qr', expiresAt: expiresAt.toISOString() },
          });
          if (started.kind !== 'qr' || !started.imageUrl) throw new Error('no QR image');
          qrImage = started.imageUrl.replace(/^data:image\/png;base64,/u, '');
        } catch (err) {
          throw providerFailed(err, ctx, 'gbprime qrcode');
        }
        await recordPending(ctx, {
          provider: 'gbprime',
          ref: referenceNo,
          eventKind: 'qrcode.create',
          ensure: { order_id: o.id, method_id: GBPRIME_PROMPTPAY, amount: o.total, currency: 'THB', expires_at: expiresAt, details: { kind: 'qrcode', qrImage } },
        });
        return { success: true as const, data: { qrImage, referenceNo, expires_at: expiresAt.toISOString() } };
      });
    },

    handleGbPrimeBackground: async (req, _reply, ctx) => {
      const verified = await gb().verifyNotification({ headers: req.headers, rawBody: req.rawBody ?? '', body: req.body ?? {} });
      if (!verified) return { received: true as const };
      // Unsigned: re-read the transaction from GB Prime Pay before trusting it.
      try {
        await reconcile(ctx, verified.ref, 'background');
      } catch (err) {
        providerFailed(err, ctx, 'gbprime check_status_txn');
        throw new ApiError(500, 'INTERNAL_ERROR', 'Could not verify the payment with GB Prime Pay, retry later');
      }
      return { received: true as const };
    },
  };
}
