/**
 * Registration form of the course page (spec 5 "Registration"), built from the site's
 * registerForm toggles, the layout-4 login fields, the admin's custom labels and the tax part.
 */
import { z } from 'zod/mini';
import { MSG, msgOf, type Msg } from '../messages';
import type { MessageKey } from '../messages';
import type { CustomLabel, Flag, RegisterFieldToggle, RegisterFormField, RegisterFormSettings, TaxInfo } from '../types';
import { isOn } from '../values';
import type { FieldError, FormResult } from './common';
import { addMsgIssue, filled, isEmail, isFilledValue, text, textField, toFormResult } from './common';
import type { Rule } from './common';
import { NAME_MAX, taxInvoiceErrors } from './tax-invoice';

/** decisions.md #6: letters, digits and @ - _ . for layout-4 username and password. */
export const LOGIN_CHARS = /^[A-Za-z0-9@._-]+$/u;
export const PASSWORD_MIN = 6;

export interface RegistrationConfig {
  /** The site's registerForm toggles. A missing toggle: firstname/lastname enabled and required, others off. */
  registerForm?: RegisterFormSettings | null;
  /** The student must choose a user group (studentGroupKpi). */
  is_student_select_group?: Flag;
  /** Layout-4 registration with username, password and confirmation. */
  withLogin?: boolean;
  /** Admin-defined extra fields. */
  customLabels?: readonly CustomLabel[];
  /** The tax-invoice part is on (tax system, add-on and site tax invoice enabled). */
  taxInvoice?: boolean;
  /** The one configured host where the phone minimum is skipped (spec 5): 1-10 digits. */
  skipPhoneMinimum?: boolean;
}

/** A custom label answer as the page keeps it (the payload's customLabel JSON holds these). */
export interface CustomLabelAnswer {
  id: number;
  value: unknown;
}

export interface RegistrationValues extends TaxInfo {
  firstname?: string | null;
  lastname?: string | null;
  email?: string | null;
  tel?: string | null;
  nickname?: string | null;
  address?: string | null;
  /** Chosen user group id. */
  studentGroupKpi?: number | string | null;
  /** Uploaded profile image file name(s). */
  displayImgUrl?: string | readonly unknown[] | null;
  username?: string | null;
  password?: string | null;
  confirm_password?: string | null;
  /** Answers to custom labels: a list, or the payload's JSON text. */
  customLabel?: readonly CustomLabelAnswer[] | string | null;
  is_require_tax_invoice?: Flag;
}

export type InvalidGroup = 'contact' | 'login' | 'tax';

/** How the site settings set one registration field: asked and required, asked and optional, or not asked. */
export type FieldUse = 'required' | 'optional' | 'off';

/** The site settings' `registerForm` (spec 3 "Site settings") from each field's use. */
export function registerFormOf(uses: Record<RegisterFormField, FieldUse>): Record<RegisterFormField, RegisterFieldToggle> {
  const toggle = (use: FieldUse): RegisterFieldToggle => ({ is_enable: use !== 'off', is_require: use === 'required' });
  return {
    firstname: toggle(uses.firstname),
    lastname: toggle(uses.lastname),
    nickname: toggle(uses.nickname),
    tel: toggle(uses.tel),
    address: toggle(uses.address),
    image_profile: toggle(uses.image_profile),
  };
}

export function fieldToggle(config: RegistrationConfig, field: RegisterFormField): { enabled: boolean; required: boolean } {
  const t = config.registerForm?.[field];
  if (!t) return field === 'firstname' || field === 'lastname' ? { enabled: true, required: true } : { enabled: false, required: false };
  const enabled = isOn(t.is_enable);
  return { enabled, required: enabled && isOn(t.is_require) };
}

function answers(raw: RegistrationValues['customLabel']): CustomLabelAnswer[] {
  if (!raw) return [];
  if (typeof raw !== 'string') return [...raw];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as CustomLabelAnswer[]) : [];
  } catch {
    return [];
  }
}

/** Spec 5: "Custom labels marked required must be filled (empty value or list is invalid)". */
export function customLabelErrors(labels: readonly CustomLabel[], raw: RegistrationValues['customLabel']): FieldError[] {
  const given = answers(raw);
  const errors: FieldError[] = [];
  const ordered = [...labels].sort((a, b) => (a.order_label ?? 0) - (b.order_label ?? 0));
  for (const label of ordered) {
    if (!isOn(label.required)) continue;
    const answer = given.find((a) => a.id === label.id);
    if (!isFilledValue(answer?.value)) errors.push({ path: `customLabel.${label.id}`, message: msgOf('CUSTOM_FIELD_REQUIRED', { label: label.label }) });
  }
  return errors;
}

const req = (key: MessageKey): Rule => [filled, MSG[key]];
const maxName: Rule = [(v) => v.length <= NAME_MAX, MSG.NAME_TOO_LONG];

/** zod schema for this site's registration form. */
export function registrationSchema(config: RegistrationConfig = {}) {
  const t = (f: RegisterFormField) => fieldToggle(config, f);
  const opt = (on: boolean, rules: Rule[]) => (on ? rules : []);
  const phoneRe = config.skipPhoneMinimum ? /^\d{1,10}$/u : /^\d{9,10}$/u;

  return z
    .looseObject({
      firstname: textField([...opt(t('firstname').required, [req('FIRSTNAME_REQUIRED')]), maxName]),
      lastname: textField([...opt(t('lastname').required, [req('LASTNAME_REQUIRED')]), maxName]),
      email: textField([req('EMAIL_REQUIRED'), [isEmail, MSG.EMAIL_INVALID]]),
      tel: textField(
        t('tel').enabled
          ? [...opt(t('tel').required, [req('TEL_REQUIRED')]), [(v) => v === '' || phoneRe.test(v), MSG.TEL_INVALID]]
          : [],
      ),
      nickname: textField(opt(t('nickname').required, [req('NICKNAME_REQUIRED')])),
      address: textField(opt(t('address').required, [req('ADDRESS_REQUIRED')])),
      studentGroupKpi: z.nullish(z.union([z.number(), z.string()])),
      displayImgUrl: z.nullish(z.union([z.string(), z.array(z.unknown())])),
      username: config.withLogin ? textField([req('USERNAME_REQUIRED'), [(v) => LOGIN_CHARS.test(v), MSG.USERNAME_INVALID]]) : text,
      password: config.withLogin
        ? textField([
            req('PASSWORD_REQUIRED'),
            [(v) => LOGIN_CHARS.test(v), MSG.PASSWORD_INVALID],
            [(v) => v.length >= PASSWORD_MIN, MSG.PASSWORD_TOO_SHORT],
          ])
        : text,
      confirm_password: text,
      customLabel: z.nullish(z.union([z.string(), z.array(z.looseObject({ id: z.number(), value: z.unknown() }))])),
      is_require_tax_invoice: z.nullish(z.union([z.boolean(), z.number(), z.string()])),
    })
    .check(
      z.superRefine((v, ctx) => {
        const add = (e: FieldError) => addMsgIssue(ctx, e.message, e.path.split('.'));
        if (isOn(config.is_student_select_group) && !isFilledValue(v.studentGroupKpi)) add({ path: 'studentGroupKpi', message: MSG.USER_GROUP_REQUIRED });
        if (t('image_profile').required && !isFilledValue(v.displayImgUrl)) add({ path: 'displayImgUrl', message: MSG.PROFILE_PICTURE_REQUIRED });
        if (config.withLogin) {
          if (v.confirm_password === '') add({ path: 'confirm_password', message: MSG.PASSWORD_CONFIRM_REQUIRED });
          else if (v.confirm_password !== v.password) add({ path: 'confirm_password', message: MSG.PASSWORD_MISMATCH });
        }
        customLabelErrors(config.customLabels ?? [], v.customLabel as RegistrationValues['customLabel']).forEach(add);
        if (config.taxInvoice && isOn(v.is_require_tax_invoice as Flag)) taxInvoiceErrors(v as TaxInfo).forEach(add);
      }),
    );
}

export type RegistrationData = z.output<ReturnType<typeof registrationSchema>>;

const LOGIN_FIELDS = ['username', 'password', 'confirm_password'];

/** Spec 5: "Invalid-data notifications are split into contact info, login info and tax invoice." */
export function groupOf(path: string): InvalidGroup {
  if (path.startsWith('tax_')) return 'tax';
  if (LOGIN_FIELDS.includes(path)) return 'login';
  return 'contact';
}

export const GROUP_MESSAGE: Readonly<Record<InvalidGroup, Msg>> = {
  contact: MSG.INVALID_CONTACT_INFO,
  login: MSG.INVALID_LOGIN_INFO,
  tax: MSG.TAX_INVOICE_INVALID,
};

export type RegistrationResult = FormResult<RegistrationData> & {
  /** The invalid groups in the order contact, login, tax, with their notification text. */
  groups: { group: InvalidGroup; message: Msg; errors: FieldError[] }[];
};

/** Validate the registration values: { ok, errors, groups }. */
export function validateRegistration(values: RegistrationValues, config: RegistrationConfig = {}): RegistrationResult {
  const r = toFormResult(registrationSchema(config).safeParse(values));
  const order: InvalidGroup[] = ['contact', 'login', 'tax'];
  const groups = r.ok
    ? []
    : order
        .map((group) => ({ group, message: GROUP_MESSAGE[group], errors: r.errors.filter((e) => groupOf(e.path) === group) }))
        .filter((g) => g.errors.length > 0);
  return { ...r, groups };
}
