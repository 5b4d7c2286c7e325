/**
 * Where a webhook may go (issue 44): a host whose every address is an ordinary public one. An
 * address in a loopback, private, link-local, carrier-grade NAT, multicast, documentation or other
 * special-use range (ipaddr.js's range(), anything but 'unicast'; an IPv4-mapped IPv6 address as
 * its IPv4 one) is refused, at registration and at each delivery, unless WEBHOOKS_ALLOW_PRIVATE.
 *
 * At delivery the check is made by the socket's own lookup (checkedLookup), so the address
 * connected to is the address checked: a host name that resolves to a public address when
 * checked and to a private one a moment later (DNS rebinding) cannot slip through.
 */
import { lookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { WEBHOOK_MESSAGES } from '../domain/webhooks.ts';

export class WebhookDestinationError extends Error {
  override name = 'WebhookDestinationError';
}

/** Whether an address is an ordinary public (unicast) one. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

function hostOf(url: URL): string {
  // new URL keeps an IPv6 literal in brackets.
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  if (isIP(host)) return Promise.resolve([{ address: host, family: isIP(host) }]);
  return new Promise((resolve, reject) =>
    lookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(new WebhookDestinationError(WEBHOOK_MESSAGES.unresolvable)) : resolve(addresses))),
  );
}

function assertPublic(addresses: readonly LookupAddress[]): void {
  if (addresses.length === 0) throw new WebhookDestinationError(WEBHOOK_MESSAGES.unresolvable);
  if (addresses.some((a) => !isPublicAddress(a.address))) throw new WebhookDestinationError(WEBHOOK_MESSAGES.privateAddress);
}

/** Resolves the URL's host (every address) and throws a WebhookDestinationError unless each is public. */
export async function assertPublicDestination(url: URL, allowPrivate: boolean): Promise<void> {
  const addresses = await resolveAll(hostOf(url));
  if (!allowPrivate) assertPublic(addresses);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A lookup for node:http(s)' `lookup` option that refuses a host any of whose addresses is not
 * public: the connection is made to an address this function checked.
 */
export function checkedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean } | number, callback: LookupCallback): void => {
    resolveAll(hostname).then(
      (addresses) => {
        if (!allowPrivate) assertPublic(addresses);
        const all = typeof options === 'object' && options.all;
        if (all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
    ).catch((err: NodeJS.ErrnoException) => callback(err, ''));
  };
}
