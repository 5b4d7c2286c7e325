/**
 * Webhooks (issue 44): the events an endpoint may receive, the shape of an endpoint's URL, the
 * back-off between attempts, and the words the owner reads. Pure: no network, no database.
 */
export const WEBHOOK_EVENTS = [
  'booking.created',
  'booking.confirmed',
  'booking.moved',
  'booking.cancelled',
  'booking.completed',
  'payment.recorded',
  'customer.erased',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_DELIVERY_STATUSES = ['queued', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;

export const WEBHOOK_MESSAGES = {
  created: 'Webhook endpoint added. Copy its signing secret now: it is not shown again.',
  rotated: 'New signing secret made. Copy it now: the old one no longer signs.',
  notFound: 'No such webhook endpoint.',
  deliveryNotFound: 'No such webhook delivery.',
  badUrl: 'Enter the full address of the endpoint, starting with https://.',
  httpsOnly: 'The address must start with https://.',
  credentials: 'The address must not hold a user name or password.',
  privateAddress: 'The address leads to a private, loopback or other special-use network, which webhooks are not sent to.',
  unresolvable: 'The address’s host name could not be found.',
  resendNotAllowed: 'Only a delivered or failed delivery can be sent again.',
  resent: 'Queued to be sent again.',
} as const;

/**
 * Why a URL cannot be an endpoint, or undefined when its shape is right: http(s) only, https in
 * production, no user name or password, no fragment. Where it leads is checked apart (the network).
 */
export function webhookUrlProblem(raw: string, options: { httpsOnly: boolean }): string | undefined {
  if (raw.length > WEBHOOK_URL_MAX || /\s/.test(raw)) return WEBHOOK_MESSAGES.badUrl;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return WEBHOOK_MESSAGES.badUrl;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return WEBHOOK_MESSAGES.badUrl;
  if (options.httpsOnly && url.protocol !== 'https:') return WEBHOOK_MESSAGES.httpsOnly;
  if (url.username || url.password) return WEBHOOK_MESSAGES.credentials;
  if (url.hash || !url.hostname) return WEBHOOK_MESSAGES.badUrl;
  return undefined;
}

/** The delay before attempt `attempts + 1`: base, 2 × base, 4 × base … at most six hours. */
export function webhookRetryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);
}
