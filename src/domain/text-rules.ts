/** Text checks shared by the booking and contact rules. */
import { tooLong, type FieldError } from './messages.ts';

/** The simple e-mail pattern of the original forms: something@something.something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isBlank(value: string): boolean {
  return value.trim() === '';
}

/** Every field longer than its limit. */
export function validateLengths<T extends object>(input: T, limits: Partial<Record<keyof T, number>>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [field, max] of Object.entries(limits) as [keyof T & string, number][]) {
    const value = input[field];
    if (typeof value === 'string' && value.length > max) errors.push({ field, message: tooLong(max) });
  }
  return errors;
}

