/**
 * Payment reports (public: free orders and legacy PayPal; private: bank-transfer notices), the
 * approval call after a verified provider payment, and the payment-notice e-mail.
 * Report times arrive as Thai local time (UTC+7) and are stored in UTC (decisions.md #8).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/index';
import { ApiError, requestLocale } from '../../errors';
import type { Handlers } from '../../openapi/router';
import type { OrderForPayment } from '../../orders/service';
import { MSG } from '../../../domain/messages';
import { isFreeOrder } from '../../../domain/money';
import { paymentNoticeMail } from '../../../domain/mail';
import { checkBankTransferNotice } from '../bank-transfer';
import { formatMoney } from '../../../domain/money';
import { orderNumber } from '../../../domain/order-outcome';
import { BANK_TRANSFER } from '../../../domain/payment-methods';
import { sendGuarded } from '../../mail';
import { PAYABLE_STATUSES, notPayable, ownOrder, thaiLocalToUtc, utcToThaiLocal, type PaymentsDeps } from '../common';
import { findPayment, findReport, insertReport, reportsOfOrder, type ReportRow } from '../repository';

export const FREE_LABELS = { auto: 'AutoFree', approval: 'NeedApprovedFree' } as const;
export const FREE_DESCRIPTIONS = { auto: 'Auto approved', approval: 'Need approved by admin' } as const;

/** Does any plan of the order need an admin's approval when free (pricing_plans.need_approval)? */
export async function orderNeedsApproval(q: Queryable, orderId: number): Promise<boolean> {
  const r = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM order_courses oc JOIN pricing_plans pp ON pp.id = oc.pricing_plan_id WHERE oc.order_id = $1 AND pp.need_approval::text IN ('1', 'true')`,
    [orderId],
  );
  return (r.rows[0]?.n ?? 0) > 0;
}

/**
 * The order for a public report: the caller's own session order, or a caller holding the order's
 * token (the thank-you link). Knowing the buyer's e-mail is not enough.
 */
async function orderForCaller(q: Queryable, ctx: AppContext, req: FastifyRequest, orderId: number, token: string | null | undefined): Promise<OrderForPayment> {
  const o = await ctx.orders.getOrderForPayment(q, orderId);
  if (!o || o.is_deleted) throw new ApiError(404, 'NOT_FOUND', MSG.ORDER_NOT_FOUND);
  if (req.user) {
    if (req.user.id !== o.user_id) throw new ApiError(403, 'FORBIDDEN', MSG.NOT_YOUR_ORDER);
    return o;
  }
  if (!token || token.length !== o.order_token.length || !timingSafeEqual(Buffer.from(token), Buffer.from(o.order_token))) {
    throw new ApiError(403, 'FORBIDDEN', 'Log in as the buyer of this order (or give its order token)');
  }
  return o;
}

/** Free text that goes into an e-mail keeps no links. */
export function withoutLinks(text: string): string {
  return text
    .replace(/\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S+/giu, '[link removed]')
    .replace(/[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\S*/giu, '[link removed]');
}

function answer(r: ReportRow, o: { order_token: string }) {
  return { success: true as const, orderPaymentId: r.id, order_token: o.order_token };
}

const MAIL_LIMIT = 5;
const MAIL_WINDOW_MS = 10 * 60_000;

export function reportHandlers(_deps: PaymentsDeps): Handlers {
  // E-mails sent per order in the window, per app (one per process; tests build several apps in one
  // process and each counts its own orders).
  const mailLog = new Map<number, number[]>();
  return {
    createPaymentReportPublic: async (req, reply, ctx) => {
      const b = req.body;
      const now = ctx.clock.now();
      const transferAt = thaiLocalToUtc(b.transfer_datetime, b.time);
      const result = await ctx.db.tx(async (q) => {
        const o = await orderForCaller(q, ctx, req, b.order_id, b.order_token);
        const existing = await reportsOfOrder(q, o.id);
        if (b.payment === 'Paypal') {
          // A report never pays an order and is never filed by the browser for PayPal: our own verified
          // capture (capturePaypalOrder) files it. Asking afterwards answers that report; before, nothing is filed.
          const paid = existing.find((r) => r.payment === 'Paypal' && r.payment_id !== null && r.status === 'approved');
          if (paid) return answer(paid, o);
          throw notPayable('A PayPal payment is recorded by its capture: capture the PayPal order first');
        }
        // Free orders: the server decides AutoFree or NeedApprovedFree from the plans, never the client.
        if (!isFreeOrder(o.total)) throw notPayable('This order is not free');
        const prior = existing.find((r) => r.payment === FREE_LABELS.auto || r.payment === FREE_LABELS.approval);
        if (prior && prior.status !== 'rejected') return answer(prior, o);
        if (!PAYABLE_STATUSES.has(o.status)) throw notPayable(`Order ${o.id} is ${o.status}`);
        const needs = await orderNeedsApproval(q, o.id);
        const r = await insertReport(
          q,
          {
            order_id: o.id, user_id: o.user_id, payment_method_id: o.payment_method_id, payment: needs ? FREE_LABELS.approval : FREE_LABELS.auto, status: needs ? 'pending' : 'approved',
            contact_name: b.contact_name, email: b.email, tel: b.tel ?? null, bank_code: null, bank_account: null, transfer_at: transferAt, transfer_amount: 0,
            description: needs ? FREE_DESCRIPTIONS.approval : FREE_DESCRIPTIONS.auto, address: b.address ?? null, slip: null, payment_id: null,
            decided_by: needs ? null : 'system', decided_at: needs ? null : now,
          },
          now,
        );
        if (needs) await ctx.orders.markOrderPendingApproval(q, o.id, r.id);
        else await ctx.orders.approveOrderPayment(q, { orderId: o.id, orderPaymentId: r.id, approveBy: 'system', paymentMethodId: o.payment_method_id ?? BANK_TRANSFER });
        return answer(r, o);
      });
      reply.code(201);
      return result;
    },

    createPaymentReportPrivate: async (req, reply, ctx) => {
      const b = req.body;
      const now = ctx.clock.now();
      const result = await ctx.db.tx(async (q) => {
        const o = await ownOrder(q, ctx, req, b.order_id);
        if (b.payment_method_id !== BANK_TRANSFER) {
          // A card / QR / PayPal method is recorded by its verified provider payment (apply.ts), never by a
          // report the browser files: answer that report, or refuse — a report never claims a method it did not come from.
          const verified = (await reportsOfOrder(q, o.id)).find((r) => r.payment_id !== null && r.payment_method_id === b.payment_method_id && r.status !== 'rejected');
          if (verified) return answer(verified, o);
          throw notPayable('This payment method is confirmed by its provider, not by a report');
        }
        if (!PAYABLE_STATUSES.has(o.status)) throw notPayable(`Order ${o.id} is ${o.status}`);
        // Spec 5 "Bank transfer notify", in its order, with what only the server knows (server/payments/bank-transfer.ts):
        // the slip is the reporter's own upload, the destination is one of the shop's accounts.
        const { issues, slip } = await checkBankTransferNotice(q, o, {
          slip: b.slip ?? null,
          contact_name: b.contact_name,
          transfer_amount: b.transfer_amount,
          bank_code: b.bank_code ?? null,
          bank_account: b.bank_account ?? null,
          transfer_datetime: b.transfer_datetime,
          time: b.time,
        });
        if (issues.length > 0) throw new ApiError(400, 'VALIDATION_ERROR', issues[0]!.msg, issues);
        const r = await insertReport(
          q,
          {
            order_id: o.id, user_id: o.user_id, payment_method_id: b.payment_method_id, payment: 'BankTransfer',
            status: 'pending', contact_name: b.contact_name, email: b.email, tel: b.tel ?? null, bank_code: b.bank_code ?? null, bank_account: b.bank_account ?? null,
            transfer_at: thaiLocalToUtc(b.transfer_datetime, b.time), transfer_amount: b.transfer_amount, description: b.description ?? null, address: b.address ?? null, slip, payment_id: null,
          },
          now,
        );
        // A bank transfer now waits for the back office.
        await ctx.orders.markOrderPendingApproval(q, o.id, r.id);
        return answer(r, o);
      });
      reply.code(201);
      return result;
    },

    approveOrderPayment: async (req, _reply, ctx) => {
      const b = req.body;
      return ctx.db.tx(async (q) => {
        const o = await ownOrder(q, ctx, req, b.order_id);
        const r = await findReport(q, b.order_payment_id);
        if (!r || r.order_id !== o.id) throw new ApiError(404, 'NOT_FOUND', 'Payment report not found for this order');
        if (o.status === 'approved') return { success: true as const, order_token: o.order_token };
        if (o.status === 'rejected' || o.status === 'cancelled') throw notPayable(`Order ${o.id} is ${o.status}`);
        if (r.payment_method_id !== null && r.payment_method_id !== b.payment_method_id) throw notPayable('This report is for another payment method');
        // Approve only what the server has verified: a successful provider payment of the order's total.
        const p = r.payment_id ? await findPayment(q, r.payment_id) : null;
        const verified = p !== null && p.status === 'successful' && !p.attention && p.paid_amount === o.total && p.currency === o.currency_code;
        if (!verified) throw new ApiError(422, 'PAYMENT_FAILED', MSG.PAYMENT_FAILED);
        const after = await ctx.orders.approveOrderPayment(q, { orderId: o.id, orderPaymentId: r.id, approveBy: `student:${req.user?.id ?? ''}:${(b.approve_by ?? '').slice(0, 64)}`, paymentMethodId: p.method_id });
        return { success: true as const, order_token: after.order_token };
      });
    },

    sendPaymentOrderEmail: async (req, reply, ctx) => {
      // Only the owner's session, only for a bank-transfer notice the owner filed, and the text is the
      // server's record of that notice — the request's free text is not mailed.
      const o = await ownOrder(ctx.db, ctx, req, req.body.orderId);
      const notice = (await reportsOfOrder(ctx.db, o.id))
        .filter((r) => r.payment === 'BankTransfer' && r.user_id === o.user_id && r.status === 'pending')
        .at(-1);
      if (!notice) throw new ApiError(404, 'NOT_FOUND', 'No payment notice of yours waits for this order');
      const now = ctx.clock.now().getTime();
      const sent = (mailLog.get(o.id) ?? []).filter((t) => now - t < MAIL_WINDOW_MS);
      if (sent.length >= MAIL_LIMIT) throw new ApiError(429, 'RATE_LIMITED', 'Too many e-mails for this order, try again later');
      sent.push(now);
      mailLog.set(o.id, sent);
      const to = o.email ?? o.user.email;
      // Written from the stored notice (never the request's text), links removed.
      const at = notice.transfer_at ? utcToThaiLocal(notice.transfer_at) : null;
      const mail = (locale: 'th' | 'en') =>
        paymentNoticeMail(locale, {
          orderId: o.id,
          fullname: withoutLinks(notice.contact_name ?? '-'),
          amount: formatMoney(notice.transfer_amount, o.currency_code, locale === 'en' ? 'en-US' : 'th-TH'),
          bank: notice.bank_code ? withoutLinks(notice.bank_code) : null,
          account: notice.bank_account ? withoutLinks(notice.bank_account) : null,
          when: at ? `${at.date} ${at.time}` : '-',
          tel: notice.tel ?? null,
        });
      // The buyer's copy in the language they chose (Accept-Language / lang cookie); the shop's copy in Thai.
      // Later mails go only to a verified address (server/mail.ts sendGuarded), counted in the database.
      const owner = (await ctx.db.query<{ email: string; email_verified_at: Date | null }>('SELECT email, email_verified_at FROM users WHERE id = $1', [o.user_id])).rows[0];
      const verified = owner !== undefined && owner.email_verified_at !== null && owner.email.trim().toLowerCase() === to.trim().toLowerCase();
      const sentTo = await sendGuarded(ctx.db, ctx.mail, { to, tag: 'paymentorder', ...mail(requestLocale(req)) }, { kind: 'notice', userId: o.user_id, address: req.ip, verified, now: ctx.clock.now() });
      if (sentTo === 'recipient_limit' || sentTo === 'address_limit') throw new ApiError(429, 'RATE_LIMITED', 'Too many e-mails for this order, try again later');
      const lines = [mail('th').text];
      const admin = process.env.SHOP_ADMIN_EMAIL;
      if (admin) await ctx.mail.send({ to: admin, subject: `[back office] payment notice for order ${orderNumber(o.id)}`, text: lines.join('\n'), tag: 'paymentorder-admin' });
      reply.code(202);
      return { success: true as const };
    },
  };
}

export { utcToThaiLocal };
