/** PayPal (method 2): order created from OUR total, captured on approval, paid only when COMPLETED. */
import { ApiError } from '../../errors';
import type { Handlers } from '../../openapi/router';
import { fromMajor } from '../../../domain/money';
import { PAYPAL } from '../../../domain/payment-methods';
import { ProviderError } from '../../providers/http';
import { firstCapture, paypalIssue, type PaypalOrder } from '../../providers/paypal';
import { applyOutcome, closeGoneAttempt, isGoneAtProvider } from '../apply';
import { PAYABLE_STATUSES, notPayable, ownOrder, payableOrder, providerFailed, withLock, type PaymentsDeps } from '../common';
import { findPaymentByRef, paymentsOfOrder } from '../repository';

export function paypalHandlers(deps: PaymentsDeps): Handlers {
  return {
    createPaypalOrder: async (req, reply, ctx) => {
      const { orderId } = req.body;
      return withLock(`order:${orderId}`, async () => {
        const o = await payableOrder(ctx.db, ctx, req, orderId, PAYPAL);
        const open = (await paymentsOfOrder(ctx.db, o.id)).reverse().find((p) => p.provider === 'paypal' && p.status === 'pending' && p.amount === o.total && p.currency === o.currency_code);
        reply.code(201);
        if (open) {
          // Answer the open PayPal order while PayPal still has it; one it no longer knows (404) is replaced (issue 15, finding 10).
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
          throw new ApiError(502, 'PAYMENT_FAILED', 'ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง');
        }
        await applyOutcome(ctx, {
          provider: 'paypal',
          ref: pp.id,
          eventId: null,
          eventKind: 'order.create',
          outcome: { kind: 'pending' },
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
            throw new ApiError(422, 'PAYMENT_FAILED', 'ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง', { paypal_status: 'NOT_CAPTURED', issue: issue ?? err.code });
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
          throw new ApiError(422, 'PAYMENT_FAILED', 'ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง', { paypal_status: 'COMPLETED', issue: paid?.attention ?? 'NOT_APPLIED' });
        }
        if (capture && (capture.status === 'DECLINED' || capture.status === 'FAILED')) {
          await applyOutcome(ctx, { provider: 'paypal', ref: paypalOrderId, eventId: capture.id, eventKind: 'capture', outcome: { kind: 'failed', code: capture.status, message: `capture ${capture.status}` } });
        }
        throw new ApiError(422, 'PAYMENT_FAILED', 'ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง', { paypal_status: capture?.status ?? pp.status, issue: capture?.status === 'PENDING' ? 'CAPTURE_PENDING' : null });
      });
    },
  };
}
