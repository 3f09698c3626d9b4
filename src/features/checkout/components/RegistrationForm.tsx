import { useEffect, useId, useRef, useState } from 'react';
import { TAX_ID_LENGTH } from '../../../../domain/tax';
import type { RegistrationConfig, RegistrationValues } from '../../../../domain/forms/registration';
import { fieldToggle } from '../../../../domain/forms/registration';
import type { FieldError } from '../../../../domain/forms/common';
import { t } from '../../../i18n/messages';
import { Alert, ChoiceGroup, SelectField, TextAreaField, TextField } from '../../../ui';
import type { CustomLabel, UserGroup } from '../purchase-data';
import { UploadField } from './UploadField';
import type { Shown } from '../../../../domain/messages';

function options(label: CustomLabel): string[] {
  const list = label.item_list as unknown;
  if (Array.isArray(list)) return list.map(String);
  if (typeof list === 'string') {
    try {
      const parsed: unknown = JSON.parse(list);
      return Array.isArray(parsed) ? parsed.map(String) : [];
    } catch {
      return [];
    }
  }
  return [];
}

const isRequired = (l: CustomLabel) => l.required === 1 || (l.required as unknown) === true || (l.required as unknown) === '1';

/** Reads the registration values from the form (custom labels as [{ id, value }]). */
export function readRegistration(form: HTMLFormElement, labels: readonly CustomLabel[]): RegistrationValues {
  const data = new FormData(form);
  const s = (name: string) => {
    const v = data.get(name);
    return typeof v === 'string' ? v : '';
  };
  const customLabel = [...labels]
    .sort((a, b) => (a.order_label ?? 0) - (b.order_label ?? 0))
    .map((l) => {
      const key = `customLabel.${l.id}`;
      const multi = l.type_label === 'multiple' || l.type_label === 'checkbox';
      return { id: l.id, value: multi ? data.getAll(key).map(String) : s(key) };
    });
  const tax = data.get('is_require_tax_invoice') === 'on';
  return {
    firstname: s('firstname'),
    lastname: s('lastname'),
    email: s('email'),
    tel: s('tel'),
    nickname: s('nickname'),
    address: s('address'),
    studentGroupKpi: s('studentGroupKpi') || null,
    displayImgUrl: s('displayImgUrl') || null,
    username: s('username'),
    password: s('password'),
    confirm_password: s('confirm_password'),
    customLabel,
    is_require_tax_invoice: tax,
    ...(tax
      ? {
          tax_person_type: s('tax_person_type') || 'normal_person',
          tax_name_one: s('tax_name_one'),
          tax_name_two: s('tax_name_two'),
          tax_payer_identification_no: s('tax_payer_identification_no'),
          tax_address: s('tax_address'),
          tax_is_delivery_by_tax_address: data.get('tax_is_delivery_by_tax_address') === 'on',
          tax_delivery_address: s('tax_delivery_address'),
          tax_company_certificate: s('tax_company_certificate') || null,
        }
      : {}),
  };
}

function CustomLabelField({ label, error, prefix }: { label: CustomLabel; error: Shown | null; prefix: string }) {
  const name = `customLabel.${label.id}`;
  const required = isRequired(label);
  const items = options(label);
  const id = `${prefix}-cl-${label.id}`;
  switch (label.type_label) {
    case 'select':
      return (
        <SelectField id={id} label={label.label} name={name} required={required} error={error} defaultValue="" options={items.map((o) => ({ value: o, label: o }))} />
      );
    case 'multiple':
    case 'checkbox':
    case 'radio':
      return (
        <ChoiceGroup legend={label.label} required={required} error={error}>
          {items.map((o) => (
            <label key={o}>
              <input type={label.type_label === 'radio' ? 'radio' : 'checkbox'} name={name} value={o} /> {o}
            </label>
          ))}
        </ChoiceGroup>
      );
    case 'image':
      return <UploadField name={name} label={label.label} required={required} error={error} />;
    default:
      return <TextField id={id} label={label.label} name={name} required={required} error={error} />;
  }
}

export interface RegistrationFieldsProps {
  config: RegistrationConfig;
  customLabels: readonly CustomLabel[];
  userGroups: readonly UserGroup[];
  errors: readonly FieldError[];
  disabled?: boolean;
  /** The buyer chose withholding tax: the tax part says it needs a juristic person, before any account exists. */
  withholdingChosen?: boolean;
}

/** The tax id as people write it: digits only (spaces and dashes dropped, letters refused), 13 at most; pasted text is not cut first. */
const taxIdInput = (event: React.FormEvent<HTMLInputElement>) => {
  const el = event.currentTarget;
  const next = el.value.replace(/\D/gu, '').slice(0, TAX_ID_LENGTH);
  if (next !== el.value) el.value = next;
};

/**
 * The tax-invoice part: the person type first; changing it clears the tax fields (spec 5: they are
 * remounted empty, the certificate too). The company certificate is asked of juristic persons only.
 */
function TaxPart({ prefix, err, withholdingChosen }: { prefix: string; err: (path: string) => Shown | null; withholdingChosen: boolean }) {
  const [personType, setPersonType] = useState<'normal_person' | 'juristic_person'>('normal_person');
  const [cleared, setCleared] = useState(false);
  const juristic = personType === 'juristic_person';
  // Withholding needs a juristic tax invoice: choosing it opens the tax part here, before any account exists.
  const invoiceBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (withholdingChosen && invoiceBox.current) invoiceBox.current.checked = true;
  }, [withholdingChosen]);
  const choose = (next: 'normal_person' | 'juristic_person') => {
    if (next === personType) return;
    setPersonType(next);
    setCleared(true);
  };
  return (
    <div className="tax-part" data-testid="tax-part">
      <label className="check">
        <input type="checkbox" name="is_require_tax_invoice" ref={invoiceBox} data-testid="request-tax-invoice" /> {t('requestTaxInvoice')}
      </label>
      {withholdingChosen && !juristic ? (
        <Alert data-testid="withholding-needs-juristic">
          {t('l4WithholdingNeedsJuristic')}
        </Alert>
      ) : null}
      <div className="tax-part__fields">
        <ChoiceGroup legend={t('personType')} error={err('tax_person_type')}>
          <label>
            <input type="radio" name="tax_person_type" value="normal_person" checked={!juristic} onChange={() => choose('normal_person')} /> {t('normalPerson')}
          </label>
          <label>
            <input type="radio" name="tax_person_type" value="juristic_person" checked={juristic} onChange={() => choose('juristic_person')} /> {t('juristicPerson')}
          </label>
        </ChoiceGroup>
        {cleared ? (
          <p className="ui-muted" role="status" data-testid="person-type-cleared">
            {t('l4PersonTypeCleared')}
          </p>
        ) : null}
        <div key={personType}>
          <div className="form-grid">
            <TextField id={`${prefix}-tax1`} label={`${t('companyName')} / ${t('firstname')}`} name="tax_name_one" autoComplete={juristic ? 'organization' : 'given-name'} error={err('tax_name_one')} />
            <TextField id={`${prefix}-tax2`} label={`${t('branch')} / ${t('lastname')}`} name="tax_name_two" autoComplete={juristic ? 'off' : 'family-name'} error={err('tax_name_two')} />
          </div>
          <TextField
            id={`${prefix}-taxid`}
            label={`${t('taxId')} / ${t('citizenId')}`}
            name="tax_payer_identification_no"
            inputMode="numeric"
            autoComplete="off"
            hint={t('l4TaxIdHint')}
            onInput={taxIdInput}
            error={err('tax_payer_identification_no')}
            data-testid="tax-id"
          />
          <TextAreaField id={`${prefix}-taxaddr`} label={t('taxAddress')} name="tax_address" error={err('tax_address')} />
          <label className="check">
            <input type="checkbox" name="tax_is_delivery_by_tax_address" defaultChecked /> {t('deliveryByTaxAddress')}
          </label>
          <TextAreaField id={`${prefix}-taxdel`} label={t('deliveryAddress')} name="tax_delivery_address" error={err('tax_delivery_address')} fieldClassName="tax-part__delivery" />
          {juristic ? <UploadField name="tax_company_certificate" label={t('companyCertificate')} error={err('tax_company_certificate')} /> : null}
        </div>
      </div>
    </div>
  );
}

/**
 * The registration inputs of the purchase area and the registration modal: the site's
 * registerForm fields, e-mail (always), user group, the admin's custom labels (rendered from the
 * server), username/password for a layout-4 registration with login, and the tax-invoice part.
 */
export function RegistrationFields({ config, customLabels, userGroups, errors, disabled, withholdingChosen = false }: RegistrationFieldsProps) {
  const prefix = `r${useId().replace(/:/g, '')}`;
  const err = (path: string) => errors.find((e) => e.path === path)?.message ?? null;
  const f = (field: Parameters<typeof fieldToggle>[1]) => fieldToggle(config, field);
  const text = (name: 'firstname' | 'lastname' | 'nickname' | 'tel', label: string, extra: Record<string, unknown> = {}) =>
    f(name).enabled ? <TextField id={`${prefix}-${name}`} label={label} name={name} required={f(name).required} error={err(name)} disabled={disabled} {...extra} /> : null;
  const defaultGroup = userGroups.find((g) => g.is_default)?.id;
  return (
    <fieldset className="registration" disabled={disabled}>
      <legend className="registration__legend">{t('contactInfo')}</legend>
      <div className="form-grid">
        {text('firstname', t('firstname'), { autoComplete: 'given-name', maxLength: 255 })}
        {text('lastname', t('lastname'), { autoComplete: 'family-name', maxLength: 255 })}
        <TextField id={`${prefix}-email`} label={t('email')} name="email" type="email" autoComplete="email" required error={err('email')} />
        {text('tel', t('tel'), { type: 'tel', inputMode: 'numeric', autoComplete: 'tel', maxLength: 10 })}
        {text('nickname', t('nickname'))}
      </div>
      {f('address').enabled ? <TextAreaField id={`${prefix}-address`} label={t('address')} name="address" required={f('address').required} error={err('address')} autoComplete="street-address" /> : null}
      {f('image_profile').enabled ? <UploadField name="displayImgUrl" label={t('profileImage')} required={f('image_profile').required} error={err('displayImgUrl')} /> : null}
      {config.is_student_select_group && userGroups.length > 0 ? (
        <SelectField id={`${prefix}-group`} label={t('userGroup')} name="studentGroupKpi" required error={err('studentGroupKpi')} defaultValue={defaultGroup ?? ''} options={userGroups.map((g) => ({ value: g.id, label: g.name }))} />
      ) : null}
      {[...customLabels]
        .sort((a, b) => (a.order_label ?? 0) - (b.order_label ?? 0))
        .map((l) => (
          <CustomLabelField key={l.id} label={l} error={err(`customLabel.${l.id}`)} prefix={prefix} />
        ))}
      {config.withLogin ? (
        <fieldset className="registration__login">
          <legend className="registration__legend">{t('loginInfo')}</legend>
          <TextField id={`${prefix}-username`} label={t('username')} name="username" autoComplete="username" hint={t('usernameHint')} required error={err('username')} />
          <div className="form-grid">
            <TextField id={`${prefix}-password`} label={t('password')} name="password" type="password" autoComplete="new-password" hint={t('usernameHint')} required error={err('password')} />
            <TextField id={`${prefix}-confirm`} label={t('passwordConfirm')} name="confirm_password" type="password" autoComplete="new-password" required error={err('confirm_password')} />
          </div>
        </fieldset>
      ) : null}
      {config.taxInvoice ? (
        <TaxPart prefix={prefix} err={err} withholdingChosen={withholdingChosen} />
      ) : null}
    </fieldset>
  );
}
