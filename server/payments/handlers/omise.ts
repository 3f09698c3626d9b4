/** Omise card (method 8) and PromptPay (method 9): start, 3-D Secure return, webhook. */
import type { AppContext } from '../../context';
import { ApiError } from '../../errors';
import type { Handlers } from '../../openapi/router';
import { OMISE_CARD, OMISE_PROMPTPAY } from '../../../domain/payment-methods';
import { ProviderError, isRecord } from '../../providers/http';
import { isOmiseChargePaid, verifyOmiseSignature, type OmiseCharge } from '../../providers/omise';
import { applyOutcome, closeGoneAttempt, isGoneAtProvider, type Outcome } from '../apply';
import { afterPaymentPath, ownOrder, payableOrder, providerFailed, startPayment, withLock, type PaymentsDeps } from '../common';
import { paymentsOfOrder, type PaymentRow } from '../repository';
import { MSG } from '../../../domain/messages';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

function outcomeOf(c: OmiseCharge): Outcome {
  if (isOmiseChargePaid(c)) return { kind: 'paid', paidAmount: c.amount, currency: c.currency.toUpperCase() === 'USD' ? 'USD' : 'THB', txnId: c.id };
  if (c.status === 'pending') return { kind: 'pending' };
  if (c.status === 'expired') return { kind: 'expired' };
  return { kind: 'failed', code: c.failure_code ?? c.status, message: c.failure_message ?? c.status };
}

function brandOf(b: string | undefined | null): string | null {
  if (!b) return null;
  const s = b.toLowerCase();
  return s === 'master card' ? 'mastercard' : s;
}

function chargeAnswer(c: OmiseCharge, p: PaymentRow | null) {
  return {
    success: true as const,
    status: c.status,
    chargesDetails: { last_digits: c.card?.last_digits ?? '0000', bank: c.card?.bank ?? null, brand: brandOf(c.card?.brand) },
    charges: { id: c.id, authorize_uri: c.status === 'pending' ? c.authorize_uri : null, failure_code: c.failure_code, failure_message: c.failure_message },
    orderPaymentId: p?.order_payment_id ?? null,
  };
}

function omiseRefused(err: unknown, ctx: AppContext): ApiError {
  if (err instanceof ProviderError && err.status >= 400 && err.status < 500) {
    ctx.log.info({ code: err.code }, 'omise refused the request');
    return new ApiError(422, 'PAYMENT_FAILED', MSG.PAYMENT_FAILED, { provider_code: err.code });
  }
  return providerFailed(err, ctx, 'omise');
}

/** Re-reads a charge and applies it (no event id: our own read). */
async function reconcile(ctx: AppContext, deps: PaymentsDeps, p: PaymentRow) {
  const c = await deps.providers.omise().retrieveCharge(p.provider_ref);
  const r = await applyOutcome(ctx, { provider: 'omise', ref: c.id, eventId: null, eventKind: 'charge.read', outcome: outcomeOf(c) });
  return { charge: c, result: r };
}

export function omiseHandlers(deps: PaymentsDeps): Handlers {
  return {
    getOmiseCardPublicKey: async () => ({ success: true, publicKey: deps.config.omise.publicKey }),
    getOmisePromptPayKey: async () => ({ success: true, key: deps.config.omise.publicKey }),

    chargeOmiseCard: async (req, _reply, ctx) => {
      const body = req.body;
      const token = body.omise_token;
      if (!token) throw new ApiError(400, 'VALIDATION_ERROR', 'omise_token is required', [{ field: 'omise_token', msg: 'is required' }]);
      return withLock(`order:${body.orderId}`, async () => {
        const own = await ownOrder(ctx.db, ctx, req, body.orderId);
        // A second call answers the open or successful charge: never a second charge.
        const prior = (await paymentsOfOrder(ctx.db, own.id)).reverse().find((p) => p.provider === 'omise' && p.method_id === OMISE_CARD && (p.status === 'pending' || p.status === 'successful'));
        if (prior) {
          try {
            const { charge, result } = await reconcile(ctx, deps, prior);
            return chargeAnswer(charge, result.payment);
          } catch (err) {
            // A pending charge Omise no longer has (404) is over: a new charge replaces it.
            if (!(prior.status === 'pending' && isGoneAtProvider(err))) throw omiseRefused(err, ctx);
            await closeGoneAttempt(ctx, prior);
          }
        }
        const o = await payableOrder(ctx.db, ctx, req, body.orderId, OMISE_CARD);
        let charge: OmiseCharge;
        try {
          charge = await deps.providers.omise().createCardCharge({
            amount: o.total,
            currency: o.currency_code === 'USD' ? 'usd' : 'thb',
            token,
            returnUri: `${deps.browserOrigin(req)}/api/omise/return/${o.id}`,
            orderId: o.id,
          });
        } catch (err) {
          throw omiseRefused(err, ctx);
        }
        if (charge.amount !== o.total || charge.currency.toUpperCase() !== o.currency_code) {
          ctx.log.error({ orderId: o.id, chargeId: charge.id }, 'omise charged another amount than the order total');
        }
        const r = await applyOutcome(ctx, {
          provider: 'omise',
          ref: charge.id,
          eventId: null,
          eventKind: 'charge.create',
          outcome: outcomeOf(charge),
          ensure: { order_id: o.id, method_id: OMISE_CARD, amount: o.total, currency: o.currency_code, authorize_uri: charge.authorize_uri, details: { last_digits: charge.card?.last_digits, brand: charge.card?.brand } },
        });
        return chargeAnswer(charge, r.payment);
      });
    },

    createOmisePromptPay: async (req, _reply, ctx) => {
      const body = req.body;
      return startPayment(ctx, req, body.orderId, OMISE_PROMPTPAY, async (o, now) => {
        const open = (await paymentsOfOrder(ctx.db, o.id))
          .reverse()
          .find((p) => p.provider === 'omise' && p.method_id === OMISE_PROMPTPAY && p.status === 'pending' && p.amount === o.total && (!p.expires_at || p.expires_at > now));
        try {
          const omise = deps.providers.omise();
          if (open) {
            const read = await reconcile(ctx, deps, open).catch(async (err: unknown) => {
              // A QR charge Omise no longer has (404) is over: a new one replaces it.
              if (!isGoneAtProvider(err)) throw err;
              await closeGoneAttempt(ctx, open);
              return null;
            });
            const uri = read?.charge.source?.scannable_code?.image.download_uri;
            if (read && read.charge.status === 'pending' && uri) return { success: true as const, QrcodeUrl: { image: { download_uri: uri } }, charge_id: read.charge.id, expires_at: read.charge.expires_at ?? open.expires_at!.toISOString() };
          }
          const source = await omise.createPromptPaySource({ amount: o.total });
          const charge = await omise.createSourceCharge({ amount: o.total, sourceId: source.id, returnUri: `${deps.browserOrigin(req)}/api/omise/return/${o.id}`, orderId: o.id });
          const uri = charge.source?.scannable_code?.image.download_uri ?? source.scannable_code?.image.download_uri;
          if (!uri) throw new ProviderError('omise', 200, 'no_qr', 'the source carries no QR image');
          const expiresAt = charge.expires_at ? new Date(charge.expires_at) : new Date(now.getTime() + 24 * 3600_000);
          await applyOutcome(ctx, {
            provider: 'omise',
            ref: charge.id,
            eventId: null,
            eventKind: 'charge.create',
            outcome: outcomeOf(charge),
            ensure: { order_id: o.id, method_id: OMISE_PROMPTPAY, amount: o.total, currency: 'THB', expires_at: expiresAt, details: { source_id: source.id, qr: uri } },
          });
          return { success: true as const, QrcodeUrl: { image: { download_uri: uri } }, charge_id: charge.id, expires_at: expiresAt.toISOString() };
        } catch (err) {
          if (err instanceof ApiError) throw err;
          throw omiseRefused(err, ctx);
        }
      });
    },

    handleOmiseReturn: async (req, reply, ctx) => {
      const orderId = req.params.orderId;
      const o = await ctx.orders.getOrderForPayment(ctx.db, orderId);
      if (!o) throw new ApiError(404, 'NOT_FOUND', MSG.ORDER_NOT_FOUND);
      const latest = (await paymentsOfOrder(ctx.db, orderId)).filter((p) => p.provider === 'omise').pop();
      let order: { status: string; order_token: string } = o;
      if (latest) {
        try {
          const { result } = await reconcile(ctx, deps, latest);
          if (result.order) order = result.order;
        } catch (err) {
          // Omise unreachable: the order page polls; nothing changes here.
          ctx.log.warn({ err: err instanceof Error ? err.message : String(err), orderId }, 'omise return: could not re-read the charge');
        }
      }
      const target = await afterPaymentPath(ctx.db, order);
      return reply.code(303).header('location', target).header('cache-control', 'no-store').send() as never;
    },

    handleOmiseWebhook: async (req, _reply, ctx) => {
      const raw = req.rawBody ?? JSON.stringify(req.body);
      const check = verifyOmiseSignature({
        secretBase64: deps.config.omise.webhookSecret,
        rawBody: raw,
        signature: req.headers['omise-signature'] as string | undefined,
        timestamp: req.headers['omise-signature-timestamp'] as string | undefined,
        nowMs: ctx.clock.now().getTime(),
      });
      if (!check.ok) throw new ApiError(401, 'UNAUTHORIZED', `Invalid webhook signature (${check.reason})`);
      const ev = req.body;
      const data: Record<string, unknown> = isRecord(ev.data) ? (ev.data as Record<string, unknown>) : {};
      if (data.object !== 'charge' || typeof data.id !== 'string' || !ev.key.startsWith('charge.')) return { received: true as const };
      let charge: OmiseCharge;
      try {
        charge = await deps.providers.omise().retrieveCharge(data.id);
      } catch (err) {
        if (err instanceof ProviderError && err.status === 404) return { received: true as const };
        ctx.log.warn({ eventId: ev.id }, 'omise webhook: could not re-read the charge; Omise will retry');
        throw new ApiError(500, 'INTERNAL_ERROR', 'Could not verify the charge, retry later');
      }
      const meta = isRecord(charge.metadata) ? charge.metadata : {};
      const orderId = Number(meta.order_id);
      const order = Number.isSafeInteger(orderId) && orderId > 0 ? await ctx.orders.getOrderForPayment(ctx.db, orderId) : null;
      const methodId = charge.source?.type === 'promptpay' ? OMISE_PROMPTPAY : OMISE_CARD;
      await applyOutcome(ctx, {
        provider: 'omise',
        ref: charge.id,
        eventId: ev.id,
        eventKind: ev.key,
        outcome: outcomeOf(charge),
        ensure: order ? { order_id: order.id, method_id: methodId, amount: order.total, currency: order.currency_code } : undefined,
      });
      return { received: true as const };
    },
  };
}

