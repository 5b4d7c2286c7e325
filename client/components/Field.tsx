/**
 * Labelled form controls with their error message beside them. Every control carries the `name`
 * of the payload key it fills, so the same markup posts as a plain HTML form without JavaScript.
 */
import type { ChangeEvent, ReactNode } from 'react';
import './Field.css';

// Step 1 of the booking wizard needs only these, without the controls below (its first load stays small).
export { errorFor, focusFirstError } from './field-errors.ts';

interface BaseProps {
  /** Prefix that keeps ids unique when two forms share a page. */
  idPrefix: string;
  name: string;
  label: ReactNode;
  error: string | undefined;
  hint?: string;
  required?: boolean;
}

function describedBy(id: string, error: string | undefined, hint: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

function FieldShell({ id, label, error, hint, required, children }: { id: string; label: ReactNode; error?: string; hint?: string; required?: boolean; children: ReactNode }) {
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>
        {label}
        {required && (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children}
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export interface TextFieldProps extends BaseProps {
  value: string;
  onChange(value: string): void;
  type?: 'text' | 'email' | 'tel' | 'date' | 'password';
  autoComplete?: string;
  maxLength?: number;
  min?: string;
  max?: string;
  /** `required` in the markup, which applies while JavaScript is off. */
  nativeRequired?: boolean;
}

export function TextField(props: TextFieldProps) {
  const id = `${props.idPrefix}-${props.name}`;
  return (
    <FieldShell id={id} label={props.label} error={props.error} hint={props.hint} required={props.required}>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        onChange={(event: ChangeEvent<HTMLInputElement>) => props.onChange(event.target.value)}
        autoComplete={props.autoComplete}
        maxLength={props.maxLength}
        min={props.min}
        max={props.max}
        required={props.nativeRequired}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props.error, props.hint)}
      />
    </FieldShell>
  );
}

export interface TextAreaFieldProps extends BaseProps {
  value: string;
  onChange(value: string): void;
  maxLength?: number;
  rows?: number;
  nativeRequired?: boolean;
}

export function TextAreaField(props: TextAreaFieldProps) {
  const id = `${props.idPrefix}-${props.name}`;
  return (
    <FieldShell id={id} label={props.label} error={props.error} hint={props.hint} required={props.required}>
      <textarea
        id={id}
        name={props.name}
        value={props.value}
        rows={props.rows ?? 5}
        maxLength={props.maxLength}
        required={props.nativeRequired}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props.error, props.hint)}
      />
    </FieldShell>
  );
}

export interface SelectFieldProps extends BaseProps {
  value: string;
  onChange(value: string): void;
  placeholder: string;
  options: readonly string[];
  /** The text of an option (default: its value). */
  labelOf?(option: string): string;
  /** Options listed but not choosable. */
  isDisabled?(option: string): boolean;
  nativeRequired?: boolean;
}

export function SelectField(props: SelectFieldProps) {
  const id = `${props.idPrefix}-${props.name}`;
  return (
    <FieldShell id={id} label={props.label} error={props.error} hint={props.hint} required={props.required}>
      <select
        id={id}
        name={props.name}
        value={props.value}
        required={props.nativeRequired}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props.error, props.hint)}
      >
        <option value="">{props.placeholder}</option>
        {props.options.map((option) => (
          <option key={option} value={option} disabled={props.isDisabled?.(option)}>
            {props.labelOf?.(option) ?? option}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}
