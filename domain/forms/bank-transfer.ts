/**
 * Bank-transfer notice (spec 5 "Bank transfer notify", checked in order; the first failure is
 * reported first):
 * 1. amount due non-zero and the site requires a slip: 'กรุณาอัพโหลดหลักฐานการโอนเงิน'
 * 2. amount due zero and contact name empty: 'กรุณากรอกชื่อผู้ติดต่อ'
 * 3. transfer amount required, numeric only: 'กรุณากรอกจำนวนเงินที่โอน'
 * 4. origin bank: 'กรุณาเลือกธนาคารต้นทางที่โอน'
 * 5. destination account: 'กรุณาเลือกเลขบัญชีที่โอน'
 * 6. date: 'กรุณากรอกวันที่ที่โอนเงิน'; time: 'กรุณากรอกเวลาที่โอนเงิน'
 */
import { z } from 'zod/mini';
import { MSG, type Msg } from '../messages';
import { parseAmount } from '../money';
import type { FieldError, FormResult } from './common';
import { addMsgIssue, isFilledValue, text, toFormResult } from './common';

/** Spec 5: "Slip limit 1 file." */
export const SLIP_MAX_FILES = 1;

export interface BankTransferConfig {
  /** The order's amount due (money.orderAmount), minor units. */
  amountDue: number;
  /** The site requires a payment slip (is_require_payment_slip). */
  slipRequired: boolean;
}

export interface BankTransferValues {
  /** Uploaded slip file name(s). */
  slip?: string | readonly unknown[] | null;
  contact_name?: string | null;
  /** The amount as typed ("1,990.50") or already in minor units (number). */
  transfer_amount?: string | number | null;
  /** Origin bank code (banktransfer_value). */
  bank_code?: string | null;
  /** Destination account (BankAccount.account_id). */
  bank_account?: string | null;
  /** YYYY-MM-DD. */
  transfer_datetime?: string | null;
  /** HH:mm or HH:mm:ss. */
  time?: string | null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/u;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/u;

/** A real calendar date YYYY-MM-DD. */
export function isIsoDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

export function isTimeOfDay(v: string): boolean {
  return TIME.test(v);
}

/** The typed transfer amount in minor units; null when missing or not a non-negative number. */
export function transferAmountMinor(v: BankTransferValues['transfer_amount']): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : null;
  const parsed = parseAmount((v ?? '').trim());
  return parsed === null || parsed < 0 ? null : parsed;
}

function slipCount(slip: BankTransferValues['slip']): number {
  if (Array.isArray(slip)) return slip.filter(isFilledValue).length;
  return isFilledValue(slip) ? 1 : 0;
}

/** The checks in the spec's order; every failure, first failure first. */
export function bankTransferErrors(values: BankTransferValues, config: BankTransferConfig): FieldError[] {
  const errors: FieldError[] = [];
  const add = (path: string, message: Msg) => errors.push({ path, message });
  if (config.amountDue !== 0 && config.slipRequired && slipCount(values.slip) === 0) add('slip', MSG.SLIP_REQUIRED);
  if (slipCount(values.slip) > SLIP_MAX_FILES) add('slip', MSG.ONE_FILE_ONLY);
  if (config.amountDue === 0 && (values.contact_name ?? '').trim() === '') add('contact_name', MSG.CONTACT_NAME_REQUIRED);
  if (transferAmountMinor(values.transfer_amount) === null) add('transfer_amount', MSG.TRANSFER_AMOUNT_REQUIRED);
  if ((values.bank_code ?? '').trim() === '') add('bank_code', MSG.ORIGIN_BANK_REQUIRED);
  if ((values.bank_account ?? '').trim() === '') add('bank_account', MSG.DESTINATION_ACCOUNT_REQUIRED);
  if (!isIsoDate((values.transfer_datetime ?? '').trim())) add('transfer_datetime', MSG.TRANSFER_DATE_REQUIRED);
  if (!isTimeOfDay((values.time ?? '').trim())) add('time', MSG.TRANSFER_TIME_REQUIRED);
  return errors;
}

/** zod schema of the notice; output: trimmed texts and transfer_amount in minor units. */
export function bankTransferSchema(config: BankTransferConfig) {
  const notice = z
    .object({
      slip: z.nullish(z.union([z.string(), z.array(z.unknown())])),
      contact_name: text,
      transfer_amount: z.nullish(z.union([z.string(), z.number()])),
      bank_code: text,
      bank_account: text,
      transfer_datetime: text,
      time: text,
    })
    .check(
      z.superRefine((v, ctx) => {
        for (const e of bankTransferErrors(v, config)) addMsgIssue(ctx, e.message, [e.path]);
      }),
    );
  return z.pipe(
    notice,
    z.transform((v: z.output<typeof notice>) => ({ ...v, transfer_amount: transferAmountMinor(v.transfer_amount) ?? 0 })),
  );
}

export type BankTransferData = z.output<ReturnType<typeof bankTransferSchema>>;

/** { ok, errors } (errors in the spec's order) plus the general title 'คุณกรอกข้อมูลไม่ถูกต้อง'. */
export function validateBankTransfer(values: BankTransferValues, config: BankTransferConfig): FormResult<BankTransferData> & { title: Msg | null } {
  const r = toFormResult(bankTransferSchema(config).safeParse(values));
  return { ...r, title: r.ok ? null : MSG.INVALID_DATA_TITLE };
}
