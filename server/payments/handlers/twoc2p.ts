/**
 * 2C2P: the signed card gateway form (method 3), the payment link for installments (method 10),
 * and the backend notification (signed base64 XML paymentResponse, or a v4 JWT).
 */
import { ApiError } from '../../errors';
import type { Handlers } from '../../openapi/router';
import { fromMajor } from '../../../domain/money';
import { TWOC2P_CARD, TWOC2P_INSTALLMENT } from '../../../domain/payment-methods';
import { CARD_FORM_PAID_STATUSES, type TwoC2pCardInquiry, type TwoC2pResult } from '../../providers/twoc2p';
import { applyOutcome, type Outcome } from '../apply';
import { attemptRef, customerName, orderDescription, payableOrder, providerFailed, withLock, type PaymentsDeps } from '../common';
import { findPaymentByRef } from '../repository';

function v4Outcome(r: TwoC2pResult): Outcome {
  if (r.respCode === '0000') return { kind: 'paid', paidAmount: fromMajor(Number(r.amount)), currency: r.currencyCode === 'USD' ? 'USD' : 'THB', txnId: r.tranRef ?? null };
  if (r.respCode === '0001') return { kind: 'pending' };
  if (r.respCode === '0003') return { kind: 'cancelled' };
  return { kind: 'failed', code: r.respCode, message: r.respDesc };
}

export function twoc2pHandlers(deps: PaymentsDeps): Handlers {
  return {
    create2c2pCardRequest: async (req, _reply, ctx) => {
      const b = req.body;
      return withLock(`order:${b.orderId}`, async () => {
        const o = await payableOrder(ctx.db, ctx, req, b.orderId, TWOC2P_CARD);
        const now = ctx.clock.now();
        const code = attemptRef('C', o.id, now);
        await applyOutcome(ctx, {
          provider: '2c2p',
          ref: code,
          eventId: null,
          eventKind: 'cardform.create',
          outcome: { kind: 'pending' },
          ensure: { order_id: o.id, method_id: TWOC2P_CARD, amount: o.total, currency: 'THB', details: { masked: b.maskedCardInfo, kind: 'card-form' } },
        });
        const form = deps.providers.twoc2p().cardForm({
          uniqueTransactionCode: code,
          description: orderDescription(o),
          amount: o.total,
          currency: 'THB',
          encCardData: b.encryptedCardInfo,
          cardholderName: customerName(o),
        });
        return { success: true as const, action: form.action, method: 'POST' as const, fields: form.fields as typeof form.fields & { version: '9.9'; currencyCode: '764'; merchantID: string; uniqueTransactionCode: string; desc: string; amt: string; encCardData: string; hashValue: string } };
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
        const origin = deps.browserOrigin(req);
        let link;
        try {
          link = await deps.providers.twoc2p().paymentToken({
            invoiceNo,
            description: orderDescription(o),
            amount: o.total,
            currency: 'THB',
            backendReturnUrl: `${deps.callbackOrigin()}/api/payment/2c2p/backend-return`,
            frontendReturnUrl: `${origin}/myaccount/student/order`,
            ...(methodId === TWOC2P_INSTALLMENT ? { installment: { interestType: 'A' as const, periods: [3, 6, 10] } } : {}),
          });
        } catch (err) {
          throw providerFailed(err, ctx, '2c2p paymentToken');
        }
        await applyOutcome(ctx, {
          provider: '2c2p',
          ref: invoiceNo,
          eventId: null,
          eventKind: 'paymentToken',
          outcome: { kind: 'pending' },
          ensure: { order_id: o.id, method_id: methodId, amount: o.total, currency: 'THB', details: { kind: 'payment-link', paymentToken: link.paymentToken } },
        });
        return { success: true as const, result: { webPaymentUrl: link.webPaymentUrl } };
      });
    },

    handle2c2pBackendReturn: async (req, _reply, ctx) => {
      const client = deps.providers.twoc2p();
      // A form post (card gateway 9.9: paymentResponse) or JSON { payload } (payment-token API v4);
      // the router validated it against the schema of the media type it came as.
      const isForm = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
      const form = isForm ? (req.body as unknown as Record<string, string>) : undefined;
      if (form && typeof form.paymentResponse === 'string') {
        const f = client.decodeCardResponse(form.paymentResponse);
        if (!f) throw new ApiError(401, 'UNAUTHORIZED', 'Invalid paymentResponse hash');
        const code = f.uniqueTransactionCode ?? '';
        const payment = await findPaymentByRef(ctx.db, '2c2p', code);
        if (!payment) return { received: true as const };
        // The notification only says "look again": the result applied is 2C2P's own answer to the
        // Payment Action inquiry (signed, for this invoice), never the posted fields.
        let inq: TwoC2pCardInquiry;
        try {
          inq = await client.cardInquiry(code, ctx.clock.now());
        } catch (err) {
          providerFailed(err, ctx, '2c2p card inquiry');
          throw new ApiError(500, 'INTERNAL_ERROR', 'Could not verify the payment with 2C2P, retry later');
        }
        if (inq.respCode !== '00') {
          ctx.log.warn({ code, respCode: inq.respCode }, '2c2p card result not confirmed by inquiry');
          return { received: true as const };
        }
        const status = inq.status;
        const outcome: Outcome = CARD_FORM_PAID_STATUSES.has(status)
          ? { kind: 'paid', paidAmount: Number(inq.amount), currency: 'THB', txnId: inq.referenceNo || null }
          : status === 'IP' || status === 'PA'
            ? { kind: 'pending' }
            : // A payment the bank refused (PF) fails with the bank's respCode (4051 insufficient funds, …);
              // any other status (AR 3-D Secure rejected, FF fraud rules, …) is itself the reason.
              { kind: 'failed', code: (status === 'PF' && f.status === status && f.respCode) || status, message: (f.status === status && f.failReason) || status };
        await applyOutcome(ctx, { provider: '2c2p', ref: code, eventId: `card:${code}:${status}`, eventKind: 'cardform.result', outcome, details: { pan: inq.maskedPan, status } });
        return { received: true as const };
      }
      const body = (form ?? req.body) as Record<string, unknown> | undefined;
      const token = body && typeof body.payload === 'string' ? body.payload : '';
      const notified = token ? client.decodeResult(token) : null;
      if (!notified) throw new ApiError(401, 'UNAUTHORIZED', 'Invalid 2C2P signature');
      const payment = await findPaymentByRef(ctx.db, '2c2p', notified.invoiceNo);
      if (!payment) return { received: true as const };
      // Re-read the result from 2C2P (signed) rather than trusting one notification.
      let r: TwoC2pResult;
      try {
        r = await client.paymentInquiry(notified.invoiceNo);
      } catch (err) {
        providerFailed(err, ctx, '2c2p paymentInquiry');
        throw new ApiError(500, 'INTERNAL_ERROR', 'Could not verify the payment with 2C2P, retry later');
      }
      await applyOutcome(ctx, {
        provider: '2c2p',
        ref: notified.invoiceNo,
        eventId: `v4:${r.invoiceNo}:${r.respCode}`,
        eventKind: 'backendReturn',
        outcome: v4Outcome(r),
        details: { cardNo: r.cardNo ?? null, channelCode: r.channelCode ?? null, installmentPeriod: r.installmentPeriod ?? null },
      });
      return { received: true as const };
    },
  };
}
