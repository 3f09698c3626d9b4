/**
 * The checks of a bank-transfer notice, in one place: spec 5 "Bank transfer notify" in its order
 * (domain/forms/bank-transfer) with what only the server knows, read once — the amount due (the
 * order's total), whether the site requires a slip, that the slip is the payer's own upload and
 * that the destination is one of the shop's accounts. Used by the handler
 * (createPaymentReportPrivate) and, for a body the contract refuses, by the router's body check so
 * the spec's message for the first failing field comes first.
 */
import type { Queryable } from '../db/index';
import { bankTransferErrors } from '../../domain/forms/bank-transfer';
import type { Shown } from '../../domain/messages';
import { loadSettings } from '../repos/settings';
import { isOwnUpload } from '../repos/uploads';
import { bankAccountExists } from './repository';

export interface NoticeFields {
  slip: string | null;
  contact_name: string | null;
  transfer_amount: string | number | null;
  bank_code: string | null;
  bank_account: string | null;
  transfer_datetime: string | null;
  time: string | null;
}

export interface NoticeCheck {
  issues: { field: string; msg: Shown }[];
  /** The slip when it is the payer's own upload, else null. */
  slip: string | null;
  /** The destination account when it is the shop's, else null. */
  account: string | null;
}

/**
 * Checks a notice for `order` (null: the caller's order is not known — the amount due is then
 * taken as non-zero, a notice being for a payable order, and slip and account are taken as sent).
 * Bank and account are not asked of another method's report (`isTransfer` false).
 */
export async function checkBankTransferNotice(q: Queryable, order: { total: number; user_id: number } | null, f: NoticeFields, isTransfer = true): Promise<NoticeCheck> {
  const settings = await loadSettings(q).catch(() => null);
  const slip = f.slip && order ? ((await isOwnUpload(q, f.slip, order.user_id)) ? f.slip : null) : f.slip;
  const account = f.bank_account && order ? ((await bankAccountExists(q, f.bank_account)) ? f.bank_account : null) : f.bank_account;
  const issues = bankTransferErrors(
    { slip, contact_name: f.contact_name, transfer_amount: f.transfer_amount, bank_code: f.bank_code, bank_account: account, transfer_datetime: f.transfer_datetime, time: f.time },
    { amountDue: order ? order.total : 1, slipRequired: !!settings?.is_require_payment_slip },
  )
    .filter((e) => isTransfer || (e.path !== 'bank_code' && e.path !== 'bank_account'))
    .map((e) => ({ field: e.path, msg: e.message }));
  return { issues, slip, account };
}
