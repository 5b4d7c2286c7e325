/**
 * `mailto:` and `tel:` links built from addresses people typed in. The address is encoded, so
 * that one holding `?`, `&`, `#`, `%` or spaces cannot add a subject, body, copy recipient or
 * fragment of its own to the link (RFC 6068); the `@` between the two parts is kept as it is.
 */
export function mailtoHref(address: string, fields: { subject?: string; body?: string } = {}): string {
  const at = address.lastIndexOf('@');
  const addr = at < 0 ? encodeURIComponent(address) : `${encodeURIComponent(address.slice(0, at))}@${encodeURIComponent(address.slice(at + 1))}`;
  const query = Object.entries(fields)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  return `mailto:${addr}${query ? `?${query}` : ''}`;
}

/** Digits and a leading plus only: what a phone dials. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
