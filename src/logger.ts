/**
 * pino options: JSON lines with the request id, and every place personal data could appear
 * replaced by "[Redacted]" (customers' names, contact details, addresses, notes; staff passwords;
 * cookies and authorization headers), and the secret token of a manage page's address.
 */
import pino, { type DestinationStream, type LoggerOptions } from 'pino';

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

/** A manage page's address carries the booking's secret token; logs show where, never the token. */
export function withoutSecrets(url: string): string {
  return url.replace(/(\/booking\/manage\/)[^/?#]+/, '$1[token]');
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: [...new Set(REDACT_PATHS)], censor: '[Redacted]' },
    serializers: {
      // Fastify's own request serializer, with the URL's secrets taken out.
      req: (req: LoggedRequest) => ({ method: req.method, url: withoutSecrets(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
    },
  };
}

/**
 * Standard output, written asynchronously: a log line never waits for the terminal or the pipe
 * reading it. Lines still buffered are written out by `flush` when the app closes.
 */
export function logDestination(): DestinationStream & { flushSync(): void } {
  return pino.destination({ dest: 1, sync: false });
}
