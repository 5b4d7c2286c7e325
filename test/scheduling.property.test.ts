/**
 * Issues 20 and 40's model test: random service areas (zones of postcodes, each so many minutes
 * from the service centre, and a travel table with some pairs set by staff), then random sequences of what customers and staff do to the schedule — new
 * bookings (every package, size and coating, on-site or drop-off, on four days, one of them a
 * daylight-saving change, at every start from 07:00 to 20:00), staff cancelling, reopening and
 * moving (naming a van or bay, or not), customers moving, closures (a whole date or a range of hours, for both kinds, one kind or one
 * van or bay), vans and bays deactivated and reactivated, changes of working hours, of the weekly
 * closed days, of the least gap between two jobs of a van and of the travel between two zones — run against the real application and against a small
 * reference model written here from the issue's rule, on both backends. After every step:
 *
 * (a) in SQL, no two place-holding bookings of one van or bay overlap (`held && held`);
 * (b) every place-holding booking is where it was put, inside its kind's hours as they were when it
 *     was put there: a closure or a change of hours never moves or cancels one (it only lists it);
 * (c) the engine accepted exactly what the model accepts, refused with the model's reason, and gave
 *     the van or bay the model's documented policy chooses (the least added driving, then best fit:
 *     least idle time around the job on its lane, ties to the first in order);
 * (d) on no van do two consecutive jobs of a date, both placed under the current travel table,
 *     leave less than the drive between their zones (read from the database's rows).
 *
 * The model knows nothing of the engine: per resource the held intervals of its jobs and its own
 * closures, the hours per kind and weekday, the closures of a kind or of both, the least gap of
 * on-site jobs (15 minutes unless changed), each zone's minutes from the centre and the pairs set.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql } from 'kysely';
import t from 'tap';
import type { App } from '../src/app.ts';
import { weekdayOf } from '../src/domain/availability.ts';
import { addDaysToDay, aucklandInstant } from '../src/domain/booking-dates.ts';
import { CERAMIC_SIZES, COATING_TYPES, PACKAGES, VEHICLE_TYPES, durationFor } from '../src/domain/catalogue.ts';
import { ADD_ONS, addOnsFor } from '../src/domain/add-ons.ts';
import { MESSAGES, SLOT_MESSAGES } from '../src/domain/messages.ts';
import { WEEKDAYS } from '../src/domain/schedule.ts';
import { moveByCustomer } from '../src/services/manage-booking.service.ts';
import { deriveManageLink, manageKey } from '../src/db/manage-link.repository.ts';
import { ResourceHoldsJobsError, RESOURCE_MESSAGES, changeResource, setMinGapMinutes, setWorkingHours } from '../src/services/resources.service.ts';
import { PlacementRefusedError, RESOURCE_BUSY_MESSAGE, RESOURCE_TOO_FAR_MESSAGE } from '../src/services/scheduling.service.ts';
import { REOPEN_MESSAGES } from '../src/services/staff-bookings.service.ts';
import { MIN_GAP_KEY, WEEKLY_CLOSED_DAYS_KEY } from '../src/db/settings.repository.ts';
import { AppError } from '../src/errors.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { inDays, originalClientPayload, testNow } from './support/payloads.ts';

const NUM_RUNS = Number(process.env.SCHEDULING_MODEL_RUNS ?? 25);
const MAX_COMMANDS = Number(process.env.SCHEDULING_MODEL_COMMANDS ?? 30);

const MINUTE = 60_000;
type Kind = 'onsite' | 'dropoff';
type Reason = 'closed' | 'outside-hours' | 'ends-after-closing' | 'full' | 'travel';
const REASON_MESSAGES: Record<Reason, string> = {
  closed: MESSAGES.slotClosed,
  'outside-hours': SLOT_MESSAGES.outsideHours,
  'ends-after-closing': SLOT_MESSAGES.endsAfterClosing,
  full: MESSAGES.slotFull,
  travel: MESSAGES.slotTravel,
};
const hh = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
/** The starts customers are offered. */
const STARTS = Array.from({ length: 14 }, (_, i) => hh(7 + i));

/** Every job a customer can book: each package by size, Ceramic Coating by body style and term. */
interface JobChoice {
  service: string;
  coatingType: string;
  vehicleType: string;
  selectedVehicleType: string;
}
const JOBS: JobChoice[] = PACKAGES.flatMap((p): JobChoice[] =>
  p.coatingDurations
    ? COATING_TYPES.flatMap((coatingType) => CERAMIC_SIZES.map((s) => ({ service: p.name, coatingType, vehicleType: s.vehicleType, selectedVehicleType: s.key })))
    : VEHICLE_TYPES.map((v) => ({ service: p.name, coatingType: '', vehicleType: v, selectedVehicleType: v })),
);

/**
 * A Saturday, a Sunday and a Monday, far enough ahead for customers to move (cutoff 24 hours), and
 * the next day Auckland's clocks change (a Sunday in April or September), where a day's hours are
 * not its hours since midnight.
 */
const DATES = (() => {
  let day = inDays(2);
  while (weekdayOf(day) !== 'saturday') day = addDaysToDay(day, 1);
  let change = inDays(2);
  while (aucklandInstant(change, '12:00') - aucklandInstant(change, '00:00') === 12 * 3_600_000) change = addDaysToDay(change, 1);
  return [day, addDaysToDay(day, 1), addDaysToDay(day, 2), change];
})();
const isoWeekday = (date: string) => WEEKDAYS.indexOf(weekdayOf(date)) + 1;

// ---------------------------------------------------------------- the reference model

type Hours = { opens: string; closes: string } | null;
interface Interval {
  start: number;
  end: number;
}
interface ModelResource {
  id: string;
  name: string;
  kind: Kind;
  position: number;
  active: boolean;
}
interface ModelClosure extends Interval {
  date: string;
  from: string | null;
  to: string | null;
  kind: Kind | null;
  resourceId: string | null;
}
interface ModelBooking {
  id: string;
  label: string;
  kind: Kind;
  /** On-site: the zone's index (drop-off: null). */
  zone: number | null;
  /** The travel table's version when it was put where it is. */
  travelVersion: number;
  date: string;
  time: string;
  minutes: number;
  status: 'pending' | 'cancelled';
  resourceId: string;
  version: number;
  start: number;
  end: number;
  held: Interval;
  /** The kind's hours of its date when it was put where it is. */
  hoursWhenPlaced: Interval;
}
/** A zone of the run's service area: postcodes (index + 1) × 1000 to + 99, so zone 0 holds the centre's 1060. */
interface ModelZone {
  id: string;
  minutes: number;
}
interface Model {
  /** The least gap on-site jobs placed from now on get (drop-offs none). */
  buffer: number;
  zones: ModelZone[];
  /** Minutes staff set for pairs of zone indexes ('i j', i <= j). */
  travelSet: Map<string, number>;
  /** Bumped by every change of the travel table. */
  travelVersion: number;
  /** The weekly closed days (ISO weekday numbers): no job of either kind. */
  closedWeekdays: number[];
  resources: ModelResource[];
  /** Per kind, Monday first. */
  hours: Record<Kind, Hours[]>;
  closures: ModelClosure[];
  bookings: ModelBooking[];
}
interface Real {
  app: App;
  cookie: string;
  next: () => number;
  /** What the runs did, for the summary line: steps by kind and outcome. */
  tally: (what: string) => void;
}

const DEFAULT_HOURS: Record<Kind, Hours[]> = {
  onsite: Array.from({ length: 7 }, () => ({ opens: '07:00', closes: '21:00' })),
  dropoff: [...Array.from({ length: 5 }, () => ({ opens: '08:00', closes: '18:00' })), { opens: '09:00', closes: '17:00' }, null],
};

const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end;
const postcodeOf = (zone: number) => String((zone + 1) * 1000 + 10).padStart(4, '0');
const pair = (a: number, b: number) => (a <= b ? `${a} ${b}` : `${b} ${a}`);

/** The issue's table: what staff set for the pair, else half a zone's minutes (at least 10) within it, the sum between two. */
function travel(m: Model, a: number, b: number): number {
  const set = m.travelSet.get(pair(a, b));
  if (set !== undefined) return set;
  return a === b ? Math.max(10, Math.round(m.zones[a]!.minutes / 2)) : m.zones[a]!.minutes + m.zones[b]!.minutes;
}

/** A leg of a van's day for the choice of van: between two zones, or to or from the service centre (null). */
function leg(m: Model, a: number | null, b: number | null): number {
  if (a !== null && b !== null) return travel(m, a, b);
  return (a === null ? 0 : m.zones[a]!.minutes) + (b === null ? 0 : m.zones[b]!.minutes);
}

function hoursOn(m: Model, kind: Kind, date: string): Interval | null {
  const h = m.hours[kind][isoWeekday(date) - 1];
  return h ? { start: aucklandInstant(date, h.opens), end: aucklandInstant(date, h.closes) } : null;
}

function closureInterval(date: string, from: string | null, to: string | null): Interval {
  return { start: aucklandInstant(date, from ?? '00:00'), end: to === null ? aucklandInstant(addDaysToDay(date, 1), '00:00') : aucklandInstant(date, to) };
}

interface Verdict {
  reason: Reason | null;
  /** How many resources are free for the whole job (what availability calls `remaining`). */
  free: number;
  /** The resource the policy gives (when it fits). */
  resourceId: string | null;
  /** Every resource free for the whole job, best first. */
  freeIds: string[];
  /** Resources free for the held interval that cannot drive to it or on from it in time. */
  tooFarIds: string[];
  start: number;
  end: number;
  held: Interval;
  hours: Interval | null;
}

/**
 * The issue's rule: the start within the kind's hours and start + duration not after closing; no
 * closure of the kind (or of both) over the held interval [start, end + buffer); an active resource
 * of the kind with no job and no closure of its own over it. Best fit among the free ones.
 */
function fit(m: Model, kind: Kind, date: string, time: string, minutes: number, zone: number | null, excludeId?: string): Verdict {
  const start = aucklandInstant(date, time);
  const end = start + minutes * MINUTE;
  const held = { start, end: end + (kind === 'onsite' ? m.buffer : 0) * MINUTE };
  const hours = hoursOn(m, kind, date);
  const verdict = (reason: Reason | null, freeIds: string[] = [], tooFarIds: string[] = []): Verdict => ({
    reason,
    free: freeIds.length,
    resourceId: freeIds[0] ?? null,
    freeIds,
    tooFarIds,
    start,
    end,
    held,
    hours,
  });
  const active = m.resources.filter((r) => r.kind === kind && r.active);
  const kindClosed = m.closures.some((c) => c.resourceId === null && (c.kind === null || c.kind === kind) && overlaps(c, held));
  if (kindClosed || active.length === 0 || m.closedWeekdays.includes(isoWeekday(date))) return verdict('closed');
  if (!hours || start < hours.start || start >= hours.end) return verdict('outside-hours');
  if (end > hours.end) return verdict('ends-after-closing');
  const tooFar: string[] = [];
  const lanes = active.flatMap((r) => {
    const jobs = m.bookings.filter((b) => b.status === 'pending' && b.resourceId === r.id && b.id !== excludeId);
    const busy = [...jobs.map((b) => b.held), ...m.closures.filter((c) => c.resourceId === r.id)];
    if (busy.some((b) => overlaps(b, held))) return [];
    // Idle time around the job on this lane: back to the previous thing (or the opening), on to the next (or the closing).
    const previous = Math.max(Math.min(hours.start, held.start), ...busy.filter((b) => b.end <= held.start).map((b) => b.end));
    const following = Math.min(Math.max(hours.end, held.end), ...busy.filter((b) => b.start >= held.end).map((b) => b.start));
    let driving = 0;
    if (zone !== null) {
      // The van's jobs of that date just before and just after, and the drives to and from them.
      const sameDate = jobs.filter((b) => b.date === date);
      const before = sameDate.filter((b) => b.held.end <= held.start).sort((a, b) => b.start - a.start)[0];
      const after = sameDate.filter((b) => b.start >= held.end).sort((a, b) => a.start - b.start)[0];
      if ((before && start - before.end < travel(m, before.zone!, zone) * MINUTE) || (after && after.start - end < travel(m, zone, after.zone!) * MINUTE)) {
        tooFar.push(r.id);
        return [];
      }
      const [p, n] = [before?.zone ?? null, after?.zone ?? null];
      driving = leg(m, p, zone) + leg(m, zone, n) - leg(m, p, n);
    }
    return [{ r, driving, idle: held.start - previous + (following - held.end) }];
  });
  lanes.sort((a, b) => a.driving - b.driving || a.idle - b.idle || a.r.position - b.r.position || (a.r.id < b.r.id ? -1 : 1));
  if (lanes.length > 0) return verdict(null, lanes.map((l) => l.r.id), tooFar);
  return tooFar.length > 0 ? verdict('travel', [], tooFar) : verdict('full');
}

const pending = (m: Model) => m.bookings.filter((b) => b.status === 'pending');
const cancelled = (m: Model) => m.bookings.filter((b) => b.status === 'cancelled');
/** The booking a step's random pick names among those it may act on (the step's check makes sure there is one). */
const chosen = (list: ModelBooking[], pick: number) => list[pick % list.length]!;
const sameIds = (actual: { id: string }[], expected: { id: string }[], message: string) =>
  assert.deepEqual(actual.map((b) => b.id).sort(), expected.map((b) => b.id).sort(), message);

function place(m: Model, b: ModelBooking, v: Verdict, fields: Partial<ModelBooking>): void {
  Object.assign(b, fields, { status: 'pending', resourceId: v.resourceId!, start: v.start, end: v.end, held: v.held, hoursWhenPlaced: v.hours!, travelVersion: m.travelVersion });
}

const nameOf = (m: Model, id: string | null) => (id === null ? 'none' : (m.resources.find((r) => r.id === id)?.name ?? id));

// ---------------------------------------------------------------- checks after every step

interface StoredRow {
  id: string;
  status: string;
  resource_id: string | null;
  starts_at: Date;
  ends_at: Date;
  buffer_minutes: number;
  zone_id: string | null;
}

async function checkInvariants(m: Model, real: Real): Promise<void> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from bookings a join bookings b
      on a.resource_id = b.resource_id and a.id < b.id and a.held && b.held
    where a.status in ('pending', 'confirmed', 'completed') and b.status in ('pending', 'confirmed', 'completed')`.execute(real.app.db);
  assert.equal(rows[0]!.n, 0, '(a) two place-holding jobs of one resource overlap');
  const stored: StoredRow[] = await real.app.db.selectFrom('bookings').select(['id', 'status', 'resource_id', 'starts_at', 'ends_at', 'buffer_minutes', 'zone_id']).execute();
  assert.equal(stored.length, m.bookings.length, 'one row per booking made');
  const byId = new Map(stored.map((row) => [row.id, row]));
  for (const b of m.bookings) {
    const row = byId.get(b.id);
    assert.ok(row, `${b.label}: missing`);
    assert.equal(row.status, b.status, `(b) ${b.label}: status`);
    if (b.status !== 'pending') continue;
    assert.equal(nameOf(m, row.resource_id), nameOf(m, b.resourceId), `(b) ${b.label}: resource`);
    assert.equal(row.starts_at.getTime(), b.start, `(b) ${b.label}: start`);
    assert.equal(row.ends_at.getTime(), b.end, `(b) ${b.label}: end`);
    assert.equal(row.ends_at.getTime() + row.buffer_minutes * MINUTE, b.held.end, `(b) ${b.label}: the buffer it was given`);
    assert.ok(row.starts_at.getTime() >= b.hoursWhenPlaced.start && row.ends_at.getTime() <= b.hoursWhenPlaced.end, `(b) ${b.label}: outside the hours it was placed in`);
    assert.equal(row.zone_id, b.zone === null ? null : m.zones[b.zone]!.id, `(b) ${b.label}: its zone`);
  }
  // (d) From the rows: consecutive jobs of a van and a date, both placed under the current table.
  const zoneIndex = new Map(m.zones.map((z, i) => [z.id, i]));
  const current = new Set(pending(m).filter((b) => b.kind === 'onsite' && b.travelVersion === m.travelVersion).map((b) => b.id));
  const byVanDate = new Map<string, StoredRow[]>();
  for (const row of stored) {
    if (!current.has(row.id) || row.status !== 'pending') continue;
    const key = `${row.resource_id} ${m.bookings.find((b) => b.id === row.id)!.date}`;
    byVanDate.set(key, [...(byVanDate.get(key) ?? []), row]);
  }
  for (const rows of byVanDate.values()) {
    rows.sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime());
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      const drive = travel(m, zoneIndex.get(a.zone_id!)!, zoneIndex.get(b.zone_id!)!);
      assert.ok(b.starts_at.getTime() - a.ends_at.getTime() >= drive * MINUTE, `(d) two jobs of a van ${(b.starts_at.getTime() - a.ends_at.getTime()) / MINUTE} minutes apart, ${drive} minutes' drive`);
    }
  }
}

// ---------------------------------------------------------------- commands

abstract class Step implements fc.AsyncCommand<Model, Real> {
  abstract check(m: Readonly<Model>): boolean;
  abstract act(m: Model, real: Real): Promise<void>;
  abstract toString(): string;
  async run(m: Model, real: Real): Promise<void> {
    real.tally('steps');
    await this.act(m, real);
    await checkInvariants(m, real);
  }
}

/** Minutes of an add-on for a vehicle's size (issue 41). */
const addOnMinutes = (id: string, size: string) => ADD_ONS.find((a) => a.id === id)!.minutes[size as 'sm'];

class Book extends Step {
  /** `more`: the other vehicles of the visit (issue 41), done one after another; `addOn`: one fitting add-on for the first vehicle. */
  constructor(
    readonly job: JobChoice,
    readonly kind: Kind,
    readonly day: number,
    readonly hour: number,
    readonly zonePick: number,
    readonly more: JobChoice[] = [],
    readonly addOn: string | null = null,
  ) {
    super();
  }
  check() {
    return true;
  }
  async act(m: Model, real: Real) {
    const date = DATES[this.day]!;
    const time = hh(this.hour);
    const vehicles = [this.job, ...this.more];
    const minutes =
      vehicles.reduce((sum, v) => sum + durationFor(v.service, v.vehicleType, v.coatingType)!, 0) + (this.addOn ? addOnMinutes(this.addOn, this.job.vehicleType) : 0);
    const zone = this.kind === 'onsite' ? this.zonePick % m.zones.length : null;
    const postalCode = zone === null ? '1060' : postcodeOf(zone);
    const expected = fit(m, this.kind, date, time, minutes, zone);
    // What the wizard is offered for this job is what the engine then does: each vehicle's fields repeated in order.
    const query = new URLSearchParams({ date, serviceType: this.kind, ...(zone === null ? {} : { postalCode }) });
    for (const [i, v] of vehicles.entries()) {
      query.append('service', v.service);
      query.append('vehicleType', v.vehicleType);
      query.append('coatingType', v.coatingType);
      query.append('addOns', i === 0 && this.addOn ? this.addOn : '');
    }
    const offered = await real.app.inject(`/v1/availability?${query}`);
    assert.equal(offered.statusCode, 200, `availability for ${this}: ${offered.body}`);
    assert.equal(offered.json().durationMinutes, minutes, `availability for ${this}: the duration`);
    const slot = offered.json().slots.find((s: { time: string }) => s.time === time);
    assert.deepEqual(
      { available: slot.available, reason: slot.reason, remaining: slot.remaining },
      { available: expected.reason === null, reason: expected.reason, remaining: expected.free },
      `(c) availability for ${this}`,
    );
    // And the date picker's count of starts: the three days in a row at once, and the change of clocks.
    const ranges: [string, string][] = [
      [DATES[0]!, DATES[2]!],
      [DATES[3]!, DATES[3]!],
    ];
    for (const [from, to] of ranges) {
      const summary = await real.app.inject(`/v1/availability/days?${query}`.replace(`date=${date}`, `from=${from}&to=${to}`));
      assert.equal(summary.statusCode, 200, `availability/days for ${this}: ${summary.body}`);
      const starts = DATES.filter((d) => d >= from && d <= to).map((d) => ({ date: d, availableStarts: STARTS.filter((s) => fit(m, this.kind, d, s, minutes, zone).reason === null).length }));
      assert.deepEqual(summary.json().days, starts, `(c) availability/days ${from} to ${to} for ${this}`);
    }
    const n = real.next();
    const res = await real.app.inject({
      method: 'POST',
      url: '/v1/create-booking',
      payload:
        vehicles.length === 1 && !this.addOn
          ? originalClientPayload({ ...this.job, serviceType: this.kind, date, time, postalCode, email: `model.${n}@example.co.nz`, name: `Model ${n}` })
          : {
              ...originalClientPayload({ serviceType: this.kind, date, time, postalCode, email: `model.${n}@example.co.nz`, name: `Model ${n}`, service: '', vehicleType: '', selectedVehicleType: '' }),
              vehicles: vehicles.map((v, i) => ({ ...v, addOns: i === 0 && this.addOn ? [this.addOn] : [] })),
            },
    });
    if (expected.reason !== null) {
      assert.equal(res.statusCode, 409, `(c) ${this}: the model refuses (${expected.reason}), the engine answered ${res.statusCode} ${res.body}`);
      assert.equal(res.json().message, REASON_MESSAGES[expected.reason], `(c) ${this}: refused, but not as ${expected.reason}`);
      real.tally(`book refused ${expected.reason}`);
      return;
    }
    assert.equal(res.statusCode, 201, `(c) ${this}: the model accepts on ${nameOf(m, expected.resourceId)}, the engine answered ${res.statusCode} ${res.body}`);
    const { id, booking } = res.json();
    assert.equal(nameOf(m, booking.resourceId), nameOf(m, expected.resourceId), `(c) ${this}: placed on another resource than the policy's`);
    const b = { id, label: `booking ${m.bookings.length + 1}`, kind: this.kind, zone, date, time, minutes, version: booking.version } as ModelBooking;
    place(m, b, expected, {});
    m.bookings.push(b);
    real.tally(vehicles.length > 1 ? `book accepted: ${vehicles.length} vehicles` : 'book accepted');
  }
  toString() {
    const vehicle = (v: JobChoice) => `${v.service}/${v.selectedVehicleType}${v.coatingType ? `/${v.coatingType}` : ''}`;
    const job = [this.job, ...this.more].map(vehicle).join(' + ') + (this.addOn ? ` + ${this.addOn}` : '');
    return `book(${job}, ${this.kind}${this.kind === 'onsite' ? ` zone #${this.zonePick}` : ''}, ${DATES[this.day]} ${hh(this.hour)})`;
  }
}

/**
 * A booking right after (or an hour after) one already on a van, on the same date: where the drive
 * between the two zones decides (the travel rule's own cases, which random starts rarely hit).
 */
class BookAfter extends Step {
  constructor(readonly pick: number, readonly job: JobChoice, readonly zonePick: number, readonly offset: number) {
    super();
  }
  private after(m: Readonly<Model>): ModelBooking | undefined {
    const onsite = pending(m as Model).filter((b) => b.kind === 'onsite');
    return onsite.length === 0 ? undefined : chosen(onsite, this.pick);
  }
  check(m: Readonly<Model>) {
    return this.after(m) !== undefined;
  }
  async act(m: Model, real: Real) {
    const b = this.after(m)!;
    const hour = Number(b.time.slice(0, 2)) + Math.ceil(b.minutes / 60) + this.offset;
    if (hour > 20) return;
    await new Book(this.job, 'onsite', DATES.indexOf(b.date), hour, this.zonePick).act(m, real);
  }
  toString() {
    return `book-after(#${this.pick} +${this.offset}h, ${this.job.service}/${this.job.selectedVehicleType}, zone #${this.zonePick})`;
  }
}

class Cancel extends Step {
  constructor(readonly pick: number) {
    super();
  }
  check(m: Readonly<Model>) {
    return pending(m).length > 0;
  }
  async act(m: Model, real: Real) {
    const b = chosen(pending(m), this.pick);
    const res = await real.app.inject({ method: 'POST', url: `/v1/bookings/${b.id}/status`, headers: { cookie: real.cookie }, payload: { status: 'cancelled', version: b.version } });
    assert.equal(res.statusCode, 200, `${this} (${b.label}): ${res.body}`);
    b.status = 'cancelled';
    b.version = res.json().booking.version;
    real.tally('cancel');
  }
  toString() {
    return `cancel(#${this.pick})`;
  }
}

class Reopen extends Step {
  constructor(readonly pick: number) {
    super();
  }
  check(m: Readonly<Model>) {
    return cancelled(m).length > 0;
  }
  async act(m: Model, real: Real) {
    const b = chosen(cancelled(m), this.pick);
    const expected = fit(m, b.kind, b.date, b.time, b.minutes, b.zone, b.id);
    const res = await real.app.inject({ method: 'POST', url: `/v1/bookings/${b.id}/status`, headers: { cookie: real.cookie }, payload: { status: 'pending', version: b.version } });
    if (expected.reason !== null) {
      assert.equal(res.statusCode, 409, `(c) ${this} (${b.label}): the model refuses (${expected.reason}), the engine answered ${res.statusCode} ${res.body}`);
      const message =
        expected.reason === 'closed' ? REOPEN_MESSAGES.closed : expected.reason === 'full' ? REOPEN_MESSAGES.full : expected.reason === 'travel' ? REOPEN_MESSAGES.travel : REOPEN_MESSAGES.hours;
      assert.equal(res.json().message, message, `(c) ${this} (${b.label}): refused, but not as ${expected.reason}`);
      real.tally(`reopen refused ${expected.reason}`);
      return;
    }
    assert.equal(res.statusCode, 200, `(c) ${this} (${b.label}): the model accepts on ${nameOf(m, expected.resourceId)}, the engine answered ${res.statusCode} ${res.body}`);
    const { booking } = res.json();
    assert.equal(nameOf(m, booking.resourceId), nameOf(m, expected.resourceId), `(c) ${this} (${b.label}): placed on another resource than the policy's`);
    place(m, b, expected, { version: booking.version });
    real.tally('reopen accepted');
  }
  toString() {
    return `reopen(#${this.pick})`;
  }
}

class Move extends Step {
  constructor(readonly pick: number, readonly day: number, readonly hour: number) {
    super();
  }
  check(m: Readonly<Model>) {
    return pending(m).length > 0;
  }
  async act(m: Model, real: Real) {
    const b = chosen(pending(m), this.pick);
    const date = DATES[this.day]!;
    const time = hh(this.hour);
    const { manage_nonce } = await real.app.db.selectFrom('bookings').select('manage_nonce').where('id', '=', b.id).executeTakeFirstOrThrow();
    const token = deriveManageLink(await manageKey(real.app.db), b.id, manage_nonce!).token;
    const options = { now: testNow, cutoffHours: 24, mail: real.app.mail };
    const outcome = await moveByCustomer(real.app.db, token, b.version, { date, time }, options).then(
      (booking) => ({ booking, error: undefined }),
      (error: unknown) => ({ booking: undefined, error }),
    );
    if (date === b.date && time === b.time) {
      assert.ok(outcome.error instanceof AppError && outcome.error.statusCode === 400, `${this} (${b.label}): a move to the same time is a 400`);
      return;
    }
    const expected = fit(m, b.kind, date, time, b.minutes, b.zone, b.id);
    if (expected.reason !== null) {
      assert.ok(outcome.error instanceof PlacementRefusedError, `(c) ${this} (${b.label}): the model refuses (${expected.reason}), the engine answered ${outcome.error ?? 'the move'}`);
      assert.equal(outcome.error.reason, expected.reason, `(c) ${this} (${b.label}): refused for another reason`);
      assert.equal(outcome.error.message, REASON_MESSAGES[expected.reason], `(c) ${this} (${b.label}): the message`);
      real.tally(`move refused ${expected.reason}`);
      return;
    }
    assert.ok(outcome.booking, `(c) ${this} (${b.label}): the model accepts on ${nameOf(m, expected.resourceId)}, the engine refused: ${outcome.error}`);
    assert.equal(nameOf(m, outcome.booking.resource_id), nameOf(m, expected.resourceId), `(c) ${this} (${b.label}): placed on another resource than the policy's`);
    place(m, b, expected, { date, time, version: outcome.booking.version });
    real.tally('move accepted');
  }
  toString() {
    return `move(#${this.pick} to ${DATES[this.day]} ${hh(this.hour)})`;
  }
}

/**
 * Staff move a job (POST /v1/bookings/{id}/move) to a time, naming a van or bay or leaving the
 * choice to the engine: the same rule, and a named resource must be of the job's kind, active, and
 * free for the whole job.
 */
class StaffMove extends Step {
  constructor(readonly pick: number, readonly day: number, readonly hour: number, readonly resource: number | null) {
    super();
  }
  check(m: Readonly<Model>) {
    return pending(m).length > 0;
  }
  async act(m: Model, real: Real) {
    const b = chosen(pending(m), this.pick);
    const date = DATES[this.day]!;
    const time = hh(this.hour);
    const named = this.resource === null ? undefined : m.resources[this.resource % m.resources.length]!;
    const res = await real.app.inject({
      method: 'POST',
      url: `/v1/bookings/${b.id}/move`,
      headers: { cookie: real.cookie },
      payload: { version: b.version, date, time, ...(named ? { resourceId: named.id } : {}) },
    });
    if (date === b.date && time === b.time && (!named || named.id === b.resourceId)) {
      assert.equal(res.statusCode, 400, `${this} (${b.label}): a move to where it is already is a 400: ${res.body}`);
      return;
    }
    if (named && (named.kind !== b.kind || !named.active)) {
      assert.equal(res.statusCode, 400, `${this} (${b.label}): ${named.name} cannot take a ${b.kind} job: ${res.body}`);
      assert.equal(res.json().errors[0].field, 'resourceId');
      real.tally('staff move refused: resource');
      return;
    }
    const expected = fit(m, b.kind, date, time, b.minutes, b.zone, b.id);
    if (expected.reason !== null) {
      assert.equal(res.statusCode, 409, `(c) ${this} (${b.label}): the model refuses (${expected.reason}), the engine answered ${res.statusCode} ${res.body}`);
      assert.equal(res.json().message, REASON_MESSAGES[expected.reason], `(c) ${this} (${b.label}): refused, but not as ${expected.reason}`);
      real.tally(`staff move refused ${expected.reason}`);
      return;
    }
    if (named && !expected.freeIds.includes(named.id)) {
      const tooFar = expected.tooFarIds.includes(named.id);
      assert.equal(res.statusCode, 409, `(c) ${this} (${b.label}): ${named.name} is ${tooFar ? 'too far' : 'busy'} then, the engine answered ${res.statusCode} ${res.body}`);
      assert.equal(res.json().message, tooFar ? RESOURCE_TOO_FAR_MESSAGE : RESOURCE_BUSY_MESSAGE);
      real.tally(`staff move refused: resource ${tooFar ? 'too far' : 'busy'}`);
      return;
    }
    assert.equal(res.statusCode, 200, `(c) ${this} (${b.label}): the model accepts, the engine answered ${res.statusCode} ${res.body}`);
    const { booking } = res.json();
    const resourceId = named?.id ?? expected.resourceId;
    assert.equal(nameOf(m, booking.resourceId), nameOf(m, resourceId), `(c) ${this} (${b.label}): placed on another resource than asked or the policy's`);
    place(m, b, { ...expected, resourceId }, { date, time, version: booking.version });
    real.tally(`staff move accepted${named ? ' (resource named)' : ''}`);
  }
  toString() {
    return `staff-move(#${this.pick} to ${DATES[this.day]} ${hh(this.hour)}${this.resource === null ? '' : `, resource #${this.resource}`})`;
  }
}

type Scope = { kind: Kind | null } | { resource: number };

class Close extends Step {
  constructor(readonly day: number, readonly scope: Scope, readonly range: [number, number] | null) {
    super();
  }
  check() {
    return true;
  }
  async act(m: Model, real: Real) {
    const date = DATES[this.day]!;
    const resource = 'resource' in this.scope ? m.resources[this.scope.resource % m.resources.length]! : undefined;
    const kind = 'kind' in this.scope ? this.scope.kind : null;
    const resourceId = resource?.id ?? null;
    const [from, to] = this.range ? [hh(this.range[0]), hh(this.range[1])] : [null, null];
    const res = await real.app.inject({
      method: 'POST',
      url: '/v1/closures',
      headers: { cookie: real.cookie },
      payload: { date, from, to, kind, resourceId, reason: 'Model test' },
    });
    const sameScope = m.closures.filter((c) => c.date === date && c.kind === kind && c.resourceId === resourceId);
    if (sameScope.some((c) => c.from === from && c.to === to)) {
      assert.equal(res.statusCode, 409, `${this}: the same closure twice`);
      return;
    }
    if (from !== null && sameScope.some((c) => c.from === null)) {
      assert.equal(res.statusCode, 409, `${this}: inside a whole-date closure of the same scope`);
      return;
    }
    assert.equal(res.statusCode, 201, `${this}: ${res.body}`);
    const closure: ModelClosure = { date, from, to, kind, resourceId, ...closureInterval(date, from, to) };
    const reached = pending(m).filter((b) => overlaps(b.held, closure) && (resourceId !== null ? b.resourceId === resourceId : kind === null || b.kind === kind));
    sameIds(res.json().affectedBookings.map((b: { _id: string }) => ({ id: b._id })), reached, `${this}: the bookings it lists`);
    m.closures.push(closure);
    real.tally(`close (${reached.length} listed)`);
  }
  toString() {
    const scope = 'resource' in this.scope ? `resource #${this.scope.resource}` : (this.scope.kind ?? 'both kinds');
    return `close(${DATES[this.day]} ${this.range ? `${hh(this.range[0])}-${hh(this.range[1])}` : 'whole day'}, ${scope})`;
  }
}

class SetActive extends Step {
  constructor(readonly pick: number, readonly active: boolean) {
    super();
  }
  check(m: Readonly<Model>) {
    return m.resources.some((r) => r.active !== this.active);
  }
  async act(m: Model, real: Real) {
    const choices = m.resources.filter((r) => r.active !== this.active);
    const r = choices[this.pick % choices.length]!;
    const outcome = await changeResource(real.app.db, r.id, { active: this.active }, testNow).then(
      () => undefined,
      (error: unknown) => error,
    );
    const holding = pending(m).filter((b) => b.resourceId === r.id);
    if (!this.active && holding.length > 0) {
      assert.ok(outcome instanceof ResourceHoldsJobsError, `${this} (${r.name}): holds ${holding.length} jobs, but ${outcome ?? 'was deactivated'}`);
      sameIds(outcome.bookings, holding, `${this} (${r.name}): the jobs it lists`);
      real.tally('deactivate refused: holds jobs');
      return;
    }
    if (!this.active && !m.resources.some((o) => o.kind === r.kind && o.active && o.id !== r.id)) {
      assert.ok(outcome instanceof AppError && outcome.statusCode === 409 && outcome.message === RESOURCE_MESSAGES.lastActive, `${this} (${r.name}): the last of its kind, but ${outcome ?? 'was deactivated'}`);
      real.tally('deactivate refused: the last of its kind');
      return;
    }
    assert.equal(outcome, undefined, `${this} (${r.name})`);
    r.active = this.active;
    real.tally(this.active ? 'reactivate' : 'deactivate');
  }
  toString() {
    return `${this.active ? 'reactivate' : 'deactivate'}(#${this.pick})`;
  }
}

class SetHours extends Step {
  constructor(readonly kind: Kind, readonly day: number, readonly hours: Hours) {
    super();
  }
  check() {
    return true;
  }
  async act(m: Model, real: Real) {
    const weekday = isoWeekday(DATES[this.day]!);
    const week = m.hours[this.kind].map((h, i) => (i === weekday - 1 ? this.hours : h));
    const result = await setWorkingHours(real.app.db, this.kind, Object.fromEntries(WEEKDAYS.map((d, i) => [d, week[i]!])), testNow);
    m.hours[this.kind] = week;
    const outside = pending(m).filter((b) => {
      if (b.kind !== this.kind) return false;
      const h = hoursOn(m, b.kind, b.date);
      return !h || b.start < h.start || b.end > h.end;
    });
    sameIds(result.outside, outside, `${this}: the jobs now outside the hours it lists`);
    real.tally(`hours (${outside.length} listed)`);
  }
  toString() {
    return `hours(${this.kind}, ${weekdayOf(DATES[this.day]!)}: ${this.hours ? `${this.hours.opens}-${this.hours.closes}` : 'closed'})`;
  }
}

/** Mostly the Monday, so that its vans and bays fill up and jobs compete for them. */
class SetBuffer extends Step {
  constructor(readonly minutes: number) {
    super();
  }
  check() {
    return true;
  }
  async act(m: Model, real: Real) {
    assert.equal(await setMinGapMinutes(real.app.db, this.minutes), this.minutes);
    m.buffer = this.minutes;
    real.tally('buffer');
  }
  toString() {
    return `buffer(${this.minutes} minutes)`;
  }
}

/** Staff set the drive between two zones (or within one): jobs already placed stay where they are. */
class SetTravel extends Step {
  constructor(readonly a: number, readonly b: number, readonly minutes: number) {
    super();
  }
  check() {
    return true;
  }
  async act(m: Model, real: Real) {
    const [a, b] = [this.a % m.zones.length, this.b % m.zones.length];
    const [za, zb] = [m.zones[a]!.id, m.zones[b]!.id].sort();
    await sql`insert into zone_travel (zone_a, zone_b, minutes) values (${za}, ${zb}, ${this.minutes})
      on conflict (zone_a, zone_b) do update set minutes = excluded.minutes`.execute(real.app.db);
    m.travelSet.set(pair(a, b), this.minutes);
    m.travelVersion += 1;
    real.tally('travel');
  }
  toString() {
    return `travel(zone #${this.a} ↔ zone #${this.b}: ${this.minutes} minutes)`;
  }
}

class SetWeeklyClosed extends Step {
  constructor(readonly days: number[]) {
    super();
  }
  check() {
    return true;
  }
  async act(m: Model, real: Real) {
    const weekdays = [...new Set(this.days.map((d) => weekdayOf(DATES[d]!)))];
    const res = await real.app.inject({ method: 'PUT', url: '/v1/schedule/weekly-closed-days', headers: { cookie: real.cookie }, payload: { days: weekdays } });
    assert.equal(res.statusCode, 200, `${this}: ${res.body}`);
    m.closedWeekdays = weekdays.map((w) => WEEKDAYS.indexOf(w) + 1);
    const reached = pending(m).filter((b) => m.closedWeekdays.includes(isoWeekday(b.date)));
    sameIds(res.json().affectedBookings.map((b: { _id: string }) => ({ id: b._id })), reached, `${this}: the bookings it lists`);
    real.tally(`weekly closed days (${reached.length} listed)`);
  }
  toString() {
    return `weekly-closed(${this.days.map((d) => weekdayOf(DATES[d]!)).join(', ') || 'none'})`;
  }
}

const day = fc.oneof({ arbitrary: fc.constant(2), weight: 3 }, { arbitrary: fc.integer({ min: 0, max: DATES.length - 1 }), weight: 2 });
/** Every start from 07:00 to 20:00, mostly the morning's, where long jobs still fit. */
const startHour = fc.oneof({ arbitrary: fc.integer({ min: 7, max: 13 }), weight: 3 }, { arbitrary: fc.integer({ min: 7, max: 20 }), weight: 1 });
const kind = fc.constantFrom<Kind>('onsite', 'dropoff');
const pick = fc.nat({ max: 1000 });

const book = fc.tuple(fc.constantFrom(...JOBS), kind, day, startHour, pick).map(([job, k, d, h, z]) => new Book(job, k, d, h, z));
/** A visit of two or three vehicles (issue 41), the first perhaps with an add-on that fits it. */
const visit = fc
  .tuple(fc.constantFrom(...JOBS), fc.array(fc.constantFrom(...JOBS.filter((j) => durationFor(j.service, j.vehicleType, j.coatingType)! <= 120)), { minLength: 1, maxLength: 2 }), kind, day, startHour, pick, pick)
  .map(([job, more, k, d, h, z, a]) => {
    const fitting = addOnsFor(job.service);
    return new Book(job, k, d, h, z, more, a % 2 === 0 && fitting.length > 0 ? fitting[a % fitting.length]!.id : null);
  });
const shortJob = fc.constantFrom(...JOBS.filter((j) => durationFor(j.service, j.vehicleType, j.coatingType)! <= 120));
const bookAfter = fc.tuple(pick, shortJob, pick, fc.constantFrom(0, 0, 1)).map(([p, job, z, offset]) => new BookAfter(p, job, z, offset));
const commands = [
  book,
  visit,
  bookAfter,
  bookAfter,
  book,
  book,
  book,
  pick.map((p) => new Cancel(p)),
  pick.map((p) => new Reopen(p)),
  fc.tuple(pick, day, startHour).map(([p, d, h]) => new Move(p, d, h)),
  fc.tuple(pick, day, startHour).map(([p, d, h]) => new Move(p, d, h)),
  fc.tuple(pick, day, startHour, fc.option(pick, { freq: 2 })).map(([p, d, h, r]) => new StaffMove(p, d, h, r)),
  fc
    .tuple(
      day,
      fc.oneof(fc.constantFrom<Kind | null>(null, 'onsite', 'dropoff').map((k): Scope => ({ kind: k })), pick.map((r): Scope => ({ resource: r }))),
      fc.option(fc.tuple(fc.integer({ min: 5, max: 23 }), fc.integer({ min: 1, max: 6 })).map(([from, length]): [number, number] => [from, Math.min(24, from + length)]), { freq: 4 }),
    )
    .map(([d, scope, range]) => new Close(d, scope, range)),
  fc.tuple(pick, fc.boolean()).map(([p, active]) => new SetActive(p, active)),
  fc
    .tuple(
      kind,
      day,
      fc.option(fc.tuple(fc.integer({ min: 7, max: 20 }), fc.integer({ min: 1, max: 14 })).map(([opens, length]): Hours => ({ opens: hh(opens), closes: hh(Math.min(21, opens + length)) })), { freq: 5 }),
    )
    .map(([k, d, h]) => new SetHours(k, d, h)),
  fc.constantFrom(0, 15, 30, 60, 90).map((minutes) => new SetBuffer(minutes)),
  fc.tuple(pick, pick, fc.constantFrom(0, 10, 45, 90, 150)).map(([a, b, minutes]) => new SetTravel(a, b, minutes)),
  fc.subarray([0, 1, 2, 3], { maxLength: 1 }).map((days) => new SetWeeklyClosed(days)),
];

/** A run's service area: two to four zones' minutes from the centre, and some pairs set by staff. */
interface ZoneSetup {
  minutes: number[];
  set: [number, number, number][];
}
const area: fc.Arbitrary<ZoneSetup> = fc.record({
  minutes: fc.array(fc.constantFrom(0, 10, 20, 45, 60, 90), { minLength: 2, maxLength: 4 }),
  set: fc.array(fc.tuple(fc.nat({ max: 3 }), fc.nat({ max: 3 }), fc.constantFrom(5, 15, 30, 60, 120)), { maxLength: 3 }),
});

// ---------------------------------------------------------------- the run

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { RATE_LIMIT_FORMS_MAX: '1000000' } });
  const cookie = await login(app);
  const resources = await app.db.selectFrom('resources').select(['id', 'name', 'kind', 'position']).orderBy('position').execute();
  t.same(
    resources.map((r) => [r.name, r.kind]),
    [
      ['Van 1', 'onsite'],
      ['Van 2', 'onsite'],
      ['Bay 1', 'dropoff'],
      ['Bay 2', 'dropoff'],
    ],
    'two vans and two bays, as seeded by default',
  );
  let emails = 0;
  const counts = new Map<string, number>();
  const real: Real = { app, cookie, next: () => ++emails, tally: (what) => void counts.set(what, (counts.get(what) ?? 0) + 1) };
  let runs = 0;

  /**
   * Back to a fresh schedule: no bookings, no closures, the default hours, every resource active,
   * and the run's service area: zone i holds postcodes (i + 1) × 1000 to + 99 (zone 0 the
   * centre's 1060), `minutes` from the centre, and the pairs staff set.
   */
  async function reset(area: ZoneSetup): Promise<ModelZone[]> {
    await sql`truncate bookings, closures cascade`.execute(app.db);
    await sql`delete from service_zones`.execute(app.db);
    const zones: ModelZone[] = [];
    for (const [i, minutes] of area.minutes.entries()) {
      const from = (i + 1) * 1000;
      const { rows } = await sql<{ id: string }>`insert into service_zones (name, postcodes, travel_fee_cents, minutes_from_centre, position)
        values (${`Zone ${i}`}, ${`{[${from},${from + 100})}`}::int4multirange, 0, ${minutes}, ${i}) returning id`.execute(app.db);
      zones.push({ id: rows[0]!.id, minutes });
    }
    for (const [a, b, minutes] of area.set) {
      const [za, zb] = [zones[a % zones.length]!.id, zones[b % zones.length]!.id].sort();
      await sql`insert into zone_travel (zone_a, zone_b, minutes) values (${za}, ${zb}, ${minutes})
        on conflict (zone_a, zone_b) do update set minutes = excluded.minutes`.execute(app.db);
    }
    await sql`delete from working_hours`.execute(app.db);
    await sql`insert into working_hours (kind, weekday, opens, closes)
      select 'onsite', d, '07:00', '21:00' from generate_series(1, 7) as d
      union all select 'dropoff', d, '08:00', '18:00' from generate_series(1, 5) as d
      union all select 'dropoff', 6, '09:00', '17:00'`.execute(app.db);
    await sql`update resources set active = true`.execute(app.db);
    await sql`delete from settings where key in (${MIN_GAP_KEY}, ${WEEKLY_CLOSED_DAYS_KEY})`.execute(app.db);
    return zones;
  }

  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(area, fc.commands(commands, { maxCommands: MAX_COMMANDS, size: 'max' }), async (setup, cmds) => {
      const zones = await reset(setup);
      runs += 1;
      const travelSet = new Map<string, number>();
      for (const [a, b, minutes] of setup.set) travelSet.set(pair(a % zones.length, b % zones.length), minutes);
      const model: Model = {
        buffer: 15,
        zones,
        travelSet,
        travelVersion: 0,
        closedWeekdays: [],
        resources: resources.map((r) => ({ ...r, kind: r.kind as Kind, active: true })),
        hours: { onsite: [...DEFAULT_HOURS.onsite], dropoff: [...DEFAULT_HOURS.dropoff] },
        closures: [],
        bookings: [],
      };
      await fc.asyncModelRun(() => ({ model, real }), cmds);
    }),
    { numRuns: NUM_RUNS, interruptAfterTimeLimit: 100_000, markInterruptAsFailure: true },
  );
  const summary = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([what, n]) => `${what}: ${n}`).join(', ');
  t.pass(`${runs} runs of up to ${MAX_COMMANDS} steps agree with the model, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  t.comment(summary);
});
