import { CARD_NUMBER_MAX, caretAfterDigits, digitsOnly, formatCardNumber, splitExpiry } from '../../../domain/forms/card';
import type { FieldError } from '../../../domain/forms/common';
import { t } from '../../i18n/messages';
import { Field } from '../../ui';
import type { Shown } from '../../../domain/messages';

const onlyDigits = (max: number) => (event: React.FormEvent<HTMLInputElement>) => {
  const el = event.currentTarget;
  const next = digitsOnly(el.value, max);
  if (next !== el.value) el.value = next;
};

/**
 * The number as people write it: spaces and dashes typed, pasted or autofilled are accepted (the
 * field has no character limit the browser would cut a pasted "4242 4242 4242 4242" at), then
 * kept to CARD_NUMBER_MAX digits; formatted in groups as typed (2C2P's encrypted field: digits
 * only, as my2c2p.js reads it), the caret kept after the same digit.
 */
const cardNumberInput = (grouped: boolean) => (event: React.FormEvent<HTMLInputElement>) => {
  const el = event.currentTarget;
  const caret = el.selectionStart ?? el.value.length;
  const digitsBefore = el.value.slice(0, caret).replace(/\D/gu, '').length;
  const next = grouped ? formatCardNumber(el.value) : digitsOnly(el.value, CARD_NUMBER_MAX);
  if (next === el.value) return;
  el.value = next;
  if (document.activeElement === el) {
    const at = caretAfterDigits(next, Math.min(digitsBefore, CARD_NUMBER_MAX));
    el.setSelectionRange(at, at);
  }
};

/** The month field also takes a whole expiry ("12/28", "12/2028") and fills the year with it. */
const monthInput = (event: React.FormEvent<HTMLInputElement>) => {
  const el = event.currentTarget;
  const both = splitExpiry(el.value);
  if (both) {
    el.value = both.month;
    const year = el.form?.querySelector<HTMLInputElement>('[data-testid="card-year"]');
    if (year) {
      year.value = both.year;
      year.focus();
    }
    return;
  }
  const next = digitsOnly(el.value, 2);
  if (next !== el.value) el.value = next;
};

/** The year field takes "28" or "2028" (a two-digit year is this century's when the field is left). */
const yearBlur = (event: React.FocusEvent<HTMLInputElement>) => {
  const el = event.currentTarget;
  if (/^\d{2}$/u.test(el.value)) el.value = `20${el.value}`;
};

export interface CardFieldsProps {
  errors: readonly FieldError[];
  /** 2C2P: fields carry data-encrypt and no name (never submitted anywhere). */
  encrypt?: boolean;
  withName?: boolean;
  disabled?: boolean;
}

function errorOf(errors: readonly FieldError[], path: string): Shown | null {
  return errors.find((e) => e.path === path)?.message ?? null;
}

/**
 * Card number (16 digits at most, written as people write it), month MM (2, or a whole expiry),
 * year YYYY (4), CVV (4, masked), with the autocomplete names browsers fill cards by (cc-name,
 * cc-number, cc-exp-month, cc-exp-year, cc-csc). Uncontrolled: the digits stay in the inputs and
 * are read once at submit, never kept in state or in a machine.
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
            type="text"
            inputMode="numeric"
            autoComplete="cc-number"
            autoCorrect="off"
            spellCheck={false}
            onInput={cardNumberInput(!encrypt)}
            disabled={disabled}
            data-testid="card-number"
          />
        )}
      </Field>
      <div className="card-fields__row">
        <Field label={t('cardMonth')} error={errorOf(errors, 'month')} required>
          {(c) => <input className="ui-input" {...c} {...attr('month', 'month')} inputMode="numeric" autoComplete="cc-exp-month" maxLength={7} placeholder="MM" onInput={monthInput} onBlur={(e) => { if (/^\d$/u.test(e.currentTarget.value)) e.currentTarget.value = `0${e.currentTarget.value}`; }} disabled={disabled} data-testid="card-month" />}
        </Field>
        <Field label={t('cardYear')} error={errorOf(errors, 'year')} required>
          {(c) => <input className="ui-input" {...c} {...attr('year', 'year')} inputMode="numeric" autoComplete="cc-exp-year" maxLength={4} placeholder="YYYY" onInput={onlyDigits(4)} onBlur={yearBlur} disabled={disabled} data-testid="card-year" />}
        </Field>
        <Field label={t('cardCvv')} error={errorOf(errors, 'cvv')} required>
          {(c) => <input className="ui-input" {...c} {...attr('cvv', 'cvv')} type="password" inputMode="numeric" autoComplete="cc-csc" maxLength={4} onInput={onlyDigits(4)} disabled={disabled} data-testid="card-cvv" />}
        </Field>
      </div>
    </div>
  );
}
