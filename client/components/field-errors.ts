/**
 * Field errors by name, and focus on the first one: what a form needs of client/components/Field.tsx
 * without its controls, so that the booking wizard's first step (whose choices are its own
 * controls) loads none of them.
 */
import type { FieldError } from '#domain/messages.ts';
import './Field.css';

export function errorFor(errors: readonly FieldError[], field: string): string | undefined {
  return errors.find((error) => error.field === field)?.message;
}

/** Moves focus to the control of the first error, so keyboard and screen-reader users land on it. */
export function focusFirstError(idPrefix: string, errors: readonly FieldError[]): void {
  const first = errors[0];
  if (!first) return;
  const control = document.getElementById(`${idPrefix}-${first.field}`) ?? document.querySelector<HTMLElement>(`[name="${first.field}"]`);
  control?.focus();
}
