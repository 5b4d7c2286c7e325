/**
 * Issue 20's model test: random sequences of what customers and staff do to the schedule — new
 * bookings (every package, size and coating, on-site or drop-off, on four days, one of them a
 * daylight-saving change, at every start from 07:00 to 20:00), staff cancelling, reopening and
 * moving (naming a van or bay, or not), customers moving, closures (a whole date or a range of hours, for both kinds, one kind or one
 * van or bay), vans and bays deactivated and reactivated, changes of working hours, of the weekly
 * closed days and of the travel buffer — run against the real application and against a small
 * reference model written here from the issue's rule, on both backends. After every step:
 *
 * (a) in SQL, no two place-holding bookings of one van or bay overlap (`held && held`);
 * (b) every place-holding booking is where it was put, inside its kind's hours as they were when it
 *     was put there: a closure or a change of hours never moves or cancels one (it only lists it);
 * (c) the engine accepted exactly what the model accepts, refused with the model's reason, and gave
 *     the van or bay the model's documented policy chooses (best fit: least idle time around the job
 *     on its lane, ties to the first in order).
 *
 * The model knows nothing of the engine: per resource the held intervals of its jobs and its own
 * closures, the hours per kind and weekday, the closures of a kind or of both, the travel buffer of
 * on-site jobs (30 minutes unless changed).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql } from 'kysely';
import t from 'tap';
import type { App } from '../src/app.ts';
import { weekdayOf } from '../src/domain/availability.ts';
import { addDaysToDay, aucklandInstant } from '../src/domain/booking-dates.ts';
import { CERAMIC_SIZES, COATING_TYPES, PACKAGES, VEHICLE_TYPES, durationFor } from '../src/domain/catalogue.ts';
import { MESSAGES, SLOT_MESSAGES } from '../src/domain/messages.ts';
import { WEEKDAYS } from '../src/domain/schedule.ts';
import { moveByCustomer } from '../src/services/manage-booking.service.ts';
import { deriveManageLink, manageKey } from '../src/db/manage-link.repository.ts';
import { ResourceHoldsJobsError, RESOURCE_MESSAGES, changeResource, setMinGapMinutes, setWorkingHours } from '../src/services/resources.service.ts';
import { PlacementRefusedError, RESOURCE_BUSY_MESSAGE } from '../src/services/scheduling.service.ts';
import { REOPEN_MESSAGES } from '../src/services/staff-bookings.service.ts';
import { MIN_GAP_KEY, WEEKLY_CLOSED_DAYS_KEY } from '../src/db/settings.repository.ts';
import { AppError } from '../src/errors.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { inDays, originalClientPayload, testNow } from './support/payloads.ts';

const NUM_RUNS = Number(process.env.SCHEDULING_MODEL_RUNS ?? 25);
const MAX_COMMANDS = Number(process.env.SCHEDULING_MODEL_COMMANDS ?? 30);

const MINUTE = 60_000;
type Kind = 'onsite' | 'dropoff';
type Reason = 'closed' | 'outside-hours' | 'ends-after-closing' | 'full';
const REASON_MESSAGES: Record<Reason, string> = {
  closed: MESSAGES.slotClosed,
  'outside-hours': SLOT_MESSAGES.outsideHours,
  'ends-after-closing': SLOT_MESSAGES.endsAfterClosing,
  full: MESSAGES.slotFull,
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
interface Model {
  /** The travel buffer on-site jobs placed from now on get (drop-offs none). */
  buffer: number;
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
function fit(m: Model, kind: Kind, date: string, time: string, minutes: number, excludeId?: string): Verdict {
  const start = aucklandInstant(date, time);
  const end = start + minutes * MINUTE;
  const held = { start, end: end + (kind === 'onsite' ? m.buffer : 0) * MINUTE };
  const hours = hoursOn(m, kind, date);
  const verdict = (reason: Reason | null, freeIds: string[] = []): Verdict => ({ reason, free: freeIds.length, resourceId: freeIds[0] ?? null, freeIds, start, end, held, hours });
  const active = m.resources.filter((r) => r.kind === kind && r.active);
  const kindClosed = m.closures.some((c) => c.resourceId === null && (c.kind === null || c.kind === kind) && overlaps(c, held));
  if (kindClosed || active.length === 0 || m.closedWeekdays.includes(isoWeekday(date))) return verdict('closed');
  if (!hours || start < hours.start || start >= hours.end) return verdict('outside-hours');
  if (end > hours.end) return verdict('ends-after-closing');
  const lanes = active.flatMap((r) => {
    const busy = [
      ...m.bookings.filter((b) => b.status === 'pending' && b.resourceId === r.id && b.id !== excludeId).map((b) => b.held),
      ...m.closures.filter((c) => c.resourceId === r.id),
    ];
    if (busy.some((b) => overlaps(b, held))) return [];
    // Idle time around the job on this lane: back to the previous thing (or the opening), on to the next (or the closing).
    const previous = Math.max(Math.min(hours.start, held.start), ...busy.filter((b) => b.end <= held.start).map((b) => b.end));
    const following = Math.min(Math.max(hours.end, held.end), ...busy.filter((b) => b.start >= held.end).map((b) => b.start));
    return [{ r, idle: held.start - previous + (following - held.end) }];
  });
  lanes.sort((a, b) => a.idle - b.idle || a.r.position - b.r.position || (a.r.id < b.r.id ? -1 : 1));
  return lanes.length === 0 ? verdict('full') : verdict(null, lanes.map((l) => l.r.id));
}

const pending = (m: Model) => m.bookings.filter((b) => b.status === 'pending');
const cancelled = (m: Model) => m.bookings.filter((b) => b.status === 'cancelled');
/** The booking a step's random pick names among those it may act on (the step's check makes sure there is one). */
const chosen = (list: ModelBooking[], pick: number) => list[pick % list.length]!;
const sameIds = (actual: { id: string }[], expected: { id: string }[], message: string) =>
  assert.deepEqual(actual.map((b) => b.id).sort(), expected.map((b) => b.id).sort(), message);

function place(b: ModelBooking, v: Verdict, fields: Partial<ModelBooking>): void {
  Object.assign(b, fields, { status: 'pending', resourceId: v.resourceId!, start: v.start, end: v.end, held: v.held, hoursWhenPlaced: v.hours! });
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
}

async function checkInvariants(m: Model, real: Real): Promise<void> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from bookings a join bookings b
      on a.resource_id = b.resource_id and a.id < b.id and a.held && b.held
    where a.status in ('pending', 'confirmed', 'completed') and b.status in ('pending', 'confirmed', 'completed')`.execute(real.app.db);
  assert.equal(rows[0]!.n, 0, '(a) two place-holding jobs of one resource overlap');
  const stored: StoredRow[] = await real.app.db.selectFrom('bookings').select(['id', 'status', 'resource_id', 'starts_at', 'ends_at', 'buffer_minutes']).execute();
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

class Book extends Step {
  constructor(readonly job: JobChoice, readonly kind: Kind, readonly day: number, readonly hour: number) {
    super();
  }
  check() {
    return true;
  }
  async act(m: Model, real: Real) {
    const date = DATES[this.day]!;
    const time = hh(this.hour);
    const minutes = durationFor(this.job.service, this.job.vehicleType, this.job.coatingType)!;
    const expected = fit(m, this.kind, date, time, minutes);
    // What the wizard is offered for this job is what the engine then does.
    const query = new URLSearchParams({ date, service: this.job.service, vehicleType: this.job.vehicleType, serviceType: this.kind, ...(this.job.coatingType ? { coatingType: this.job.coatingType } : {}) });
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
      const starts = DATES.filter((d) => d >= from && d <= to).map((d) => ({ date: d, availableStarts: STARTS.filter((s) => fit(m, this.kind, d, s, minutes).reason === null).length }));
      assert.deepEqual(summary.json().days, starts, `(c) availability/days ${from} to ${to} for ${this}`);
    }
    const n = real.next();
    const res = await real.app.inject({
      method: 'POST',
      url: '/v1/create-booking',
      payload: originalClientPayload({ ...this.job, serviceType: this.kind, date, time, email: `model.${n}@example.co.nz`, name: `Model ${n}` }),
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
    const b = { id, label: `booking ${m.bookings.length + 1}`, kind: this.kind, date, time, minutes, version: booking.version } as ModelBooking;
    place(b, expected, {});
    m.bookings.push(b);
    real.tally('book accepted');
  }
  toString() {
    return `book(${this.job.service}/${this.job.selectedVehicleType}${this.job.coatingType ? `/${this.job.coatingType}` : ''}, ${this.kind}, ${DATES[this.day]} ${hh(this.hour)})`;
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
    const expected = fit(m, b.kind, b.date, b.time, b.minutes, b.id);
    const res = await real.app.inject({ method: 'POST', url: `/v1/bookings/${b.id}/status`, headers: { cookie: real.cookie }, payload: { status: 'pending', version: b.version } });
    if (expected.reason !== null) {
      assert.equal(res.statusCode, 409, `(c) ${this} (${b.label}): the model refuses (${expected.reason}), the engine answered ${res.statusCode} ${res.body}`);
      const message = expected.reason === 'closed' ? REOPEN_MESSAGES.closed : expected.reason === 'full' ? REOPEN_MESSAGES.full : REOPEN_MESSAGES.hours;
      assert.equal(res.json().message, message, `(c) ${this} (${b.label}): refused, but not as ${expected.reason}`);
      real.tally(`reopen refused ${expected.reason}`);
      return;
    }
    assert.equal(res.statusCode, 200, `(c) ${this} (${b.label}): the model accepts on ${nameOf(m, expected.resourceId)}, the engine answered ${res.statusCode} ${res.body}`);
    const { booking } = res.json();
    assert.equal(nameOf(m, booking.resourceId), nameOf(m, expected.resourceId), `(c) ${this} (${b.label}): placed on another resource than the policy's`);
    place(b, expected, { version: booking.version });
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
    const expected = fit(m, b.kind, date, time, b.minutes, b.id);
    if (expected.reason !== null) {
      assert.ok(outcome.error instanceof PlacementRefusedError, `(c) ${this} (${b.label}): the model refuses (${expected.reason}), the engine answered ${outcome.error ?? 'the move'}`);
      assert.equal(outcome.error.reason, expected.reason, `(c) ${this} (${b.label}): refused for another reason`);
      assert.equal(outcome.error.message, REASON_MESSAGES[expected.reason], `(c) ${this} (${b.label}): the message`);
      real.tally(`move refused ${expected.reason}`);
      return;
    }
    assert.ok(outcome.booking, `(c) ${this} (${b.label}): the model accepts on ${nameOf(m, expected.resourceId)}, the engine refused: ${outcome.error}`);
    assert.equal(nameOf(m, outcome.booking.resource_id), nameOf(m, expected.resourceId), `(c) ${this} (${b.label}): placed on another resource than the policy's`);
    place(b, expected, { date, time, version: outcome.booking.version });
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
    const expected = fit(m, b.kind, date, time, b.minutes, b.id);
    if (expected.reason !== null) {
      assert.equal(res.statusCode, 409, `(c) ${this} (${b.label}): the model refuses (${expected.reason}), the engine answered ${res.statusCode} ${res.body}`);
      assert.equal(res.json().message, REASON_MESSAGES[expected.reason], `(c) ${this} (${b.label}): refused, but not as ${expected.reason}`);
      real.tally(`staff move refused ${expected.reason}`);
      return;
    }
    if (named && !expected.freeIds.includes(named.id)) {
      assert.equal(res.statusCode, 409, `(c) ${this} (${b.label}): ${named.name} is busy then, the engine answered ${res.statusCode} ${res.body}`);
      assert.equal(res.json().message, RESOURCE_BUSY_MESSAGE);
      real.tally('staff move refused: resource busy');
      return;
    }
    assert.equal(res.statusCode, 200, `(c) ${this} (${b.label}): the model accepts, the engine answered ${res.statusCode} ${res.body}`);
    const { booking } = res.json();
    const resourceId = named?.id ?? expected.resourceId;
    assert.equal(nameOf(m, booking.resourceId), nameOf(m, resourceId), `(c) ${this} (${b.label}): placed on another resource than asked or the policy's`);
    place(b, { ...expected, resourceId }, { date, time, version: booking.version });
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

const book = fc.tuple(fc.constantFrom(...JOBS), kind, day, startHour).map(([job, k, d, h]) => new Book(job, k, d, h));
const commands = [
  book,
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
  fc.subarray([0, 1, 2, 3], { maxLength: 1 }).map((days) => new SetWeeklyClosed(days)),
];

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

  /** Back to a fresh schedule: no bookings, no closures, the default hours, every resource active. */
  async function reset(): Promise<void> {
    await sql`truncate bookings, closures cascade`.execute(app.db);
    await sql`delete from working_hours`.execute(app.db);
    await sql`insert into working_hours (kind, weekday, opens, closes)
      select 'onsite', d, '07:00', '21:00' from generate_series(1, 7) as d
      union all select 'dropoff', d, '08:00', '18:00' from generate_series(1, 5) as d
      union all select 'dropoff', 6, '09:00', '17:00'`.execute(app.db);
    await sql`update resources set active = true`.execute(app.db);
    await sql`delete from settings where key in (${MIN_GAP_KEY}, ${WEEKLY_CLOSED_DAYS_KEY})`.execute(app.db);
  }

  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: MAX_COMMANDS, size: 'max' }), async (cmds) => {
      await reset();
      runs += 1;
      const model: Model = {
        buffer: 30,
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
