/**
 * 2C2P: the signed card form (method 3, 3DS API envelope `paymentRequest`), the payment link for
 * installments (method 10, PGW 4.3) and the backend notification (the card form's `paymentResponse`
 * envelope, or the PGW `{ payload }` JWT). Everything goes through the PaymentProvider interface
 * (server/providers/twoc2p.ts); the result applied is always 2C2P's own answer to an inquiry.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError, requestLocale } from '../../errors';
import type { OrderForPayment } from '../../orders/service';
import type { Handlers } from '../../openapi/router';
import { TWOC2P_CARD, TWOC2P_INSTALLMENT } from '../../../domain/payment-methods';
import type { ProviderStatus } from '../../providers/provider';
import { twoC2pProviderOn, type TwoC2pProvider } from '../../providers/twoc2p';
import { applyOutcome, recordPending } from '../apply';
import type { AppContext } from '../../context';
import { afterPaymentPath, attemptRef, customerName, orderDescription, payableOrder, providerFailed, startPayment, withLock, type PaymentsDeps } from '../common';
import { findPaymentByRef, type PaymentRow } from '../repository';

export function twoc2pHandlers(deps: PaymentsDeps): Handlers {
  const provider = (): TwoC2pProvider => twoC2pProviderOn(deps.providers.twoc2p());
  /** What every 2C2P start sends: our reference, the order's amount in THB, and where 2C2P returns the buyer and reports to. */
  const attempt = (req: FastifyRequest, o: OrderForPayment, ref: string) => ({
    ref,
    orderId: o.id,
    amount: o.total,
    currency: 'THB' as const,
    description: orderDescription(o),
    returnUrl: `${deps.browserOrigin(req)}/api/payment/2c2p/frontend-return`,
    notifyUrl: `${deps.callbackOrigin()}/api/payment/2c2p/backend-return`,
  });

  return {
    create2c2pCardRequest: async (req, _reply, ctx) => {
      const b = req.body;
      return startPayment(ctx, req, b.orderId, TWOC2P_CARD, async (o, now) => {
        const code = attemptRef('C', o.id, now);
        await recordPending(ctx, {
          provider: '2c2p',
          ref: code,
          eventKind: 'cardform.create',
          ensure: { order_id: o.id, method_id: TWOC2P_CARD, amount: o.total, currency: 'THB', details: { masked: b.maskedCardInfo, kind: 'card-form' } },
        });
        const started = await provider().initiatePayment({
          ...attempt(req, o, code),
          customer: { name: customerName(o) },
          input: { kind: 'card-form', encryptedCardInfo: b.encryptedCardInfo },
        });
        if (started.kind !== 'form' || typeof started.fields.paymentRequest !== 'string') throw new ApiError(500, 'INTERNAL_ERROR', 'The 2C2P card form could not be built');
        return { success: true as const, action: started.action, method: 'POST' as const, fields: { paymentRequest: started.fields.paymentRequest } };
      });
    },

    create2c2pPaymentLink: async (req, _reply, ctx) => {
      const { orderId } = req.body;
      return withLock(`order:${orderId}`, async () => {
        // The link serves the installment method (10); an order whose method is the card (3) gets a card-only page.
        const own = await ctx.orders.getOrderForPayment(ctx.db, orderId);
        const methodId = own?.payment_method_id === TWOC2P_CARD ? TWOC2P_CARD : TWOC2P_INSTALLMENT;
        const o = await payableOrder(ctx.db, ctx, req, orderId, methodId);
        const now = ctx.clock.now();
        const invoiceNo = attemptRef('I', o.id, now);
        let started;
        try {
          started = await provider().initiatePayment({
            ...attempt(req, o, invoiceNo),
            input: {
              kind: 'payment-link',
              locale: requestLocale(req) === 'en' ? 'en' : 'th',
              ...(methodId === TWOC2P_INSTALLMENT ? { installment: { interestType: 'A' as const, periods: [3, 6, 10] } } : {}),
            },
          });
        } catch (err) {
          throw providerFailed(err, ctx, '2c2p paymentToken');
        }
        if (started.kind !== 'redirect') throw new ApiError(500, 'INTERNAL_ERROR', 'The 2C2P payment link could not be made');
        await recordPending(ctx, {
          provider: '2c2p',
          ref: invoiceNo,
          eventKind: 'paymentToken',
          ensure: { order_id: o.id, method_id: methodId, amount: o.total, currency: 'THB', details: { kind: 'payment-link', paymentToken: started.providerRef ?? null } },
        });
        return { success: true as const, result: { webPaymentUrl: started.url } };
      });
    },

    handle2c2pBackendReturn: async (req, _reply, ctx) => {
      const p = provider();
      // A form post (card form: paymentResponse) or JSON { payload } (PGW 4.3); the router validated
      // it against the schema of the media type it came as.
      const rawBody = typeof req.body === 'string' ? req.body : JSON.stringify(req.body ?? {});
      const verified = await p.verifyNotification({ headers: req.headers, rawBody, body: req.body });
      if (!verified) throw new ApiError(401, 'UNAUTHORIZED', 'Invalid 2C2P signature');
      const payment = await findPaymentByRef(ctx.db, '2c2p', verified.ref);
      if (!payment) return { received: true as const };
      try {
        await settle(ctx, p, payment, req.body as Record<string, unknown>);
      } catch (err) {
        providerFailed(err, ctx, '2c2p inquiry');
        throw new ApiError(500, 'INTERNAL_ERROR', 'Could not verify the payment with 2C2P, retry later');
      }
      return { received: true as const };
    },

    handle2c2pFrontendReturn: async (req, reply, ctx) => {
      const p = provider();
      const body = (req.body ?? {}) as Record<string, unknown>;
      const raw = typeof body.paymentResponse === 'string' ? body.paymentResponse : '';
      // Only which attempt to look at is taken from the post (the card form's signed envelope, or the
      // link's unsigned base64URL JSON); the result is 2C2P's answer to our own inquiry.
      const card = raw ? p.client.decodeCardResponse(raw) : null;
      let ref = card?.uniqueTransactionCode ?? null;
      if (!ref && raw) {
        try {
          const j = JSON.parse(Buffer.from(raw.trim(), 'base64url').toString('utf8')) as Record<string, unknown>;
          if (typeof j.invoiceNo === 'string') ref = j.invoiceNo;
        } catch {
          ref = null;
        }
      }
      const payment = ref ? await findPaymentByRef(ctx.db, '2c2p', ref) : null;
      let target = '/myaccount/student/order';
      if (payment) {
        try {
          await settle(ctx, p, payment, body);
        } catch (err) {
          // 2C2P unreachable: the order page polls; nothing changes here.
          ctx.log.warn({ err: err instanceof Error ? err.message : String(err), ref }, '2c2p return: could not re-read the payment');
        }
        const o = await ctx.orders.getOrderForPayment(ctx.db, payment.order_id);
        if (o) target = await afterPaymentPath(ctx.db, o);
      }
      return reply.code(303).header('location', target).header('cache-control', 'no-store').send() as never;
    },
  };
}

/**
 * Re-reads one attempt from 2C2P (Payment Action inquiry for the card form, paymentInquiry for the
 * link) and applies the answer once. `posted` is a verified notification's body: a bank refusal
 * (card form status PF) keeps the bank's code from it (4051...).
 */
async function settle(ctx: AppContext, p: TwoC2pProvider, payment: PaymentRow, posted: Record<string, unknown>): Promise<void> {
  const cardForm = payment.details?.kind === 'card-form';
  let status: ProviderStatus = await p.getPaymentStatus({ ref: payment.provider_ref, amount: payment.amount, currency: payment.currency, details: payment.details });
  if (cardForm && status.kind === 'failed' && status.code === 'PF' && typeof posted.paymentResponse === 'string') {
    const f = p.client.decodeCardResponse(posted.paymentResponse);
    if (f?.status === 'PF' && f.respCode) status = { kind: 'failed', code: f.respCode, message: f.failReason || status.message };
  }
  if (status.kind === 'pending') return;
  const tag = status.kind === 'failed' ? `${status.kind}:${status.code}` : status.kind;
  await applyOutcome(ctx, {
    provider: '2c2p',
    ref: payment.provider_ref,
    eventId: `${cardForm ? 'card' : 'v4'}:${payment.provider_ref}:${tag}`,
    eventKind: cardForm ? 'cardform.result' : 'backendReturn',
    outcome: status,
  });
}
