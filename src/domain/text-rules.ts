/** Text checks shared by the booking and contact rules. */
import { MESSAGES, tooLong, type FieldError } from './messages.ts';

/**
 * A valid e-mail address as the browser's `input type=email` defines it (WHATWG HTML, "valid
 * e-mail address"), with the domain holding at least one dot as the original forms required
 * (something@something.something). Nothing that could end a header or start another address
 * (`<`, `>`, `,`, `;`, spaces, quotes) fits the local part, and the domain is letters, digits and
 * hyphens only, so `<x@y.com>` and `a@b.co?cc=x` are refused.
 */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

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


/** C0 control characters other than tab, line feed and carriage return. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
/** Line feed and carriage return, allowed only where a field may hold several lines. */
const LINE_BREAK = /[\n\r]/;

/** True when the text holds a control character the field may not hold. */
export function hasControlCharacters(value: string, multiline = false): boolean {
  return CONTROL.test(value) || (!multiline && LINE_BREAK.test(value));
}

/**
 * Every text field that is too long or holds control characters (the database refuses a NUL,
 * and nothing a person types holds the others); tab is allowed everywhere, line breaks only in
 * the `multiline` fields.
 */
export function validateText<T extends object>(
  input: T,
  limits: Partial<Record<keyof T, number>>,
  multiline: readonly (keyof T)[] = [],
): FieldError[] {
  const errors = validateLengths(input, limits);
  for (const [field, value] of Object.entries(input) as [keyof T & string, unknown][]) {
    if (typeof value !== 'string' || errors.some((e) => e.field === field)) continue;
    if (hasControlCharacters(value, multiline.includes(field))) errors.push({ field, message: MESSAGES.controlCharacters });
  }
  return errors;
}
