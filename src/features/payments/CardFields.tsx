import { digitsOnly } from '../../../domain/forms/card';
import type { FieldError } from '../../../domain/forms/common';
import { t } from '../../i18n/messages';
import { Field } from '../../ui';

const onlyDigits = (max: number) => (event: React.FormEvent<HTMLInputElement>) => {
  const el = event.currentTarget;
  const next = digitsOnly(el.value, max);
  if (next !== el.value) el.value = next;
};

export interface CardFieldsProps {
  errors: readonly FieldError[];
  /** 2C2P: fields carry data-encrypt and no name (never submitted anywhere). */
  encrypt?: boolean;
  withName?: boolean;
  disabled?: boolean;
}

function errorOf(errors: readonly FieldError[], path: string): string | null {
  return errors.find((e) => e.path === path)?.message ?? null;
}

/**
 * Card number (max 16), month MM (2), year YYYY (4), CVV (4, masked). Uncontrolled: the digits
 * stay in the inputs and are read once at submit, never kept in state or in a machine.
 */
export function CardFields({ errors, encrypt = false, withName = false, disabled = false }: CardFieldsProps) {
  const attr = (name: string, encryptName: string) => (encrypt ? { 'data-encrypt': encryptName } : { name });
  return (
    <div className="card-fields">
      {withName ? (
        <Field label={t('cardName')} error={errorOf(errors, 'name')} required>
          {(c) => <input className="ui-input" {...c} name="name" autoComplete="cc-name" disabled={disabled} data-testid="card-name" />}
        </Field>
      ) : null}
      <Field label={t('cardNumber')} error={errorOf(errors, 'number')} required>
        {(c) => (
          <input
            className="ui-input"
            {...c}
            {...attr('number', 'cardnumber')}
            inputMode="numeric"
            autoComplete="cc-number"
            maxLength={16}
            onInput={onlyDigits(16)}
            disabled={disabled}
            data-testid="card-number"
          />
        )}
      </Field>
      <div className="card-fields__row">
        <Field label={t('cardMonth')} error={errorOf(errors, 'month')} required>
          {(c) => <input className="ui-input" {...c} {...attr('month', 'month')} inputMode="numeric" autoComplete="cc-exp-month" maxLength={2} placeholder="MM" onInput={onlyDigits(2)} disabled={disabled} data-testid="card-month" />}
        </Field>
        <Field label={t('cardYear')} error={errorOf(errors, 'year')} required>
          {(c) => <input className="ui-input" {...c} {...attr('year', 'year')} inputMode="numeric" autoComplete="cc-exp-year" maxLength={4} placeholder="YYYY" onInput={onlyDigits(4)} disabled={disabled} data-testid="card-year" />}
        </Field>
        <Field label={t('cardCvv')} error={errorOf(errors, 'cvv')} required>
          {(c) => <input className="ui-input" {...c} {...attr('cvv', 'cvv')} type="password" inputMode="numeric" autoComplete="cc-csc" maxLength={4} onInput={onlyDigits(4)} disabled={disabled} data-testid="card-cvv" />}
        </Field>
      </div>
    </div>
  );
}
