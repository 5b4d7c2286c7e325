/**
 * pino options: JSON lines with the request id, and every place personal data could appear
 * replaced by "[Redacted]" (customers' names, contact details, addresses, notes; staff passwords;
 * cookies and authorization headers).
 */
import type { LoggerOptions } from 'pino';

const PERSONAL_KEYS = [
  'name',
  'email',
  'phone',
  'message',
  'notes',
  'houseNumber',
  'streetAddress',
  'suburb',
  'postalCode',
  'landmark',
  'password',
  'newPassword',
];

export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'body',
  'req.body',
  'password',
  ...PERSONAL_KEYS.flatMap((key) => [`booking.${key}`, `contact.${key}`, `input.${key}`, `body.${key}`]),
  'password',
  '*.password',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: [...new Set(REDACT_PATHS)], censor: '[Redacted]' },
  };
}
