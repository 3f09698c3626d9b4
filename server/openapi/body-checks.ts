/**
 * Forms whose spec gives its own checks in its own order (spec 5): when a body breaks the
 * contract, these checks speak first, in the spec's order, so the buyer reads the spec's message
 * for the first missing field, not the validator's (also for a blank body). The handler runs the
 * same domain check again on a body that passes the schema (what only the server knows: the
 * uploaded slip exists, the account is the shop's).
 */
import type { FastifyRequest } from 'fastify';
import { bankTransferErrors } from '../../domain/forms/bank-transfer';
import { BANK_TRANSFER } from '../../domain/payment-methods';
import type { AppContext } from '../context';
import { loadSettings } from '../repos/settings';
import type { LocalIssue } from './messages';

export type BodyCheck = (body: Record<string, unknown>, req: FastifyRequest, ctx: AppContext) => Promise<LocalIssue[]>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** POST /private/payment/report: slip, contact name, amount, bank, account, date, time. */
const bankTransferNotice: BodyCheck = async (body, req, ctx) => {
  const settings = await loadSettings(ctx.db).catch(() => null);
  // The amount due is the order's when the caller's order is named; a notice without one is for a
  // payable order (free orders report through /public/payment/report), so not zero.
  let amountDue = 1;
  if (req.user && Number.isSafeInteger(body.order_id) && (body.order_id as number) > 0) {
    const o = await ctx.orders.getOrderForPayment(ctx.db, body.order_id as number).catch(() => null);
    if (o && o.user_id === req.user.id) amountDue = o.total;
  }
  const isTransfer = body.payment_method_id === undefined || body.payment_method_id === BANK_TRANSFER;
  const amount = body.transfer_amount;
  return bankTransferErrors(
    {
      slip: str(body.slip),
      contact_name: str(body.contact_name),
      transfer_amount: typeof amount === 'number' || typeof amount === 'string' ? amount : null,
      bank_code: str(body.bank_code),
      bank_account: str(body.bank_account),
      transfer_datetime: str(body.transfer_datetime),
      time: str(body.time),
    },
    { amountDue, slipRequired: !!settings?.is_require_payment_slip },
  )
    .filter((e) => isTransfer || (e.path !== 'bank_code' && e.path !== 'bank_account'))
    .map((e) => ({ field: e.path, msg: e.message, rule: 'spec' }));
};

export const BODY_CHECKS: Readonly<Record<string, BodyCheck>> = {
  createPaymentReportPrivate: bankTransferNotice,
};
