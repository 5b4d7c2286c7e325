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

/** Route parameters that are secrets (a manage page's token): a log line names them, never their value. */
const SECRET_PARAMS = new Set(['token']);
const ROUTE_PARAM = /:([A-Za-z0-9_]+)/g;

/**
 * A manage or receipt page's address carries the booking's secret token (a calendar feed's, its
 * feed's); logs show where, never the token.
 * This is the text rule, for a path no route answered: it reads the path as the router would
 * (percent-encoded letters decoded, any case, repeated slashes), so that `/%62ooking/manage/…`
 * is masked too. A path a route answered is masked by its route (loggedPath).
 */
export function withoutSecrets(url: string): string {
  const decoded = url.replace(/%([0-7][0-9A-Fa-f])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const masked = decoded.replace(/(\/(?:booking\/+(?:manage|receipt)|dashboard\/+invitation|calendar)\/+)[^/?#]+/gi, '$1[token]');
  return masked === decoded ? url : masked;
}

interface RoutedRequest {
  url: string;
  routeOptions?: { url?: string };
  params?: unknown;
}

/**
 * The request's path for a log line, without its query string (searches and filters can name
 * customers). When the route that answered has a secret parameter, the line shows the route with
 * that parameter as `[token]`, whatever the path's text was (`/%62ooking/manage/…` and
 * `/booking/%6Danage/…` open the same page); otherwise the path, through withoutSecrets.
 */
export function loggedPath(request: RoutedRequest): string {
  const query = request.url.indexOf('?');
  const path = query === -1 ? request.url : request.url.slice(0, query);
  const route = request.routeOptions?.url;
  if (route && [...route.matchAll(ROUTE_PARAM)].some(([, name]) => SECRET_PARAMS.has(name!))) {
    const params = (request.params ?? {}) as Record<string, unknown>;
    return route.replace(ROUTE_PARAM, (whole, name: string) => {
      if (SECRET_PARAMS.has(name)) return `[${name}]`;
      const value = params[name];
      return typeof value === 'string' ? withoutSecrets(encodeURIComponent(value)) : whole;
    });
  }
  return withoutSecrets(path);
}

interface LoggedRequest extends RoutedRequest {
  method: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: [...new Set(REDACT_PATHS)], censor: '[Redacted]' },
    serializers: {
      // Fastify's own request serializer, with the URL's query and secrets taken out (by its route, as the access line).
      req: (req: LoggedRequest) => ({ method: req.method, url: loggedPath(req), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
    },
  };
}

/**
 * Standard output, written asynchronously: a log line never waits for the terminal or the pipe
 * reading it. Lines are gathered into writes of `bufferBytes` (0: one write per line), and what
 * is gathered is written at least every `flushMs`, when the app closes, and when the process exits
 * (pino flushes its destination then); the app stops the timer when it closes. Under load, a
 * write per line (each a request to libuv's thread pool) took about a fifth of the server's CPU
 * on cached pages in a CPU profile; gathered into 4 KB writes, under a tenth.
 */
export function logDestination(bufferBytes: number, flushMs = 1000): DestinationStream & { flushSync(): void; stopTimer(): void } {
  const destination = pino.destination({ dest: 1, sync: false, minLength: bufferBytes });
  const timer = bufferBytes > 0 ? setInterval(() => destination.flush(), flushMs).unref() : undefined;
  return Object.assign(destination, { stopTimer: () => clearInterval(timer) });
}
