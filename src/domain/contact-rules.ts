/** The contact form's six checks of spec section 5, in the original's order. */
import { MESSAGES, type FieldError } from './messages.ts';
import { EMAIL_PATTERN, isBlank, validateText } from './text-rules.ts';

export interface ContactInput {
  name: string;
  email: string;
  phone: string;
  message: string;
}

export const CONTACT_LIMITS = {
  name: 100,
  email: 254,
  phone: 25,
  message: 5000,
} as const;

/**
 * Optional plus, a non-zero digit, then 1 to 14 digits (the original rule), or a New Zealand
 * number written from its leading 0, which the original wrongly refused. Spaces, hyphens, dots
 * and brackets are ignored, so '021 123 4567' and '+64 21 123 4567' are both accepted.
 */
const INTERNATIONAL_PHONE = /^\+?[1-9]\d{1,14}$/;
const NZ_LOCAL_PHONE = /^0\d{6,14}$/;

export function isContactPhone(value: string): boolean {
  const digits = value.trim().replace(/[\s().-]/g, '');
  return INTERNATIONAL_PHONE.test(digits) || NZ_LOCAL_PHONE.test(digits);
}

export function validateContact(input: ContactInput): FieldError[] {
  const errors: FieldError[] = [];
  if (isBlank(input.name)) errors.push({ field: 'name', message: MESSAGES.nameRequired });
  if (isBlank(input.email)) errors.push({ field: 'email', message: MESSAGES.emailRequired });
  if (isBlank(input.phone)) {
    errors.push({ field: 'phone', message: MESSAGES.phoneRequired });
  } else if (!isContactPhone(input.phone)) {
    errors.push({ field: 'phone', message: MESSAGES.phoneInvalid });
  }
  if (!isBlank(input.email) && !EMAIL_PATTERN.test(input.email.trim())) {
    errors.push({ field: 'email', message: MESSAGES.emailInvalid });
  }
  if (isBlank(input.message)) errors.push({ field: 'message', message: MESSAGES.messageRequired });
  const textErrors = validateText(input, CONTACT_LIMITS, ['message']);
  return [...errors.filter((e) => !textErrors.some((t) => t.field === e.field)), ...textErrors];
}
