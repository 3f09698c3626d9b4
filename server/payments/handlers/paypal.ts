/**
 * PayPal (method 2): order created from OUR total, captured on approval, paid only when COMPLETED.
 * A capture PayPal leaves PENDING is pending, not failed: the answer says so (200, status
 * PENDING), the order stays awaiting payment, and PayPal's verified webhook (handlePaypalWebhook)
 * or the scheduled re-read (server/payments/reread.ts) settles it.
 */
import { ApiError } from '../../errors';
import type { Handlers } from '../../openapi/router';
import { fromMajor } from '../../../domain/money';
import { PAYPAL } from '../../../domain/payment-methods';
import { ProviderError } from '../../providers/http';
import { firstCapture, paypalIssue, type PaypalOrder } from '../../providers/paypal';
import { applyOutcome, closeGoneAttempt, isGoneAtProvider, recordPending } from '../apply';
import { notPayable, ownOrder, PAYABLE_STATUSES, providerFailed, startPayment, withLock, type PaymentsDeps } from '../common';
import { findPaymentByRef, paymentsOfOrder, updateRefund } from '../repository';
import { isRecord } from '../../providers/http';
import { MSG } from '../../../domain/messages';

export function paypalHandlers(deps: PaymentsDeps): Handlers {
  return {
    createPaypalOrder: async (req, reply, ctx) => {
      const { orderId } = req.body;
      return startPayment(ctx, req, orderId, PAYPAL, async (o) => {
        const open = (await paymentsOfOrder(ctx.db, o.id)).reverse().find((p) => p.provider === 'paypal' && p.status === 'pending' && p.amount === o.total && p.currency === o.currency_code);
        reply.code(201);
        if (open) {
          // Answer the open PayPal order while PayPal still has it; one it no longer knows (404) is replaced.
          const gone = await deps.providers.paypal().getOrder(open.provider_ref).then(
            () => false,
            (err: unknown) => (isGoneAtProvider(err) ? true : Promise.reject(providerFailed(err, ctx, 'paypal get order'))),
          );
          if (!gone) return { success: true as const, paypal_order_id: open.provider_ref };
          await closeGoneAttempt(ctx, open);
        }
        const n = (await paymentsOfOrder(ctx.db, o.id)).filter((p) => p.provider === 'paypal').length;
        const back = `${deps.browserOrigin(req)}/myaccount/student/order`;
        let pp: PaypalOrder;
        try {
          pp = await deps.providers.paypal().createOrder({ amount: o.total, currency: o.currency_code, orderId: o.id, returnUrl: back, cancelUrl: back, requestId: `order-${o.id}-${n + 1}` });
        } catch (err) {
          throw providerFailed(err, ctx, 'paypal create order');
        }
        const unit = pp.purchase_units?.[0]?.amount;
        if (unit && (fromMajor(Number(unit.value)) !== o.total || unit.currency_code !== o.currency_code)) {
          ctx.log.error({ orderId: o.id, paypalOrderId: pp.id }, 'PayPal order amount differs from the order total');
          throw new ApiError(502, 'PAYMENT_FAILED', MSG.PAYMENT_FAILED);
        }
        await recordPending(ctx, {
          provider: 'paypal',
          ref: pp.id,
          eventKind: 'order.create',
          ensure: { order_id: o.id, method_id: PAYPAL, amount: o.total, currency: o.currency_code },
        });
        return { success: true as const, paypal_order_id: pp.id };
      });
    },

    capturePaypalOrder: async (req, _reply, ctx) => {
      const paypalOrderId = req.params.paypalOrderId;
      const { orderId } = req.body;
      return withLock(`order:${orderId}`, async () => {
        const o = await ownOrder(ctx.db, ctx, req, orderId);
        const payment = await findPaymentByRef(ctx.db, 'paypal', paypalOrderId);
        if (!payment || payment.order_id !== o.id) throw new ApiError(404, 'NOT_FOUND', 'This PayPal order was not created for this order');
        if (payment.status === 'successful' && !payment.attention) return { success: true as const, status: 'COMPLETED' as const, order_token: o.order_token };
        if (!PAYABLE_STATUSES.has(o.status)) throw notPayable(`Order ${o.id} is ${o.status}`);
        const paypal = deps.providers.paypal();
        let pp: PaypalOrder;
        try {
          pp = await paypal.captureOrder(paypalOrderId, `capture-${paypalOrderId}`);
        } catch (err) {
          const issue = paypalIssue(err);
          if (issue === 'ORDER_ALREADY_CAPTURED') {
            pp = await paypal.getOrder(paypalOrderId).catch((e: unknown) => {
              throw providerFailed(e, ctx, 'paypal get order');
            });
          } else if (err instanceof ProviderError && err.status === 422) {
            throw new ApiError(422, 'PAYMENT_FAILED', MSG.PAYMENT_FAILED, { paypal_status: 'NOT_CAPTURED', issue: issue ?? err.code });
          } else {
            throw providerFailed(err, ctx, 'paypal capture');
          }
        }
        const capture = firstCapture(pp);
        if (pp.status === 'COMPLETED' && capture?.status === 'COMPLETED') {
          const r = await applyOutcome(ctx, {
            provider: 'paypal',
            ref: paypalOrderId,
            eventId: capture.id,
            eventKind: 'capture',
            outcome: { kind: 'paid', paidAmount: fromMajor(Number(capture.amount.value)), currency: capture.amount.currency_code === 'USD' ? 'USD' : 'THB', txnId: capture.id },
            details: { payer_id: pp.payer?.payer_id ?? null, capture_id: capture.id },
          });
          const paid = r.payment ?? (await findPaymentByRef(ctx.db, 'paypal', paypalOrderId));
          if (paid?.status === 'successful' && !paid.attention) return { success: true as const, status: 'COMPLETED' as const, order_token: o.order_token };
          throw new ApiError(422, 'PAYMENT_FAILED', MSG.PAYMENT_FAILED, { paypal_status: 'COMPLETED', issue: paid?.attention ?? 'NOT_APPLIED' });
        }
        if (capture?.status === 'PENDING') {
          // PayPal holds the money (review, eCheck...): nothing is paid yet, nothing is deleted.
          await recordPending(ctx, {
            provider: 'paypal',
            ref: paypalOrderId,
            eventKind: 'capture.pending',
            details: { payer_id: pp.payer?.payer_id ?? null, capture_id: capture.id, capture_status: 'PENDING', pending_reason: capture.status_details?.reason ?? null },
          });
          return { success: true as const, status: 'PENDING' as const, order_token: o.order_token };
        }
        if (capture && (capture.status === 'DECLINED' || capture.status === 'FAILED')) {
          await applyOutcome(ctx, { provider: 'paypal', ref: paypalOrderId, eventId: capture.id, eventKind: 'capture', outcome: { kind: 'failed', code: capture.status, message: `capture ${capture.status}` } });
        }
        throw new ApiError(422, 'PAYMENT_FAILED', MSG.PAYMENT_FAILED, { paypal_status: capture?.status ?? pp.status, issue: null });
      });
    },
  };
}

/** PayPal's webhook: verified by PayPal (verify-webhook-signature), then the order re-read and applied once. */
export function paypalWebhookHandlers(deps: PaymentsDeps): Handlers {
  return {
    handlePaypalWebhook: async (req, _reply, ctx) => {
      const provider = deps.providers.get('paypal');
      const body = req.body as unknown;
      let v;
      try {
        v = await provider.verifyNotification({ headers: req.headers, rawBody: req.rawBody ?? JSON.stringify(body), body });
      } catch (err) {
        ctx.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'paypal webhook: could not ask PayPal to verify; PayPal will retry');
        throw new ApiError(500, 'INTERNAL_ERROR', 'Could not verify the notification, retry later');
      }
      if (!v) throw new ApiError(401, 'UNAUTHORIZED', 'PayPal did not verify this notification');
      const ev = req.body;
      const resource: Record<string, unknown> = isRecord(ev.resource) ? (ev.resource as Record<string, unknown>) : {};
      if (ev.event_type === 'PAYMENT.CAPTURE.REFUNDED') {
        // A refund we asked for: mark it done (a refund made at PayPal's dashboard is only logged).
        const refundId = typeof resource.id === 'string' ? resource.id : '';
        const r = await ctx.db.query<{ id: number; status: string }>(`SELECT id, status FROM refunds WHERE provider = 'paypal' AND provider_refund_id = $1`, [refundId]);
        const row = r.rows[0];
        if (row && row.status !== 'refunded') await updateRefund(ctx.db, row.id, { status: 'refunded' }, ctx.clock.now());
        if (!row) ctx.log.info({ refundId }, 'paypal webhook: a refund the shop did not ask for');
        return { received: true as const };
      }
      if (!ev.event_type.startsWith('PAYMENT.CAPTURE.') || !v.ref) return { received: true as const };
      const payment = await findPaymentByRef(ctx.db, 'paypal', v.ref);
      if (!payment) return { received: true as const };
      let status;
      try {
        // The event only says "look again": PayPal's order is the word (GET /v2/checkout/orders/{id}).
        status = await provider.getPaymentStatus({ ref: payment.provider_ref, providerRef: payment.provider_ref, amount: payment.amount, currency: payment.currency });
      } catch (err) {
        providerFailed(err, ctx, 'paypal webhook re-read');
        throw new ApiError(500, 'INTERNAL_ERROR', 'Could not read the PayPal order, retry later');
      }
      const captureId = typeof resource.id === 'string' ? resource.id : null;
      await applyOutcome(ctx, {
        provider: 'paypal',
        ref: payment.provider_ref,
        // A delivery that still reads pending is not spent: a later one (or the re-read) settles it.
        eventId: status.kind === 'pending' ? null : v.eventId,
        eventKind: ev.event_type,
        outcome: status,
        details: { capture_id: captureId, capture_status: typeof resource.status === 'string' ? resource.status : null },
      });
      return { received: true as const };
    },
  };
}
