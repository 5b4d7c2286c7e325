/**
 * The reason staff give when a price is not the catalogue's (issue 21): a price adjustment on a
 * booking, a completion's final amount that differs from the total. Required whenever the price
 * changes, at most REASON_MAX_LENGTH characters (the database's CHECKs say the same), shown to
 * the customer with the amount.
 */
import type { FieldError } from './messages.ts';

export const REASON_MAX_LENGTH = 200;
export const REASON_TOO_LONG = `Please keep the reason to ${REASON_MAX_LENGTH} characters`;

/** What is wrong with the reason for a price change, if anything (`required` when the price changed). */
export function reasonErrors(field: string, reason: string | null | undefined, required: { when: boolean; message: string }): FieldError[] {
  const text = reason?.trim() ?? '';
  if (text === '') return required.when ? [{ field, message: required.message }] : [];
  return text.length > REASON_MAX_LENGTH ? [{ field, message: REASON_TOO_LONG }] : [];
}
