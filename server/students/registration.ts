/**
 * Server side of registration and tax forms: the rules are domain/forms' (validateRegistration,
 * taxInvoiceErrors); this module adapts the site settings and custom labels to them and turns
 * the field errors into the contract's ValidationIssue lists.
 */
import type { components } from '../../generated/api';
import { validateRegistration, taxInvoiceErrors, type FieldError } from '../../domain/forms/index';
import type { CustomLabel, TaxInfo } from '../../domain/types';
import type { Shown } from '../../domain/messages';
import type { CustomLabelDef, StoredSettings } from '../repos/settings';

type Payload = components['schemas']['RegistrationPayload'];
export interface Issue {
  field: string;
  msg: Shown;
}


const toIssues = (errors: readonly FieldError[]): Issue[] => errors.map((e) => ({ field: e.path, msg: e.message }));

/** Parses the legacy `customLabel` JSON text for storage; null when it is not a list of { id, value }. */
export function parseCustomLabels(text: string | undefined): { id: number; value: unknown }[] | null {
  if (text === undefined || text.trim() === '') return [];
  try {
    const v: unknown = JSON.parse(text);
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'object' && x !== null && Number.isSafeInteger((x as { id?: unknown }).id))) return null;
    return (v as { id: number; value: unknown }[]).map(({ id, value }) => ({ id, value }));
  } catch {
    return null;
  }
}

export interface RegistrationIssues {
  contact: Issue[];
  login: Issue[];
  tax: Issue[];
}

/** Spec 5 registration rules with this site's toggles, groups and custom labels (domain/forms). */
export function registrationIssues(body: Payload, settings: StoredSettings, labels: CustomLabelDef[]): RegistrationIssues {
  const out: RegistrationIssues = { contact: [], login: [], tax: [] };
  if (parseCustomLabels(body.customLabel) === null) out.contact.push({ field: 'customLabel', msg: 'customLabel must be a JSON list of { id, value }' });
  const r = validateRegistration(body, {
    registerForm: settings.registerForm,
    is_student_select_group: settings.is_student_select_group,
    withLogin: false, // username/password format is the contract's (INVALID_FORMAT_*); no confirmation field is sent
    customLabels: labels as CustomLabel[],
    taxInvoice: settings.is_enable_tax_invoice,
  });
  for (const g of r.groups) out[g.group].push(...toIssues(g.errors));
  return out;
}

/** Tax invoice fields (updateStudentTax, an order needing an invoice). */
export function taxInfoIssues(info: TaxInfo): Issue[] {
  return toIssues(taxInvoiceErrors(info));
}

/** Start of the current day in Thai local time (UTC+7), as a UTC instant. */
export function startOfThaiDay(now: Date): Date {
  const bkk = new Date(now.getTime() + 7 * 3_600_000);
  return new Date(Date.UTC(bkk.getUTCFullYear(), bkk.getUTCMonth(), bkk.getUTCDate()) - 7 * 3_600_000);
}
