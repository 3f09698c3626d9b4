/**
 * PaySolutions (method 13): the hosted form for the order's total, one numeric refno per attempt;
 * the unsigned postback is re-checked with the Inquiry API (through `createPaySolutionsProvider`).
 */
import { ApiError, requestLocale } from '../../errors';
import type { Handlers } from '../../openapi/router';
import { PAYSOLUTIONS } from '../../../domain/payment-methods';
import { createPaySolutionsProvider } from '../../providers/paysolutions';
import type { ProviderStatus } from '../../providers/provider';
import { applyOutcome, recordPending, type Outcome } from '../apply';
import { afterPaymentPath, orderDescription, providerFailed, startPayment, type PaymentsDeps } from '../common';
import { findPaymentByRef, paymentsOfOrder } from '../repository';

/** Statuses a postback may claim for a payment that did not succeed (the inquiry answers nothing for them). */
const CANCELLED = new Set(['CC', 'CD', 'C']);

/**
 * The refno of the order's next attempt: numeric, at most 12 digits, unique per attempt (the form
 * refuses a refno used before): the order id followed by a 2-digit attempt number.
 */
export function nextRefno(orderId: number, attemptsSoFar: number): string {
  return `${orderId}${String(attemptsSoFar % 100).padStart(2, '0')}`;
}

export function paysolutionsHandlers(deps: PaymentsDeps): Handlers {
  const provider = () => createPaySolutionsProvider(deps.providers.paysolutions());
  return {
    createPaySolutionsPayment: async (req, _reply, ctx) => {
      const orderId = req.body.order_id;
      return startPayment(ctx, req, orderId, PAYSOLUTIONS, async (o) => {
        const earlier = (await paymentsOfOrder(ctx.db, o.id)).filter((p) => p.provider === 'paysolutions').length;
        const refno = nextRefno(o.id, earlier);
        await recordPending(ctx, {
          provider: 'paysolutions',
          ref: refno,
          eventKind: 'form.create',
          ensure: { order_id: o.id, method_id: PAYSOLUTIONS, amount: o.total, currency: 'THB' },
        });
        const started = await provider().initiatePayment({
          ref: refno,
          orderId: o.id,
          amount: o.total,
          currency: 'THB',
          description: orderDescription(o),
          returnUrl: `${deps.browserOrigin(req)}${await afterPaymentPath(ctx.db, { status: 'approved', order_token: o.order_token })}`,
          notifyUrl: `${deps.callbackOrigin()}/api/pay-solutions/postback`,
          customer: { email: o.email ?? o.user.email },
          locale: requestLocale(req),
        });
        if (started.kind !== 'form') throw new ApiError(500, 'INTERNAL_ERROR', 'Unexpected PaySolutions answer');
        const f = started.fields;
        return {
          success: true as const,
          data: {
            application_id_1: deps.providers.paysolutions().merchantId,
            course_ids: o.courses.map((c) => c.course_id),
            action: started.action,
            fields: {
              customeremail: f.customeremail!,
              productdetail: f.productdetail!,
              refno: f.refno!,
              merchantid: f.merchantid!,
              cc: '00' as const,
              total: f.total!,
              lang: f.lang === 'EN' ? ('EN' as const) : ('TH' as const),
              returnurl: f.returnurl!,
              postbackurl: f.postbackurl!,
            },
          },
        };
      });
    },

    handlePaySolutionsPostback: async (req, _reply, ctx) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const p = provider();
      const verified = await p.verifyNotification({ headers: req.headers, rawBody: req.rawBody ?? '', body: b });
      if (!verified) {
        if (String(b.merchantid ?? '') !== deps.config.paysolutions.merchantId) throw new ApiError(400, 'VALIDATION_ERROR', 'Unknown merchantid', [{ field: 'merchantid', msg: 'is not ours' }]);
        throw new ApiError(400, 'VALIDATION_ERROR', 'Invalid refno', [{ field: 'refno', msg: 'must be 1-12 digits' }]);
      }
      const refno = verified.ref;
      const payment = await findPaymentByRef(ctx.db, 'paysolutions', refno);
      if (!payment) return { received: true as const };
      // Unsigned: ask PaySolutions (Inquiry API) before trusting anything.
      let status: ProviderStatus;
      try {
        status = await p.getPaymentStatus({ ref: refno, amount: payment.amount, currency: 'THB' });
      } catch (err) {
        providerFailed(err, ctx, 'paysolutions inquiry');
        throw new ApiError(500, 'INTERNAL_ERROR', 'Could not verify the payment with PaySolutions, retry later');
      }
      let outcome: Outcome;
      if (status.kind === 'paid') outcome = status;
      else if (status.kind === 'failed') outcome = status;
      else {
        // The inquiry answers nothing unless the payment succeeded: a postback that claims a
        // failure or a cancel is taken as said (it can only stop an unpaid attempt, never pay one;
        // a later genuine payment still pays). No claim: still pending.
        const claimed = String(b.status ?? '').toUpperCase();
        if (!claimed || claimed === 'CP') outcome = { kind: 'pending' };
        else if (CANCELLED.has(claimed)) outcome = { kind: 'cancelled' };
        else outcome = { kind: 'failed', code: claimed, message: `PaySolutions status ${claimed}` };
      }
      const eventId = `${refno}:${outcome.kind === 'failed' ? outcome.code : outcome.kind}`;
      await applyOutcome(ctx, { provider: 'paysolutions', ref: refno, eventId: outcome.kind === 'pending' ? null : eventId, eventKind: 'postback', outcome });
      return { received: true as const };
    },
  };
}
