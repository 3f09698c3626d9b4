import { t, tm } from '../i18n/messages';
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import type { Shown } from '../../domain/messages';

/** The star after the label of a field that must be filled (the control itself says aria-required). */
export function RequiredMark() {
  return (
    <span className="ui-required" aria-hidden="true">
      {' '}
      *
    </span>
  );
}

/** A field's hint, under the control; `id` is what the control's aria-describedby names. */
export function FieldHint({ id, hint }: { id: string; hint?: ReactNode }) {
  return hint ? (
    <p id={id} className="ui-field__hint">
      {hint}
    </p>
  ) : null;
}

/** A field's error, under the control; `alert` announces it as it appears (a control without a form submit). */
export function FieldError({ id, error, alert = false }: { id: string; error?: Shown | null; alert?: boolean }) {
  return error ? (
    <p id={id} className="ui-field__error" role={alert ? 'alert' : undefined}>
      {tm(error)}
    </p>
  ) : null;
}

/** What a Field hands its control: id, the description links and the invalid flag. */
export interface FieldControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
  'aria-required': true | undefined;
}

export interface FieldProps {
  label: ReactNode;
  /** Error text, linked to the control by aria-describedby. */
  error?: Shown | null;
  hint?: ReactNode;
  required?: boolean;
  id?: string;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}

/** Label + control + hint + error, linked by id / aria-describedby. */
export function Field({ label, error, hint, required = false, id, className, children }: FieldProps) {
  const autoId = useId();
  const controlId = id ?? `f${autoId.replace(/:/g, '')}`;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['ui-field', error ? 'ui-field--invalid' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label className="ui-field__label" htmlFor={controlId}>
        {label}
        {required ? <RequiredMark /> : null}
      </label>
      {children({ id: controlId, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined, 'aria-required': required ? true : undefined })}
      <FieldHint id={hintId} hint={hint} />
      <FieldError id={errorId} error={error} />
    </div>
  );
}

type Common = { label: ReactNode; error?: Shown | null; hint?: ReactNode; required?: boolean; fieldClassName?: string };

export function TextField({ label, error, hint, required, fieldClassName, id, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field label={label} error={error} hint={hint} required={required} id={id} className={fieldClassName}>
      {(control) => <input className="ui-input" {...input} {...control} />}
    </Field>
  );
}

export function TextAreaField({ label, error, hint, required, fieldClassName, id, ...area }: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Field label={label} error={error} hint={hint} required={required} id={id} className={fieldClassName}>
      {(control) => <textarea className="ui-input" rows={3} {...area} {...control} />}
    </Field>
  );
}

/** One choice of a select: its value and the text shown. */
export interface SelectOption {
  value: string | number;
  label: string;
}

/** A labelled select: `options` after an empty "Choose" one, or the `<option>` children as given. */
export function SelectField({ label, error, hint, required, fieldClassName, id, options, children, ...select }: Common & SelectHTMLAttributes<HTMLSelectElement> & { options?: readonly SelectOption[] }) {
  return (
    <Field label={label} error={error} hint={hint} required={required} id={id} className={fieldClassName}>
      {(control) => (
        <select className="ui-input" {...select} {...control}>
          {options ? (
            <>
              <option value="">{t('choose')}</option>
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </>
          ) : (
            children
          )}
        </select>
      )}
    </Field>
  );
}

export interface ChoiceGroupProps {
  legend: ReactNode;
  error?: Shown | null;
  required?: boolean;
  children: ReactNode;
  className?: string;
}

/** A fieldset for radio buttons and check boxes, its error linked to the group. */
export function ChoiceGroup({ legend, error, required, children, className }: ChoiceGroupProps) {
  const id = `g${useId().replace(/:/g, '')}`;
  return (
    <fieldset className={['ui-choices', className ?? ''].filter(Boolean).join(' ')} aria-describedby={error ? `${id}-error` : undefined} aria-invalid={error ? true : undefined}>
      <legend className="ui-field__label">
        {legend}
        {required ? <RequiredMark /> : null}
      </legend>
      {children}
      <FieldError id={`${id}-error`} error={error} />
    </fieldset>
  );
}
