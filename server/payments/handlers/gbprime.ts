/** GB Prime Pay card (method 11, hosted page + 3-D Secure) and PromptPay QR (method 12); background re-checked. */
import { ApiError } from '../../errors';
import type { Handlers } from '../../openapi/router';
import { GBPRIME_CARD, GBPRIME_PROMPTPAY } from '../../../domain/payment-methods';
import { GB_PAID } from '../../providers/gbprime';
import { applyOutcome, type Outcome } from '../apply';
import { afterPaymentPath, attemptRef, customerName, orderDescription, payableOrder, providerFailed, withLock, type PaymentsDeps } from '../common';
import { findPaymentByRef, paymentsOfOrder } from '../repository';

export const GBPRIME_QR_TTL_MINUTES = Number(process.env.GBPRIME_QR_TTL_MINUTES) > 0 ? Number(process.env.GBPRIME_QR_TTL_MINUTES) : 15;

export function gbprimeHandlers(deps: PaymentsDeps): Handlers {
  return {
    createGbPrimeCardPayment: async (req, _reply, ctx) => {
      const b = req.body;
      return withLock(`order:${b.orderId}`, async () => {
        const o = await payableOrder(ctx.db, ctx, req, b.orderId, GBPRIME_CARD);
        const now = ctx.clock.now();
        const referenceNo = attemptRef('G', o.id, now);
        const origin = deps.browserOrigin(req);
        const success = b.success_url ?? (await afterPaymentPath(ctx.db, { status: 'approved', order_token: o.order_token }));
        const failure = b.failure_url ?? '/myaccount/student/order';
        await applyOutcome(ctx, {
          provider: 'gbprime',
          ref: referenceNo,
          eventId: null,
          eventKind: 'checkout.create',
          outcome: { kind: 'pending' },
          ensure: { order_id: o.id, method_id: GBPRIME_CARD, amount: o.total, currency: 'THB', details: { kind: 'card' } },
        });
        const invoiceUrl = deps.providers.gbprime().checkoutUrl({
          amount: o.total,
          referenceNo,
          detail: orderDescription(o),
          customerName: b.name || customerName(o),
          customerEmail: b.email,
          responseUrl: `${origin}${success}`,
          failureUrl: `${origin}${failure}`,
          backgroundUrl: `${deps.callbackOrigin()}/api/gbprime/background`,
        });
        return { success: true as const, data: { invoice_url: invoiceUrl } };
      });
    },

    createGbPrimePromptPay: async (req, _reply, ctx) => {
      const b = req.body;
      return withLock(`order:${b.orderId}`, async () => {
        const o = await payableOrder(ctx.db, ctx, req, b.orderId, GBPRIME_PROMPTPAY);
        const now = ctx.clock.now();
        const open = (await paymentsOfOrder(ctx.db, o.id))
          .reverse()
          .find((p) => p.provider === 'gbprime' && p.method_id === GBPRIME_PROMPTPAY && p.status === 'pending' && p.amount === o.total && p.expires_at && p.expires_at > now && typeof p.details.qrImage === 'string');
        if (open?.expires_at) return { success: true as const, data: { qrImage: String(open.details.qrImage), referenceNo: open.provider_ref, expires_at: open.expires_at.toISOString() } };
        const referenceNo = attemptRef('P', o.id, now);
        let png: Buffer;
        try {
          png = await deps.providers.gbprime().qrcode({ amount: o.total, referenceNo, backgroundUrl: `${deps.callbackOrigin()}/api/gbprime/background`, detail: orderDescription(o) });
        } catch (err) {
          throw providerFailed(err, ctx, 'gbprime qrcode');
        }
        const expiresAt = new Date(now.getTime() + GBPRIME_QR_TTL_MINUTES * 60_000);
        const qrImage = png.toString('base64');
        await applyOutcome(ctx, {
          provider: 'gbprime',
          ref: referenceNo,
          eventId: null,
          eventKind: 'qrcode.create',
          outcome: { kind: 'pending' },
          ensure: { order_id: o.id, method_id: GBPRIME_PROMPTPAY, amount: o.total, currency: 'THB', expires_at: expiresAt, details: { kind: 'qrcode', qrImage } },
        });
        return { success: true as const, data: { qrImage, referenceNo, expires_at: expiresAt.toISOString() } };
      });
    },

    handleGbPrimeBackground: async (req, _reply, ctx) => {
      const b = (req.body ?? {}) as { referenceNo?: string };
      const ref = String(b.referenceNo ?? '');
      const payment = await findPaymentByRef(ctx.db, 'gbprime', ref);
      if (!payment) return { received: true as const };
      // Unsigned: re-read the transaction from GB Prime Pay before trusting it.
      let txn;
      try {
        txn = await deps.providers.gbprime().checkStatus(ref);
      } catch (err) {
        providerFailed(err, ctx, 'gbprime check_status_txn');
        throw new ApiError(500, 'INTERNAL_ERROR', 'Could not verify the payment with GB Prime Pay, retry later');
      }
      if (!txn) return { received: true as const };
      const outcome: Outcome = GB_PAID.has(txn.status)
        ? { kind: 'paid', paidAmount: txn.amount, currency: 'THB', txnId: txn.gbpReferenceNo }
        : txn.status === 'P'
          ? { kind: 'pending' }
          : txn.status === 'E'
            ? { kind: 'expired' }
            : { kind: 'failed', code: txn.resultCode || txn.status, message: `GB Prime Pay status ${txn.status}` };
      await applyOutcome(ctx, { provider: 'gbprime', ref, eventId: `${txn.gbpReferenceNo}:${txn.status}`, eventKind: 'background', outcome, details: { gbpReferenceNo: txn.gbpReferenceNo } });
      return { received: true as const };
    },
  };
}
