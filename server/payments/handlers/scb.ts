/**
 * SCB QR (method 4): QR30 for the order's total with a life we enforce, and the unsigned payment
 * confirmation, trusted only after SCB's bill-payment inquiry shows the same transaction.
 */
import QRCode from 'qrcode';
import { ApiError } from '../../errors';
import type { Handlers } from '../../openapi/router';
import { parseAmount } from '../../../domain/money';
import { SCB_QR } from '../../../domain/payment-methods';
import { parsePromptPayPayload } from '../../../domain/promptpay';
import { applyOutcome, recordPending } from '../apply';
import { attemptRef, bangkokDate, providerFailed, startPayment, type PaymentsDeps } from '../common';
import { findPaymentByRef, paymentsOfOrder, updatePayment } from '../repository';
import { MSG } from '../../../domain/messages';

function minutesLeft(expires: Date, now: Date): number {
  return Math.max(1, Math.ceil((expires.getTime() - now.getTime()) / 60_000));
}

export function scbHandlers(deps: PaymentsDeps): Handlers {
  return {
    createScbQrCode: async (req, _reply, ctx) => {
      const { orderId } = req.body;
      return startPayment(ctx, req, orderId, SCB_QR, async (o, now) => {
        const mine = (await paymentsOfOrder(ctx.db, o.id)).filter((p) => p.provider === 'scb' && p.status === 'pending');
        for (const p of mine) if (p.expires_at && p.expires_at <= now) await updatePayment(ctx.db, p.id, { status: 'expired', failure_code: 'expired', failure_message: 'QR expired' }, now);
        const open = mine.reverse().find((p) => p.expires_at && p.expires_at > now && p.amount === o.total && typeof p.details.qrRawData === 'string');
        if (open && open.expires_at) {
          const raw = String(open.details.qrRawData);
          const png = await QRCode.toBuffer(raw, { type: 'png', width: 300, margin: 2, errorCorrectionLevel: 'M' });
          return {
            status: { code: 1000, description: 'Success' },
            data: { qrImage: png.toString('base64'), qrRawData: raw, csExtExpiryTime: minutesLeft(open.expires_at, now), expires_at: open.expires_at.toISOString() },
          };
        }
        const ref1 = `O${o.id}`;
        const ref2 = attemptRef('Q', o.id, now).replace(/^Q\d+T/u, 'Q');
        const ref3 = `${deps.config.scb.ref3Prefix}${o.id}`.slice(0, 20);
        let qr;
        try {
          qr = await deps.providers.scb().createQr({ amount: o.total, ref1, ref2, ref3 });
        } catch (err) {
          throw providerFailed(err, ctx, 'scb qrcode create');
        }
        let parsed;
        try {
          parsed = parsePromptPayPayload(qr.qrRawData);
        } catch {
          parsed = null;
        }
        if (!parsed || !parsed.crcValid || parsed.amount !== o.total) {
          ctx.log.error({ orderId: o.id }, 'SCB answered a QR that is not for the order total');
          throw new ApiError(502, 'PAYMENT_FAILED', MSG.PAYMENT_FAILED);
        }
        const expiresAt = new Date(now.getTime() + deps.config.scb.qrTtlMinutes * 60_000);
        await recordPending(ctx, {
          provider: 'scb',
          ref: `${ref1}.${ref2}`,
          eventKind: 'qrcode.create',
          ensure: { order_id: o.id, method_id: SCB_QR, amount: o.total, currency: 'THB', expires_at: expiresAt, details: { ref1, ref2, ref3, qrRawData: qr.qrRawData } },
        });
        return {
          status: { code: 1000, description: 'Success' },
          data: { qrImage: qr.qrImage, qrRawData: qr.qrRawData, csExtExpiryTime: deps.config.scb.qrTtlMinutes, expires_at: expiresAt.toISOString() },
        };
      });
    },

    handleScbPaymentConfirmation: async (req, _reply, ctx) => {
      const b = req.body;
      const ref1 = b.billPaymentRef1;
      const ref2 = b.billPaymentRef2 ?? '';
      const ack = (resCode: string, resDesc: string, confirmId = '') => ({ resCode, resDesc, transactionId: b.transactionId, confirmId });
      const payment = await findPaymentByRef(ctx.db, 'scb', `${ref1}.${ref2}`);
      if (!payment) return ack('01', 'reference not found');
      // Unsigned: ask SCB whether this transaction exists, for which refs and amount.
      const when = b.transactionDateandTime && Number.isFinite(Date.parse(b.transactionDateandTime)) ? new Date(Date.parse(b.transactionDateandTime)) : ctx.clock.now();
      let txns;
      try {
        txns = await deps.providers.scb().inquiry({ ref1, ref2, transactionDate: bangkokDate(when) });
      } catch (err) {
        providerFailed(err, ctx, 'scb inquiry');
        throw new ApiError(500, 'INTERNAL_ERROR', 'Could not verify the payment with SCB, retry later');
      }
      const t = txns.find((x) => x.transactionId === b.transactionId && x.billPaymentRef1 === ref1 && (x.billPaymentRef2 ?? '') === ref2);
      const paid = t ? parseAmount(String(t.amount)) : null;
      if (!t || paid === null) {
        ctx.log.warn({ transactionId: b.transactionId }, 'SCB confirmation not confirmed by the inquiry: ignored');
        return ack('99', 'transaction not verified');
      }
      const r = await applyOutcome(ctx, {
        provider: 'scb',
        ref: payment.provider_ref,
        eventId: t.transactionId,
        eventKind: 'payment.confirm',
        outcome: { kind: 'paid', paidAmount: paid, currency: 'THB', txnId: t.transactionId },
        details: { transactionId: t.transactionId, transactionDateandTime: t.transactionDateandTime },
      });
      const p = r.payment ?? payment;
      return ack('00', 'success', `CF${p.id}${t.transactionId.slice(-8)}`);
    },
  };
}
