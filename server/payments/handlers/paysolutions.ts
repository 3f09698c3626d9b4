/** PaySolutions (method 13): the hosted form for the order's total, and the postback re-checked by inquiry. */
import { ApiError } from '../../errors';
import type { Handlers } from '../../openapi/router';
import { PAYSOLUTIONS } from '../../../domain/payment-methods';
import { PAYSOLUTIONS_PAID } from '../../providers/paysolutions';
import { applyOutcome, type Outcome } from '../apply';
import { afterPaymentPath, orderDescription, payableOrder, providerFailed, withLock, type PaymentsDeps } from '../common';
import { findPaymentByRef } from '../repository';

export function paysolutionsHandlers(deps: PaymentsDeps): Handlers {
  return {
    createPaySolutionsPayment: async (req, _reply, ctx) => {
      const orderId = req.body.order_id;
      return withLock(`order:${orderId}`, async () => {
        const o = await payableOrder(ctx.db, ctx, req, orderId, PAYSOLUTIONS);
        // refno: numeric, up to 12 digits: the order id (one PaySolutions reference per order).
        const refno = String(o.id);
        await applyOutcome(ctx, {
          provider: 'paysolutions',
          ref: refno,
          eventId: null,
          eventKind: 'form.create',
          outcome: { kind: 'pending' },
          ensure: { order_id: o.id, method_id: PAYSOLUTIONS, amount: o.total, currency: 'THB' },
        });
        const ps = deps.providers.paysolutions();
        const form = ps.hostedForm({
          refno,
          total: o.total,
          email: o.email ?? o.user.email,
          productDetail: orderDescription(o),
          returnUrl: `${deps.browserOrigin(req)}${await afterPaymentPath(ctx.db, { status: 'approved', order_token: o.order_token })}`,
          postbackUrl: `${deps.callbackOrigin()}/api/pay-solutions/postback`,
        });
        return { success: true as const, data: { application_id_1: ps.merchantId, course_ids: o.courses.map((c) => c.course_id), action: form.action, fields: form.fields } };
      });
    },

    handlePaySolutionsPostback: async (req, _reply, ctx) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const refno = String(b.refno ?? '');
      if (String(b.merchantid ?? '') !== deps.config.paysolutions.merchantId) throw new ApiError(400, 'VALIDATION_ERROR', 'Unknown merchantid', [{ field: 'merchantid', msg: 'is not ours' }]);
      if (!/^\d{1,12}$/u.test(refno)) throw new ApiError(400, 'VALIDATION_ERROR', 'Invalid refno', [{ field: 'refno', msg: 'must be 1-12 digits' }]);
      const payment = await findPaymentByRef(ctx.db, 'paysolutions', refno);
      if (!payment) return { received: true as const };
      // Unsigned: ask PaySolutions for the order before trusting the postback.
      let txn;
      try {
        txn = await deps.providers.paysolutions().inquiry(refno);
      } catch (err) {
        providerFailed(err, ctx, 'paysolutions inquiry');
        throw new ApiError(500, 'INTERNAL_ERROR', 'Could not verify the payment with PaySolutions, retry later');
      }
      if (!txn) return { received: true as const };
      const outcome: Outcome =
        txn.status === PAYSOLUTIONS_PAID
          ? { kind: 'paid', paidAmount: txn.total, currency: 'THB', txnId: null }
          : txn.status === 'C'
            ? { kind: 'cancelled' }
            : { kind: 'failed', code: txn.status, message: txn.statusName || txn.status };
      await applyOutcome(ctx, { provider: 'paysolutions', ref: refno, eventId: `${refno}:${txn.status}`, eventKind: 'postback', outcome });
      return { received: true as const };
    },
  };
}
