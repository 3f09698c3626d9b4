/**
 * Tax invoice form (spec 5 "Tax invoice"): person type, two names (company wording for a juristic
 * person, first/last name for a normal person), 13-digit payer id, address, delivery address
 * when delivered elsewhere, company certificate for juristic persons.
 * General message 'ข้อมูลใบกำกับภาษีไม่ถูกต้อง'.
 */
import { z } from 'zod/mini';
import { MSG, type Msg } from '../messages';
import { isJuristicPerson, validateTaxId } from '../tax';
import type { TaxInfo } from '../types';
import type { FieldError, FormResult } from './common';
import { addMsgIssue, isFilledValue, text, toFormResult } from './common';

export const NAME_MAX = 255;

export interface TaxInvoiceOptions {
  /** Juristic persons must upload the company certificate (default true). */
  requireCompanyCertificate?: boolean;
}

/** Delivery by another address only when tax_is_delivery_by_tax_address is explicitly off. */
function deliversElsewhere(flag: unknown): boolean {
  return flag === false || flag === 0 || flag === '0' || flag === 'false';
}

/** The tax-invoice checks in order; used by the tax modal and by registration. */
export function taxInvoiceErrors(values: TaxInfo, options: TaxInvoiceOptions = {}): FieldError[] {
  const errors: FieldError[] = [];
  const add = (path: keyof TaxInfo, message: Msg) => errors.push({ path, message });
  const type = (values.tax_person_type ?? '').trim();
  const juristic = isJuristicPerson(type);
  const one = (values.tax_name_one ?? '').trim();
  const two = (values.tax_name_two ?? '').trim();

  if (type === '') add('tax_person_type', MSG.TAX_PERSON_TYPE_REQUIRED);
  if (one === '') add('tax_name_one', juristic ? MSG.TAX_COMPANY_NAME_REQUIRED : MSG.TAX_FIRSTNAME_REQUIRED);
  else if (one.length > NAME_MAX) add('tax_name_one', MSG.NAME_TOO_LONG);
  if (two === '') add('tax_name_two', juristic ? MSG.TAX_BRANCH_REQUIRED : MSG.TAX_LASTNAME_REQUIRED);
  else if (two.length > NAME_MAX) add('tax_name_two', MSG.NAME_TOO_LONG);
  const id = validateTaxId(values.tax_payer_identification_no, juristic ? 'juristic_person' : 'normal_person');
  if (!id.ok) add('tax_payer_identification_no', id.message);
  if ((values.tax_address ?? '').trim() === '') add('tax_address', MSG.TAX_ADDRESS_REQUIRED);
  if (deliversElsewhere(values.tax_is_delivery_by_tax_address) && (values.tax_delivery_address ?? '').trim() === '') {
    add('tax_delivery_address', MSG.TAX_DELIVERY_ADDRESS_REQUIRED);
  }
  if (juristic && (options.requireCompanyCertificate ?? true) && !isFilledValue(values.tax_company_certificate)) {
    add('tax_company_certificate', MSG.TAX_COMPANY_CERTIFICATE_REQUIRED);
  }
  return errors;
}

const fileValue = z.nullish(z.union([z.string(), z.array(z.unknown())]));

/** zod schema of the tax form; the output has trimmed texts and a normalised payer id. */
export function taxInvoiceSchema(options: TaxInvoiceOptions = {}) {
  return z
    .object({
      tax_person_type: text,
      tax_name_one: text,
      tax_name_two: text,
      tax_payer_identification_no: z.pipe(text, z.transform((v: string) => v.replace(/[\s-]/gu, ''))),
      tax_address: text,
      tax_is_delivery_by_tax_address: z.nullish(z.union([z.boolean(), z.number(), z.string()])),
      tax_delivery_address: text,
      tax_company_certificate: fileValue,
    })
    .check(
      z.superRefine((v, ctx) => {
        for (const e of taxInvoiceErrors(v, options)) addMsgIssue(ctx, e.message, [e.path]);
      }),
    );
}

export type TaxInvoiceData = z.output<ReturnType<typeof taxInvoiceSchema>>;

/** { ok, errors } plus the general message 'ข้อมูลใบกำกับภาษีไม่ถูกต้อง' when invalid. */
export function validateTaxInvoice(values: TaxInfo, options: TaxInvoiceOptions = {}): FormResult<TaxInvoiceData> & { message: Msg | null } {
  const r = toFormResult(taxInvoiceSchema(options).safeParse(values));
  return { ...r, message: r.ok ? null : MSG.TAX_INVOICE_INVALID };
}
