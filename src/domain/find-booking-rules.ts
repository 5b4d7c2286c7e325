/**
 * "Find my booking" (issue 22): a customer who lost their e-mails gives their address, and the
 * links to their upcoming bookings are e-mailed to it. The answer is the same whatever the
 * address, so the page tells nobody whether an address has booked.
 */
import { MESSAGES, type FieldError } from './messages.ts';
import { EMAIL_PATTERN, isBlank, validateText } from './text-rules.ts';

export { FIND_BOOKING_PATH } from './site-paths.ts';

export interface FindBookingInput {
  email: string;
}

export const FIND_BOOKING_LIMITS = { email: 254 } as const;

export const FIND_BOOKING_MESSAGES = {
  /** The one answer to every valid request, known address or not. */
  answer: 'If we hold bookings for this address, we have e-mailed the links.',
} as const;

/** The address as bookings are matched by it: trimmed, any letter case. */
export function lookupAddress(email: string): string {
  return email.trim().toLowerCase();
}

export function validateFindBooking(input: FindBookingInput): FieldError[] {
  const textErrors = validateText(input, FIND_BOOKING_LIMITS);
  if (textErrors.length > 0) return textErrors;
  if (isBlank(input.email)) return [{ field: 'email', message: MESSAGES.emailRequired }];
  if (!EMAIL_PATTERN.test(input.email.trim())) return [{ field: 'email', message: MESSAGES.emailInvalid }];
  return [];
}
