/**
 * The service area (issue 40): zones of New Zealand postcodes, each with a travel fee and its
 * minutes of driving from the service centre, and the driving minutes between two zones. Pure, so
 * the server's engine, the staff screens and the wizard read the same rules.
 *
 * Travel between two zones is what staff set for the pair, or else the default:
 * - within one zone, half its minutes from the centre, at least SAME_ZONE_MIN_MINUTES;
 * - between two zones, the sum of their minutes from the centre (the drive through the centre:
 *   an upper bound; staff shorten the pairs they know better).
 */

import { outsideServiceArea, servedArea } from './messages.ts';
import { formatNzd } from './pricing.ts';

/** A postcode is four digits: 0110 (Northland) to 9893 (Southland). */
export const POSTCODE_PATTERN = /^[0-9]{4}$/;
export const ZONE_LIMITS = { name: 40, travelFeeCents: 100_000, minutes: 240, postcodeText: 400 } as const;
export const SAME_ZONE_MIN_MINUTES = 10;

/** Postcodes from `from` to `to`, both included. */
export interface PostcodeRange {
  from: number;
  to: number;
}

export interface ServiceZone {
  id: string;
  name: string;
  postcodes: PostcodeRange[];
  travelFeeCents: number;
  minutesFromCentre: number;
  active: boolean;
  position: number;
}

/** GET /v1/service-area's answer, with the postcode it is for: what the wizard knows of the customer's postcode. */
export interface AreaAnswer {
  postalCode: string;
  served: boolean;
  zone: { name: string; travelFeeCents: number } | null;
  /** What the customer is told: the zone and its fee, or where else to go (the server's words, kept out of the pages' bundles). */
  message: string;
}

/** The answer about a 4-digit postcode given the zones. */
export function areaAnswer(zones: readonly ServiceZone[], postalCode: string, business: { suburb: string; phone: string }): AreaAnswer {
  const zone = zoneForPostcode(zones, postalCode);
  return {
    postalCode: postalCode.trim(),
    served: zone !== undefined,
    zone: zone ? { name: zone.name, travelFeeCents: zone.travelFeeCents } : null,
    message: zone ? servedArea(zone.name, zone.travelFeeCents > 0 ? formatNzd(zone.travelFeeCents) : null) : outsideServiceArea(business),
  };
}

/** Staff-set minutes for pairs of zones, either way. */
export type TravelOverrides = readonly (readonly [string, string, number])[];

export function formatPostcode(code: number): string {
  return String(code).padStart(4, '0');
}

/** A postcode as typed ('1060', ' 1060 ') as a number, or undefined when it is not four digits. */
export function postcodeOf(text: string): number | undefined {
  const trimmed = text.trim();
  return POSTCODE_PATTERN.test(trimmed) ? Number(trimmed) : undefined;
}

/** '1010-1072, 2010' as people write ranges and single codes. */
export function formatPostcodes(ranges: readonly PostcodeRange[]): string {
  return ranges.map((r) => (r.from === r.to ? formatPostcode(r.from) : `${formatPostcode(r.from)}-${formatPostcode(r.to)}`)).join(', ');
}

/**
 * Ranges and single codes as staff type them ('1010-1072, 2010, 2012–2016'), sorted and merged
 * where they touch; a string saying what is wrong otherwise.
 */
export function parsePostcodes(text: string): PostcodeRange[] | string {
  const parts = text.split(/[,;\s]+/).filter((p) => p !== '');
  if (parts.length === 0) return 'Please give at least one postcode or range (for example 1010-1072, 2010)';
  const ranges: PostcodeRange[] = [];
  for (const part of parts) {
    const match = /^([0-9]{4})(?:[-–]([0-9]{4}))?$/.exec(part);
    if (!match) return `"${part}" is not a 4-digit postcode or a range like 1010-1072`;
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (to < from) return `The range ${part} ends before it starts`;
    ranges.push({ from, to });
  }
  ranges.sort((a, b) => a.from - b.from);
  const merged: PostcodeRange[] = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else merged.push({ ...r });
  }
  return merged;
}

/** PostgreSQL's int4multirange text ('{[1010,1073),[2010,2011)}') as ranges, and back. */
export function rangesOfMultirange(text: string): PostcodeRange[] {
  return [...text.matchAll(/\[(\d+),(\d+)\)/g)].map((m) => ({ from: Number(m[1]), to: Number(m[2]) - 1 }));
}

export function multirangeOf(ranges: readonly PostcodeRange[]): string {
  return `{${ranges.map((r) => `[${r.from},${r.to + 1})`).join(',')}}`;
}

export function zoneHolds(zone: Pick<ServiceZone, 'postcodes'>, code: number): boolean {
  return zone.postcodes.some((r) => code >= r.from && code <= r.to);
}

/** The active zone a postcode is in (the database keeps active zones apart), or undefined. */
export function zoneForPostcode<Z extends Pick<ServiceZone, 'postcodes' | 'active'>>(zones: readonly Z[], text: string): Z | undefined {
  const code = postcodeOf(text);
  return code === undefined ? undefined : zones.find((z) => z.active && zoneHolds(z, code));
}

/** The default driving minutes between two zones (see the module's comment). */
export function defaultTravelMinutes(a: Pick<ServiceZone, 'id' | 'minutesFromCentre'>, b: Pick<ServiceZone, 'id' | 'minutesFromCentre'>): number {
  if (a.id === b.id) return Math.max(SAME_ZONE_MIN_MINUTES, Math.round(a.minutesFromCentre / 2));
  return a.minutesFromCentre + b.minutesFromCentre;
}

/** The key of a pair, either way round. */
export function pairKey(a: string, b: string): string {
  return a <= b ? `${a} ${b}` : `${b} ${a}`;
}

/**
 * Driving minutes between zones, by id: the staff's minutes for the pair, or the default. Built
 * once per question from the zones (active or not: a booking keeps the zone it was placed in) and
 * the overrides.
 */
export class TravelTable {
  private readonly zones = new Map<string, Pick<ServiceZone, 'id' | 'minutesFromCentre'>>();
  private readonly set = new Map<string, number>();

  constructor(zones: readonly Pick<ServiceZone, 'id' | 'minutesFromCentre'>[], overrides: TravelOverrides) {
    for (const z of zones) this.zones.set(z.id, z);
    for (const [a, b, minutes] of overrides) this.set.set(pairKey(a, b), minutes);
  }

  /** Minutes from zone `a` to zone `b`; undefined when either is unknown (a job outside the area). */
  minutes(a: string | null, b: string | null): number | undefined {
    if (a === null || b === null) return undefined;
    const za = this.zones.get(a);
    const zb = this.zones.get(b);
    if (!za || !zb) return undefined;
    return this.set.get(pairKey(a, b)) ?? defaultTravelMinutes(za, zb);
  }

  /** Whether staff set the pair (otherwise it is the default). */
  isSet(a: string, b: string): boolean {
    return this.set.has(pairKey(a, b));
  }

  /** Minutes from the service centre to a zone (or back); 0 for no zone (a drop-off is at the centre). */
  fromCentre(zone: string | null): number {
    return zone === null ? 0 : (this.zones.get(zone)?.minutesFromCentre ?? 0);
  }

  /**
   * The driving between two stops of a van's day, for choosing a van: the pair's minutes, or
   * through the centre when either end is the van's start or end of day (null) or unknown.
   */
  leg(a: string | null, b: string | null): number {
    return this.minutes(a, b) ?? this.fromCentre(a) + this.fromCentre(b);
  }
}

/** A job of a van's day, as the gaps between jobs are read: its instants (the work, no gap) and its zone. */
export interface VanStop {
  id: string;
  start: number;
  end: number;
  zoneId: string | null;
}

/** The gap between two consecutive jobs of a van, and the driving it needs. */
export interface VanGap {
  fromId: string;
  toId: string;
  /** From the end of the first job's work to the start of the next. */
  gapMinutes: number;
  /** Driving from the first job's zone to the next's; undefined when either has no zone. */
  driveMinutes: number | undefined;
  /** The gap is shorter than the drive (possible only for jobs placed before a change of zones or travel). */
  tooShort: boolean;
}

/** The gaps between a van's consecutive jobs (any order given), each with the drive it needs under `table`. */
export function vanGaps(stops: readonly VanStop[], table: TravelTable): VanGap[] {
  const ordered = [...stops].sort((a, b) => a.start - b.start);
  return ordered.slice(1).map((next, i) => {
    const prev = ordered[i]!;
    const gapMinutes = Math.round((next.start - prev.end) / 60_000);
    const driveMinutes = table.minutes(prev.zoneId, next.zoneId);
    return { fromId: prev.id, toId: next.id, gapMinutes, driveMinutes, tooShort: driveMinutes !== undefined && gapMinutes < driveMinutes };
  });
}
