/**
 * The scheduling rule, pure: does a job of a given length fit at a given start, on which of a
 * kind's resources (vans for on-site work, bays for drop-offs), and why not when it does not.
 * Everything is in instants (milliseconds since the epoch), so Auckland's daylight-saving days
 * need no special case here: the caller turns wall times into instants with the time-zone rules
 * (src/domain/booking-dates.ts) before asking.
 *
 * A job fits at a start when
 * - the start is inside its kind's working hours on that date and start + duration is not after
 *   they close (the travel buffer may run past closing: the van drives home);
 * - no closure of the whole kind (or of both kinds) overlaps the held interval;
 * - one active resource of the kind is free for the whole held interval [start, end + buffer):
 *   no place-holding job and no closure of that resource overlaps it (the buffer of an on-site
 *   job is the least gap between two jobs of one van);
 * - on-site (issue 40): on that van the gap from the end of its job before (that day) to this
 *   start is at least the driving from that job's zone to this one, and the gap from this job's
 *   end to the start of its job after at least the driving from this zone to that one. A job
 *   with no zone (taken outside the area before zones existed) asks only for the least gap.
 *
 * The database's exclusion constraint (migrations/011_scheduling.sql) guarantees the held
 * intervals never overlap whatever writes; the travel rule is checked under the same day lock
 * (src/services/scheduling.service.ts). This module decides what to offer and which resource to
 * give: of the vans that fit, the one whose day the job adds the least driving to (see
 * freeLanes), then best fit.
 */
import type { TravelTable } from './service-area.ts';

export const RESOURCE_KINDS = ['onsite', 'dropoff'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

export function isResourceKind(value: string): value is ResourceKind {
  return (RESOURCE_KINDS as readonly string[]).includes(value);
}

/** What a customer or staff member reads a resource kind as. */
export const RESOURCE_KIND_LABELS: Record<ResourceKind, string> = { onsite: 'Van', dropoff: 'Bay' };

/** Why a start cannot be offered, in the order they are checked. */
export const UNAVAILABLE_REASONS = ['outside-window', 'closed', 'outside-hours', 'ends-after-closing', 'full', 'travel'] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** An interval of instants, start included, end excluded (PostgreSQL's '[)'). */
export interface Interval {
  start: number;
  end: number;
}

export function overlaps(a: Interval, b: Interval): boolean {
  return a.start < b.end && b.start < a.end;
}

/** What holds a resource: a place-holding job's held interval (with where it is and when its work ends) or a closure of its own. */
export interface Busy extends Interval {
  /** A job's: the end of its work (its held interval runs on by its gap). Absent for a closure. */
  workEnd?: number;
  /** A job's zone (null: on-site outside the area, or a drop-off). Absent for a closure. */
  zoneId?: string | null;
}

export interface ResourceLane {
  id: string;
  position: number;
  busy: readonly Busy[];
}

/** What one kind's day looks like to the rule. */
export interface KindDay {
  /** Working hours as instants, or null when the kind does not work that day. */
  hours: Interval | null;
  /** The date is closed for this kind: a whole-date closure or a weekly closed day. */
  dayClosed: boolean;
  /** Closures of every resource of the kind (or of both kinds) that do not cover the whole date. */
  kindClosures: readonly Interval[];
  /** Active resources of the kind, in position order. */
  lanes: readonly ResourceLane[];
  /** On-site: the driving minutes between zones; absent for drop-offs (no travel). */
  travel?: TravelTable;
  /** The date as instants, midnight to midnight (the travel rule looks at that date's jobs only). */
  date?: Interval;
}

export interface Job {
  start: number;
  durationMs: number;
  bufferMs: number;
  /** On-site: the zone it is in (null: none known, so only the least gap applies). */
  zoneId?: string | null;
}

const MINUTE_MS = 60_000;

export function heldInterval(job: Job): Interval {
  return { start: job.start, end: job.start + job.durationMs + job.bufferMs };
}

export interface Fit {
  /** Resources free for the whole held interval and reachable in time, best first (see freeLanes). */
  free: ResourceLane[];
  /** Resources free for the held interval that the van cannot reach in time (or leave in time for its next job). */
  tooFar: ResourceLane[];
  reason: UnavailableReason | null;
}

const NO_FIT = { free: [], tooFar: [] };

/** Whether and where a job fits on a kind's day. */
export function fitJob(job: Job, day: KindDay): Fit {
  const held = heldInterval(job);
  if (day.dayClosed || day.kindClosures.some((c) => overlaps(c, held)) || day.lanes.length === 0) return { ...NO_FIT, reason: 'closed' };
  if (!day.hours || job.start < day.hours.start || job.start >= day.hours.end) return { ...NO_FIT, reason: 'outside-hours' };
  if (job.start + job.durationMs > day.hours.end) return { ...NO_FIT, reason: 'ends-after-closing' };
  const travel = day.travel
    ? { table: day.travel, zoneId: job.zoneId ?? null, workEnd: job.start + job.durationMs, dayStart: day.date?.start ?? -Infinity, dayEnd: day.date?.end ?? Infinity }
    : undefined;
  const { free, tooFar } = freeLanes(held, day.lanes, day.hours, travel);
  return { free, tooFar, reason: free.length > 0 ? null : tooFar.length > 0 ? 'travel' : 'full' };
}

/** The job being placed, for the travel rule: where it is, when its work ends, and where its date ends. */
export interface JobTravel {
  table: TravelTable;
  zoneId: string | null;
  workEnd: number;
  /** The job's date as instants, midnight to midnight: only that date's jobs are its neighbours. */
  dayStart: number;
  dayEnd: number;
}

/** The jobs of the same date just before and just after a held interval on a lane that has room for it (closures apart). */
export function neighbours(lane: ResourceLane, held: Interval, day: Interval = { start: -Infinity, end: Infinity }): { before?: Busy; after?: Busy } {
  let before: Busy | undefined;
  let after: Busy | undefined;
  for (const b of lane.busy) {
    if (b.workEnd === undefined || b.start < day.start || b.start >= day.end) continue;
    if (b.end <= held.start && (!before || b.start > before.start)) before = b;
    if (b.start >= held.end && (!after || b.start < after.start)) after = b;
  }
  return { before, after };
}

/**
 * Whether the van can drive from its job before to this one, and from this one to its job after,
 * in the gaps between them (a pair with an unknown zone needs no more than the least gap).
 */
function reachable(before: Busy | undefined, after: Busy | undefined, start: number, travel: JobTravel): boolean {
  const minutes = (from: string | null | undefined, to: string | null | undefined) => travel.table.minutes(from ?? null, to ?? null) ?? 0;
  if (before && start - before.workEnd! < minutes(before.zoneId, travel.zoneId) * MINUTE_MS) return false;
  if (after && after.start - travel.workEnd < minutes(travel.zoneId, after.zoneId) * MINUTE_MS) return false;
  return true;
}

/**
 * The lanes free for `held`, best first, and (given the job's travel) those free but too far.
 * Best: on-site, the van whose day the job adds the least driving to (from its job before, or
 * the service centre when it has none that day, to this job and on to its job after, or back to
 * the centre, less the drive it replaces), so jobs near each other share a van; then best fit,
 * the lane where the job leaves the least idle time around it (from the end of the job before, or
 * the opening, to the start of the job after, or the closing), so long free stretches stay whole
 * for long jobs; ties go to the lane first in order. Deterministic, so two instances given the
 * same facts choose alike.
 */
export function freeLanes(
  held: Interval,
  lanes: readonly ResourceLane[],
  bounds: Interval | null,
  travel?: JobTravel,
): { free: ResourceLane[]; tooFar: ResourceLane[] } {
  const scored: { lane: ResourceLane; driving: number; slack: number }[] = [];
  const tooFar: ResourceLane[] = [];
  for (const lane of lanes) {
    if (lane.busy.some((b) => overlaps(b, held))) continue;
    let before = bounds ? Math.min(bounds.start, held.start) : held.start;
    let after = bounds ? Math.max(bounds.end, held.end) : held.end;
    for (const b of lane.busy) {
      if (b.end <= held.start) before = Math.max(before, b.end);
      if (b.start >= held.end) after = Math.min(after, b.start);
    }
    let driving = 0;
    if (travel) {
      const near = neighbours(lane, held, { start: travel.dayStart, end: travel.dayEnd });
      if (!reachable(near.before, near.after, held.start, travel)) {
        tooFar.push(lane);
        continue;
      }
      const [p, n] = [near.before?.zoneId ?? null, near.after?.zoneId ?? null];
      driving = travel.table.leg(p, travel.zoneId) + travel.table.leg(travel.zoneId, n) - travel.table.leg(p, n);
    }
    scored.push({ lane, driving, slack: held.start - before + (after - held.end) });
  }
  scored.sort(
    (a, b) =>
      a.driving - b.driving || a.slack - b.slack || a.lane.position - b.lane.position || (a.lane.id < b.lane.id ? -1 : a.lane.id > b.lane.id ? 1 : 0),
  );
  return { free: scored.map((s) => s.lane), tooFar };
}

/**
 * A start offered for both kinds at once (availability asked without a service type): the kind
 * that can take it wins; when neither can, the reason nearest to bookable is given.
 */
export function combineFits(fits: readonly Fit[]): Fit {
  const free = fits.flatMap((f) => f.free);
  const tooFar = fits.flatMap((f) => f.tooFar);
  if (free.length > 0) return { free, tooFar, reason: null };
  const reasons = fits.map((f) => f.reason ?? 'full');
  const nearest = [...UNAVAILABLE_REASONS].reverse().find((r) => reasons.includes(r)) ?? 'full';
  return { free, tooFar, reason: nearest };
}
