/**
 * Forms whose spec gives its own checks in its own order (spec 5): when a body breaks the
 * contract, these checks speak first, in the spec's order, so the buyer reads the spec's message
 * for the first missing field, not the validator's (also for a blank body). A body that passes the
 * schema goes to the handler, which runs the same one check (server/payments/bank-transfer.ts);
 * a request is checked by one of the two, never both.
 */
import type { FastifyRequest } from 'fastify';
import { BANK_TRANSFER } from '../../domain/payment-methods';
import type { AppContext } from '../context';
import { checkBankTransferNotice } from '../payments/bank-transfer';
import type { LocalIssue } from './messages';

export type BodyCheck = (body: Record<string, unknown>, req: FastifyRequest, ctx: AppContext) => Promise<LocalIssue[]>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** POST /private/payment/report: slip, contact name, amount, bank, account, date, time (server/payments/bank-transfer.ts). */
const bankTransferNotice: BodyCheck = async (body, req, ctx) => {
  // The order is the caller's, when the body names one of theirs.
  let order: { total: number; user_id: number } | null = null;
  if (req.user && Number.isSafeInteger(body.order_id) && (body.order_id as number) > 0) {
    const o = await ctx.orders.getOrderForPayment(ctx.db, body.order_id as number).catch(() => null);
    if (o && o.user_id === req.user.id) order = o;
  }
  const isTransfer = body.payment_method_id === undefined || body.payment_method_id === BANK_TRANSFER;
  const amount = body.transfer_amount;
  const checked = await checkBankTransferNotice(
    ctx.db,
    order,
    {
      slip: str(body.slip),
      contact_name: str(body.contact_name),
      transfer_amount: typeof amount === 'number' || typeof amount === 'string' ? amount : null,
      bank_code: str(body.bank_code),
      bank_account: str(body.bank_account),
      transfer_datetime: str(body.transfer_datetime),
      time: str(body.time),
    },
    isTransfer,
  );
  return checked.issues.map((i) => ({ ...i, rule: 'spec' }));
};

export const BODY_CHECKS: Readonly<Record<string, BodyCheck>> = {
  createPaymentReportPrivate: bankTransferNotice,
};
