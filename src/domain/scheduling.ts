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
 *   no place-holding job and no closure of that resource overlaps it.
 *
 * The database's exclusion constraint (migrations/011_scheduling.sql) guarantees the last point
 * whatever writes; this module decides what to offer and which resource to give.
 */

export const RESOURCE_KINDS = ['onsite', 'dropoff'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

export function isResourceKind(value: string): value is ResourceKind {
  return (RESOURCE_KINDS as readonly string[]).includes(value);
}

/** What a customer or staff member reads a resource kind as. */
export const RESOURCE_KIND_LABELS: Record<ResourceKind, string> = { onsite: 'Van', dropoff: 'Bay' };

/** Why a start cannot be offered, in the order they are checked. */
export const UNAVAILABLE_REASONS = ['outside-window', 'closed', 'outside-hours', 'ends-after-closing', 'full'] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** An interval of instants, start included, end excluded (PostgreSQL's '[)'). */
export interface Interval {
  start: number;
  end: number;
}

export function overlaps(a: Interval, b: Interval): boolean {
  return a.start < b.end && b.start < a.end;
}

export interface ResourceLane {
  id: string;
  position: number;
  /** What holds it: place-holding jobs' held intervals and this resource's own closures. */
  busy: readonly Interval[];
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
}

export interface Job {
  start: number;
  durationMs: number;
  bufferMs: number;
}

export function heldInterval(job: Job): Interval {
  return { start: job.start, end: job.start + job.durationMs + job.bufferMs };
}

export interface Fit {
  /** Resources free for the whole held interval, best first (see bestLane). */
  free: ResourceLane[];
  reason: UnavailableReason | null;
}

/** Whether and where a job fits on a kind's day. */
export function fitJob(job: Job, day: KindDay): Fit {
  const held = heldInterval(job);
  if (day.dayClosed || day.kindClosures.some((c) => overlaps(c, held)) || day.lanes.length === 0) return { free: [], reason: 'closed' };
  if (!day.hours || job.start < day.hours.start || job.start >= day.hours.end) return { free: [], reason: 'outside-hours' };
  if (job.start + job.durationMs > day.hours.end) return { free: [], reason: 'ends-after-closing' };
  const free = freeLanes(held, day.lanes, day.hours);
  return { free, reason: free.length > 0 ? null : 'full' };
}

/**
 * The lanes free for `held`, best first. Best fit: the lane where the job leaves the least idle
 * time around it (from the end of the job before, or the opening, to the start of the job after,
 * or the closing), so long free stretches stay whole for long jobs; ties go to the lane first in
 * order. Deterministic, so two instances given the same facts choose alike.
 */
export function freeLanes(held: Interval, lanes: readonly ResourceLane[], bounds: Interval | null): ResourceLane[] {
  const scored: { lane: ResourceLane; slack: number }[] = [];
  for (const lane of lanes) {
    if (lane.busy.some((b) => overlaps(b, held))) continue;
    let before = bounds ? Math.min(bounds.start, held.start) : held.start;
    let after = bounds ? Math.max(bounds.end, held.end) : held.end;
    for (const b of lane.busy) {
      if (b.end <= held.start) before = Math.max(before, b.end);
      if (b.start >= held.end) after = Math.min(after, b.start);
    }
    scored.push({ lane, slack: held.start - before + (after - held.end) });
  }
  scored.sort((a, b) => a.slack - b.slack || a.lane.position - b.lane.position || (a.lane.id < b.lane.id ? -1 : a.lane.id > b.lane.id ? 1 : 0));
  return scored.map((s) => s.lane);
}

/**
 * A start offered for both kinds at once (availability asked without a service type): the kind
 * that can take it wins; when neither can, the reason nearest to bookable is given.
 */
export function combineFits(fits: readonly Fit[]): Fit {
  const free = fits.flatMap((f) => f.free);
  if (free.length > 0) return { free, reason: null };
  const reasons = fits.map((f) => f.reason ?? 'full');
  const nearest = [...UNAVAILABLE_REASONS].reverse().find((r) => reasons.includes(r)) ?? 'full';
  return { free, reason: nearest };
}
