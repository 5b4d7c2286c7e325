/**
 * The service area as staff manage it (issue 40): the zones of postcodes with their fee and
 * minutes from the centre, the driving minutes between pairs of zones, and the days where a van's
 * jobs, placed under earlier zones or travel, now sit closer together than the drive between them.
 *
 * A change here never moves or re-prices a booking: each keeps the zone and travel fee it was
 * placed with. Writes take the schedule lock, so no job is placed while the zones change under it.
 */
import type { Kysely } from 'kysely';
import { todayInAuckland } from '../domain/booking-dates.ts';
import { multirangeOf, parsePostcodes, TravelTable, vanGaps, ZONE_LIMITS, type ServiceZone } from '../domain/service-area.ts';
import type { Database } from '../db/database.ts';
import { lockSchedule } from '../db/bookings.repository.ts';
import {
  activeZonesSharing,
  deleteTravel,
  insertZone,
  listTravelOverrides,
  listZones,
  placedVanJobsFrom,
  putTravel,
  updateZone,
  type PlacedVanJob,
  type ZoneRow,
} from '../db/service-zones.repository.ts';
import type { FieldError } from '../domain/messages.ts';
import { conflict, notFound, validationFailed, type AppError } from '../errors.ts';

type Db = Kysely<Database>;

export const ZONE_MESSAGES = {
  nameRequired: 'Please give the zone a name',
  nameTooLong: `Please keep the name to ${ZONE_LIMITS.name} characters`,
  nameTaken: 'Another zone already has this name',
  postcodesTooLong: `Please keep the postcodes to ${ZONE_LIMITS.postcodeText} characters`,
  fee: `Please give a travel fee from $0 to $${ZONE_LIMITS.travelFeeCents / 100}, in whole cents`,
  minutes: `Please give a whole number of minutes from 0 to ${ZONE_LIMITS.minutes}`,
  notFound: 'No such zone',
  unknownZone: 'Please choose one of the zones',
  /** When a race let the database refuse what the check before it allowed, and the other zone has gone since. */
  sharedPostcodes: 'Those postcodes are already in another active zone',
} as const;

export const sharedWith = (zone: string) => `Those postcodes are already in ${zone}`;

/** The unique index on lower(name) (migrations/034). */
const NAME_KEY = 'service_zones_name_key';

export interface ZoneInput {
  name: string;
  postcodes: string;
  travelFeeCents: number;
  minutesFromCentre: number;
}

export type ZoneChanges = Partial<ZoneInput & { active: boolean }>;

/** The changes as they will be stored, each checked; every field's error at once. */
function checkedRow(input: Partial<ZoneInput>): Partial<ZoneRow> {
  const errors: FieldError[] = [];
  const row: Partial<ZoneRow> = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name === '') errors.push({ field: 'name', message: ZONE_MESSAGES.nameRequired });
    else if (name.length > ZONE_LIMITS.name) errors.push({ field: 'name', message: ZONE_MESSAGES.nameTooLong });
    else row.name = name;
  }
  if (input.postcodes !== undefined) {
    const ranges = input.postcodes.length > ZONE_LIMITS.postcodeText ? ZONE_MESSAGES.postcodesTooLong : parsePostcodes(input.postcodes);
    if (typeof ranges === 'string') errors.push({ field: 'postcodes', message: ranges });
    else row.postcodes = multirangeOf(ranges);
  }
  if (input.travelFeeCents !== undefined) {
    if (isWhole(input.travelFeeCents, ZONE_LIMITS.travelFeeCents)) row.travelFeeCents = input.travelFeeCents;
    else errors.push({ field: 'travelFeeCents', message: ZONE_MESSAGES.fee });
  }
  if (input.minutesFromCentre !== undefined) {
    if (isWhole(input.minutesFromCentre, ZONE_LIMITS.minutes)) row.minutesFromCentre = input.minutesFromCentre;
    else errors.push({ field: 'minutesFromCentre', message: ZONE_MESSAGES.minutes });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return row;
}

const isWhole = (value: number, max: number) => Number.isInteger(value) && value >= 0 && value <= max;

const nameTaken = () => conflict(ZONE_MESSAGES.nameTaken, [{ field: 'name', message: ZONE_MESSAGES.nameTaken }]);

function postcodesTaken(others: readonly string[], field: 'postcodes' | 'active'): AppError {
  const message = others[0] === undefined ? ZONE_MESSAGES.sharedPostcodes : sharedWith(others[0]);
  return conflict(message, [{ field, message }]);
}

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/**
 * The 409 for a write the database refused because another writer got there first: the
 * exclusion constraint keeping active zones apart (23P01), or the unique name (23505). The
 * checks under the schedule lock make these rare (a hand-written change, a writer without the
 * lock); the staff member still gets the field and the reason, never a 500.
 */
export async function zoneWriteConflict(db: Db, error: unknown, postcodes: string | undefined, exceptId: string | undefined, field: 'postcodes' | 'active'): Promise<AppError | undefined> {
  if (codeOf(error) === '23P01') {
    const mine = postcodes ?? (exceptId === undefined ? undefined : multirangeOf((await listZones(db)).find((z) => z.id === exceptId)?.postcodes ?? []));
    return postcodesTaken(mine === undefined || mine === '{}' ? [] : await activeZonesSharing(db, mine, exceptId), field);
  }
  if (codeOf(error) === '23505' && ((error as { constraint?: unknown }).constraint === NAME_KEY || (error as Error).message.includes(NAME_KEY))) return nameTaken();
  return undefined;
}

export async function serviceZones(db: Db): Promise<ServiceZone[]> {
  return listZones(db);
}

/** Adds a zone at the end of the order, active. Refused (409) when a name or a postcode is taken. */
export async function addZone(db: Db, input: ZoneInput): Promise<ServiceZone> {
  const row = checkedRow(input) as ZoneRow;
  try {
    return await db.transaction().execute(async (trx) => {
      await lockSchedule(trx);
      const zones = await listZones(trx);
      if (zones.some((z) => z.name.toLowerCase() === row.name.toLowerCase())) throw nameTaken();
      const sharing = await activeZonesSharing(trx, row.postcodes);
      if (sharing.length > 0) throw postcodesTaken(sharing, 'postcodes');
      const id = await insertZone(trx, row);
      return (await listZones(trx)).find((z) => z.id === id)!;
    });
  } catch (error) {
    throw (await zoneWriteConflict(db, error, row.postcodes, undefined, 'postcodes')) ?? error;
  }
}

/**
 * Renames a zone, changes its postcodes, fee or minutes, deactivates or reactivates it. An active
 * zone (or one reactivated) may not share a postcode with another active one. Bookings already
 * placed keep their zone and fee; only jobs placed from now on see the change.
 */
export async function changeZone(db: Db, id: string, changes: ZoneChanges): Promise<ServiceZone> {
  const row = checkedRow(changes);
  const field = row.postcodes === undefined && changes.active === true ? 'active' : 'postcodes';
  try {
    return await db.transaction().execute(async (trx) => {
      await lockSchedule(trx);
      const zones = await listZones(trx);
      const current = zones.find((z) => z.id === id);
      if (!current) throw notFound(ZONE_MESSAGES.notFound);
      if (row.name !== undefined && zones.some((z) => z.id !== id && z.name.toLowerCase() === row.name!.toLowerCase())) throw nameTaken();
      const activeAfter = changes.active ?? current.active;
      if (activeAfter) {
        const sharing = await activeZonesSharing(trx, row.postcodes ?? multirangeOf(current.postcodes), id);
        if (sharing.length > 0) throw postcodesTaken(sharing, field);
      }
      await updateZone(trx, id, { ...row, ...(changes.active === undefined ? {} : { active: changes.active }) });
      return (await listZones(trx)).find((z) => z.id === id)!;
    });
  } catch (error) {
    throw (await zoneWriteConflict(db, error, row.postcodes, id, field)) ?? error;
  }
}

export interface TravelPair {
  zoneA: string;
  zoneB: string;
  minutes: number;
  /** Staff set these minutes; otherwise they are the default from the zones' minutes from the centre. */
  set: boolean;
}

export interface TravelMatrix {
  zones: ServiceZone[];
  /** Every pair of zones once (a zone with itself too: driving within it), in the zones' order. */
  pairs: TravelPair[];
}

export async function travelMatrix(db: Db): Promise<TravelMatrix> {
  const [zones, overrides] = await Promise.all([listZones(db), listTravelOverrides(db)]);
  const table = new TravelTable(zones, overrides);
  const pairs = zones.flatMap((a, i) =>
    zones.slice(i).map((b) => ({ zoneA: a.id, zoneB: b.id, minutes: table.minutes(a.id, b.id)!, set: table.isSet(a.id, b.id) })),
  );
  return { zones, pairs };
}

/**
 * Sets the driving minutes between two zones (or within one), or with null forgets them so the
 * default applies again. Jobs already placed stay where they are; the days where they now sit too
 * close are listed by travelShortfalls.
 */
export async function setZoneTravel(db: Db, input: { zoneA: string; zoneB: string; minutes: number | null }): Promise<TravelMatrix> {
  if (input.minutes !== null && !isWhole(input.minutes, ZONE_LIMITS.minutes)) throw validationFailed([{ field: 'minutes', message: ZONE_MESSAGES.minutes }]);
  await db.transaction().execute(async (trx) => {
    await lockSchedule(trx);
    const ids = new Set((await listZones(trx)).map((z) => z.id));
    const unknown = (['zoneA', 'zoneB'] as const).filter((field) => !ids.has(input[field]));
    if (unknown.length > 0) throw validationFailed(unknown.map((field) => ({ field, message: ZONE_MESSAGES.unknownZone })));
    if (input.minutes === null) await deleteTravel(trx, input.zoneA, input.zoneB);
    else await putTravel(trx, input.zoneA, input.zoneB, input.minutes);
  });
  return travelMatrix(db);
}

/** Most days listed under "Days to re-plan". */
export const SHORTFALL_DAYS_LIMIT = 100;

export interface ShortfallJob {
  id: string;
  reference: string;
  time: string;
  startsAt: Date;
  endsAt: Date;
  zoneName: string | null;
}

export interface TravelShortfall {
  resourceId: string;
  resourceName: string;
  from: ShortfallJob;
  to: ShortfallJob;
  gapMinutes: number;
  driveMinutes: number;
}

export interface ShortfallDay {
  date: string;
  shortfalls: TravelShortfall[];
}

/**
 * "Days to re-plan": the dates from today on where a van has two consecutive pending or
 * confirmed jobs whose gap is shorter than the drive between their zones under the zones and
 * travel as they are now (they were placed under earlier ones; nothing moves them by itself).
 */
export async function travelShortfalls(db: Db, now: Date): Promise<ShortfallDay[]> {
  const [zones, overrides, jobs] = await Promise.all([listZones(db), listTravelOverrides(db), placedVanJobsFrom(db, todayInAuckland(now))]);
  const table = new TravelTable(zones, overrides);
  const zoneName = new Map(zones.map((z) => [z.id, z.name]));
  const vanDays = new Map<string, PlacedVanJob[]>();
  for (const job of jobs) {
    const key = `${job.date} ${job.resource_id}`;
    vanDays.set(key, [...(vanDays.get(key) ?? []), job]);
  }
  const days: ShortfallDay[] = [];
  for (const vanDay of vanDays.values()) {
    const byId = new Map(vanDay.map((j) => [j.id, j]));
    const stops = vanDay.map((j) => ({ id: j.id, start: j.starts_at.getTime(), end: j.ends_at.getTime(), zoneId: j.zone_id }));
    const short = vanGaps(stops, table).filter((gap) => gap.tooShort);
    if (short.length === 0) continue;
    const { date, resource_id: resourceId, resource_name: resourceName } = vanDay[0]!;
    const jobOf = (id: string): ShortfallJob => {
      const j = byId.get(id)!;
      return { id: j.id, reference: j.reference, time: j.time, startsAt: j.starts_at, endsAt: j.ends_at, zoneName: j.zone_id === null ? null : (zoneName.get(j.zone_id) ?? null) };
    };
    let day = days.at(-1);
    if (day?.date !== date) days.push((day = { date, shortfalls: [] }));
    day.shortfalls.push(
      ...short.map((gap) => ({ resourceId, resourceName, from: jobOf(gap.fromId), to: jobOf(gap.toId), gapMinutes: gap.gapMinutes, driveMinutes: gap.driveMinutes! })),
    );
  }
  return days.slice(0, SHORTFALL_DAYS_LIMIT);
}
