/**
 * A van's day on the road (issue 40): where each stop is, the link that gives the detailer
 * directions to it, and how long the van drives that day. Pure, so the server's answer and the
 * staff screens read the same rules.
 */
import type { TravelTable } from './service-area.ts';

/** The words staff read for an on-site job whose postcode is in no zone. */
export const OUTSIDE_SERVICE_AREA = 'Outside the service area';

export interface StreetAddress {
  houseNumber: string;
  streetAddress: string;
  suburb: string;
  city: string;
  postalCode: string;
}

/** '12 Queen Street, Auckland Central, Auckland, 1010': one line, empty parts left out. */
export function oneLineAddress(a: StreetAddress): string {
  return [`${a.houseNumber} ${a.streetAddress}`.trim(), a.suburb.trim(), a.city.trim(), a.postalCode.trim()].filter(Boolean).join(', ');
}

/** Google Maps' documented directions URL (maps URLs API): from where the phone is to the address. */
export function directionsUrl(address: string): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(address)}`;
}

/** 'Aroha' of 'Aroha Ngata': what the detailer calls the customer on the doorstep. */
export function firstNameOf(name: string): string {
  return name.trim().split(/\s+/)[0] ?? '';
}

export interface VanDriving {
  /** About how many minutes the van drives that day (see vanDriving). */
  minutes: number;
  /** Stops with no zone, whose drives to and from are not known and not counted. */
  unknownStops: number;
}

/**
 * A van's driving over a day, its stops' zones in order: from the service centre to the first
 * stop, between consecutive stops, and from the last back to the centre, each in `table`'s
 * minutes. A stop with no zone (on-site outside the service area) has no known drive to or from
 * it, so those legs count nothing and the stop is counted in `unknownStops` for staff to add in
 * their heads; a total built from guesses would read as exact.
 */
export function vanDriving(zones: readonly (string | null)[], table: TravelTable): VanDriving {
  if (zones.length === 0) return { minutes: 0, unknownStops: 0 };
  const first = zones[0]!;
  const last = zones.at(-1)!;
  let minutes = (first === null ? 0 : table.fromCentre(first)) + (last === null ? 0 : table.fromCentre(last));
  for (let i = 1; i < zones.length; i++) minutes += table.minutes(zones[i - 1]!, zones[i]!) ?? 0;
  return { minutes, unknownStops: zones.filter((z) => z === null).length };
}
