/**
 * Registration rules the JSON schema cannot express (spec section 5): the site's registerForm
 * toggles, the user-group choice, required custom labels, layout-4 username/password, tax invoice
 * fields — answered as ValidationIssue lists with the spec's messages (domain/messages.ts) — and
 * the account limits (OVER_LIMIT_USER, ERROR_CREATE_USER_IN_DAY).
 */
import type { components } from '../../generated/api';
import { MESSAGES } from '../../domain/messages';
import { validateTaxId } from '../../domain/tax';
import type { StoredSettings } from '../repos/settings';

type Payload = components['schemas']['RegistrationPayload'];
export interface Issue {
  field: string;
  msg: string;
}

export interface CustomLabelDef {
  id: number;
  type_label: string;
  label: string;
  required: number;
  item_list: string[];
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Parses the legacy `customLabel` JSON text; null when it is not a list of { id, value }. */
export function parseCustomLabels(text: string | undefined): { id: number; value: string | string[] }[] | null {
  if (text === undefined || text.trim() === '') return [];
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(v)) return null;
  const out: { id: number; value: string | string[] }[] = [];
  for (const item of v) {
    if (typeof item !== 'object' || item === null) return null;
    const { id, value } = item as { id?: unknown; value?: unknown };
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return null;
    if (typeof value === 'string' || (Array.isArray(value) && value.every((x) => typeof x === 'string'))) out.push({ id, value: value as string | string[] });
    else if (value === null || value === undefined) out.push({ id, value: '' });
    else return null;
  }
  return out;
}

export function contactIssues(body: Payload, settings: StoredSettings, groups: { id: number }[], labels: CustomLabelDef[]): Issue[] {
  const issues: Issue[] = [];
  const form = settings.registerForm;
  const need = (key: keyof typeof form) => !!form[key]?.is_enable && !!form[key]?.is_require;
  if (need('nickname') && blank(body.nickname)) issues.push({ field: 'nickname', msg: MESSAGES.NICKNAME_REQUIRED });
  if (need('tel') && blank(body.tel)) issues.push({ field: 'tel', msg: MESSAGES.TEL_REQUIRED });
  if (need('address') && blank(body.address)) issues.push({ field: 'address', msg: MESSAGES.ADDRESS_REQUIRED });
  if (need('image_profile') && blank(body.displayImgUrl)) issues.push({ field: 'displayImgUrl', msg: MESSAGES.PROFILE_PICTURE_REQUIRED });
  if (settings.is_student_select_group && groups.length > 0) {
    if (body.studentGroupKpi === undefined || body.studentGroupKpi === null) issues.push({ field: 'studentGroupKpi', msg: MESSAGES.USER_GROUP_REQUIRED });
    else if (!groups.some((g) => g.id === body.studentGroupKpi)) issues.push({ field: 'studentGroupKpi', msg: MESSAGES.USER_GROUP_REQUIRED });
  }
  const values = parseCustomLabels(body.customLabel);
  if (values === null) {
    issues.push({ field: 'customLabel', msg: MESSAGES.CUSTOM_LABEL_REQUIRED });
  } else {
    for (const l of labels) {
      const v = values.find((x) => x.id === l.id)?.value;
      const empty = v === undefined || (typeof v === 'string' ? v.trim() === '' : v.length === 0);
      if (l.required === 1 && empty) issues.push({ field: `customLabel.${l.id}`, msg: `${MESSAGES.CUSTOM_LABEL_REQUIRED}: ${l.label}` });
      if (!empty && ['select', 'radio'].includes(l.type_label) && typeof v === 'string' && l.item_list.length > 0 && !l.item_list.includes(v)) {
        issues.push({ field: `customLabel.${l.id}`, msg: `${l.label}: ${v}` });
      }
    }
  }
  return issues;
}

export function taxIssues(body: Payload): Issue[] {
  if (!body.is_require_tax_invoice) return [];
  const issues: Issue[] = [];
  const type = body.tax_person_type ?? null;
  if (!type) issues.push({ field: 'tax_person_type', msg: MESSAGES.TAX_PERSON_TYPE_REQUIRED });
  const juristic = type === 'juristic_person';
  if (blank(body.tax_name_one)) issues.push({ field: 'tax_name_one', msg: juristic ? MESSAGES.TAX_COMPANY_NAME_REQUIRED : MESSAGES.TAX_FIRSTNAME_REQUIRED });
  if (blank(body.tax_name_two)) issues.push({ field: 'tax_name_two', msg: juristic ? MESSAGES.TAX_BRANCH_REQUIRED : MESSAGES.TAX_LASTNAME_REQUIRED });
  const id = validateTaxId(body.tax_payer_identification_no ?? '', type);
  if (!id.ok) issues.push({ field: 'tax_payer_identification_no', msg: id.message });
  if (blank(body.tax_address)) issues.push({ field: 'tax_address', msg: MESSAGES.TAX_ADDRESS_REQUIRED });
  if (body.tax_is_delivery_by_tax_address === false && blank(body.tax_delivery_address)) issues.push({ field: 'tax_delivery_address', msg: MESSAGES.TAX_DELIVERY_ADDRESS_REQUIRED });
  if (juristic && blank(body.tax_company_certificate)) issues.push({ field: 'tax_company_certificate', msg: MESSAGES.TAX_COMPANY_CERTIFICATE_REQUIRED });
  return issues;
}

/** Tax fields of updateStudentTax (same rules as the registration's tax part). */
export function taxInfoIssues(body: components['schemas']['TaxInfo']): Issue[] {
  return taxIssues({ firstname: 'x', lastname: 'x', email: 'x@x.x', ...body } as Payload);
}

/** Start of the current day in Thai local time (UTC+7), as a UTC instant. */
export function startOfThaiDay(now: Date): Date {
  const bkk = new Date(now.getTime() + 7 * 3_600_000);
  return new Date(Date.UTC(bkk.getUTCFullYear(), bkk.getUTCMonth(), bkk.getUTCDate()) - 7 * 3_600_000);
}
