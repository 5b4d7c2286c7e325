/** Text checks shared by the booking and contact rules. */
import { MESSAGES, tooLong, type FieldError } from './messages.ts';

/**
 * The shape of an e-mail address as the browser's `input type=email` defines it (WHATWG HTML,
 * "valid e-mail address"), with the domain holding at least one dot as the original forms
 * required: nothing that could end a header or start another address (`<`, `>`, `,`, `;`,
 * spaces, quotes) fits the local part, and the domain is letters, digits and hyphens only. The
 * configuration's own addresses (MAIL_FROM, STAFF_EMAIL) need only this: the operator's relay may
 * well deliver to a name on its own network. Addresses from outside must be EMAIL_PATTERN.
 */
export const EMAIL_SYNTAX_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/**
 * An e-mail address a person can receive mail at: EMAIL_SYNTAX_PATTERN, narrowed:
 * - nothing that could end a header or start another address (`<`, `>`, `,`, `;`, spaces,
 *   quotes) fits the local part, nor `%` (the old "user%host@relay" routing through a relay);
 * - the domain is letters, digits and hyphens in two labels or more (no `localhost`, no
 *   `printer`), so `<x@y.com>`, `a@b.co?cc=x` and IP literals in brackets (`x@[10.0.0.5]`) fail;
 * - the last label is a top-level domain: letters, or an internationalised one (`xn--…`), never
 *   digits, so `x@127.0.0.1` fails;
 * - no special-use name ends it, in any letter case: names that never reach a person's mailbox
 *   (RFC 6761, RFC 6762, RFC 7686, RFC 8375, and the `.internal` and `.localdomain` of private
 *   networks) — local, localhost, localdomain, internal, invalid, test, onion, home.arpa — where
 *   the mail relay would only try a machine on its own network.
 * One rule for every address a customer gives, in the browser and on the server (booking,
 * contact, quote): they all use this object. It is written out (`[lL]` for a letter in either
 * case) rather than built at load time, so that its `source` works without flags, in a JSON
 * Schema `pattern` too, and every page's bundle carries the pattern alone, not the code to make it.
 */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$&'*+/=?^_`{|}~-]+@(?!(?:[^@]*\.)?(?:[lL][oO][cC][aA][lL](?:[hH][oO][sS][tT]|[dD][oO][mM][aA][iI][nN])?|[iI][nN](?:[tT][eE][rR][nN][aA][lL]|[vV][aA][lL][iI][dD])|[tT][eE][sS][tT]|[oO][nN][iI][oO][nN]|[hH][oO][mM][eE]\.[aA][rR][pP][aA])$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+(?:[a-zA-Z]{2,63}|[xX][nN]--[a-zA-Z0-9-]{1,59})$/;

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
