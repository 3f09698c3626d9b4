/**
 * What the API says when a request breaks its contract: the spec's messages (domain/messages.ts),
 * never the validator's own wording ("must match format \"date\""). They are kept by key here
 * (`Msg`); the error handler renders them in the request's language (server/errors.ts `renderError`). Each field-level detail stays under `result` as
 * `{ field, msg, rule }` (rule: the schema keyword that failed, e.g. required, pattern).
 */
import type { ErrorObject } from 'ajv';
import { MSG, type MessageKey, type Msg } from '../../domain/messages';
import { validateTaxId } from '../../domain/tax';

export interface LocalIssue {
  field: string;
  msg: Msg | string;
  rule?: string;
}

/** Per field (first segment of the path): the message when it is missing and when it is invalid. */
const FIELD_MESSAGES: Record<string, { required: MessageKey; invalid?: MessageKey; tooLong?: MessageKey; tooShort?: MessageKey }> = {
  // Bank-transfer notice (spec 5)
  slip: { required: 'SLIP_REQUIRED', invalid: 'ONE_FILE_ONLY' },
  contact_name: { required: 'CONTACT_NAME_REQUIRED' },
  transfer_amount: { required: 'TRANSFER_AMOUNT_REQUIRED' },
  bank_code: { required: 'ORIGIN_BANK_REQUIRED' },
  bank_account: { required: 'DESTINATION_ACCOUNT_REQUIRED' },
  transfer_datetime: { required: 'TRANSFER_DATE_REQUIRED' },
  time: { required: 'TRANSFER_TIME_REQUIRED' },
  // Registration (spec 5)
  firstname: { required: 'FIRSTNAME_REQUIRED', tooLong: 'NAME_TOO_LONG' },
  lastname: { required: 'LASTNAME_REQUIRED', tooLong: 'NAME_TOO_LONG' },
  nickname: { required: 'NICKNAME_REQUIRED' },
  email: { required: 'EMAIL_REQUIRED', invalid: 'EMAIL_INVALID' },
  tel: { required: 'TEL_REQUIRED', invalid: 'TEL_INVALID' },
  telephone: { required: 'TEL_REQUIRED', invalid: 'TEL_INVALID' },
  address: { required: 'ADDRESS_REQUIRED' },
  username: { required: 'USERNAME_REQUIRED', invalid: 'USERNAME_INVALID' },
  password: { required: 'PASSWORD_REQUIRED', invalid: 'PASSWORD_INVALID', tooShort: 'PASSWORD_TOO_SHORT' },
  studentGroupKpi: { required: 'USER_GROUP_REQUIRED' },
  // Tax invoice (spec 5)
  tax_person_type: { required: 'TAX_PERSON_TYPE_REQUIRED' },
  tax_address: { required: 'TAX_ADDRESS_REQUIRED' },
  tax_delivery_address: { required: 'TAX_DELIVERY_ADDRESS_REQUIRED' },
  tax_company_certificate: { required: 'TAX_COMPANY_CERTIFICATE_REQUIRED' },
  tax_payer_identification_no: { required: 'TAX_ID_EMPTY', invalid: 'TAX_ID_INVALID' },
  withholding_percent: { required: 'WITHHOLDING_PERCENT_INVALID', invalid: 'WITHHOLDING_PERCENT_INVALID' },
  // Cart and order (spec 5, 8)
  payment_method_id: { required: 'DONT_HAVE_PAYMENT' },
  shipping_address_id: { required: 'SHIPPING_ADDRESS_REQUIRED' },
  shipping_fee_id: { required: 'SHIPPING_FEE_REQUIRED' },
  qty: { required: 'INVALID_QTY', invalid: 'INVALID_QTY' },
};

function fieldOf(e: ErrorObject): string {
  let field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'required') field = field ? `${field}.${String(e.params.missingProperty)}` : String(e.params.missingProperty);
  if (e.keyword === 'additionalProperties') field = field ? `${field}.${String(e.params.additionalProperty)}` : String(e.params.additionalProperty);
  return field;
}

/** The last named segment of a path ('lines.0.qty' → 'qty'). */
function leaf(field: string): string {
  const parts = field.split('.').filter((p) => !/^\d+$/.test(p));
  return parts[parts.length - 1] ?? field;
}

function valueAt(body: unknown, field: string): unknown {
  let v: unknown = body;
  for (const p of field.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

/** The spec's message for one failed rule of one field (by key; rendered in the request's language later). */
export function fieldMessage(field: string, rule: string, value: unknown, body: unknown): Msg {
  const name = leaf(field);
  const known = Object.hasOwn(FIELD_MESSAGES, name) ? FIELD_MESSAGES[name] : undefined;
  if (rule === 'additionalProperties') return MSG.FIELD_NOT_ALLOWED;
  const empty = rule === 'required' || value === undefined || value === null || value === '';
  if (name === 'tax_payer_identification_no' && !empty) {
    const personType = valueAt(body, 'tax_person_type');
    const check = validateTaxId(typeof value === 'string' || typeof value === 'number' ? String(value) : '', typeof personType === 'string' ? personType : null);
    return check.ok ? MSG.TAX_ID_INVALID : check.message;
  }
  if (!known) return empty ? MSG.FIELD_REQUIRED : MSG.FIELD_INVALID;
  if (empty || (rule === 'minLength' && !known.tooShort)) return MSG[known.required];
  if (rule === 'maxLength' && known.tooLong) return MSG[known.tooLong];
  if (rule === 'minLength' && known.tooShort) return MSG[known.tooShort];
  return MSG[known.invalid ?? known.required];
}

/** Ajv's errors as the contract's issues, in the spec's words; one issue per field, first failure first. */
export function localIssues(errors: ErrorObject[] | null | undefined, root: string, body: unknown): LocalIssue[] {
  const out: LocalIssue[] = [];
  for (const e of errors ?? []) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const field = fieldOf(e) || root;
    if (out.some((o) => o.field === field)) continue;
    out.push({ field, msg: fieldMessage(field, e.keyword, valueAt(body, field), body), rule: e.keyword });
  }
  return out.slice(0, 20);
}

/** A request without a body where one is required: one issue. */
export function missingBodyIssue(): LocalIssue {
  return { field: 'body', msg: MSG.FIELD_REQUIRED, rule: 'required' };
}
