/**
 * The vans and bays and the hours they work: seeded on the first start, managed by staff in the
 * Schedule view. A change here never moves or cancels a booking: deactivating a resource that
 * holds upcoming jobs is refused (listing them) until staff move them; a change of hours answers
 * the upcoming jobs now outside them, for staff to decide on.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { todayInAuckland } from '../domain/booking-dates.ts';
import { RESOURCE_KINDS, isResourceKind, type ResourceKind } from '../domain/scheduling.ts';
import { TIME_SLOTS, WEEKDAYS, type Weekday } from '../domain/schedule.ts';
import type { Booking, Database, Resource, WorkingHoursRow } from '../db/database.ts';
import { lockSchedule } from '../db/bookings.repository.ts';
import {
  countResources,
  insertResourceUnlessNameTaken,
  listResources,
  listWorkingHours,
  nextPosition,
  replaceWorkingHours,
  updateResource,
} from '../db/resources.repository.ts';
import { getSetting, putSetting, MIN_GAP_KEY } from '../db/settings.repository.ts';
import { conflict, notFound, validationFailed } from '../errors.ts';
import { DEFAULT_MIN_GAP_MINUTES, MIN_GAP_MAX_MINUTES, legacyResourceFor } from './scheduling.service.ts';

export interface ResourceSeed {
  /** Vans (on-site teams) to create on the first start. */
  onsite: number;
  /** Drop-off bays to create on the first start. */
  dropoff: number;
}

const SEED_NAMES: Record<ResourceKind, string> = { onsite: 'Van', dropoff: 'Bay' };

/**
 * Start-up: on a database with no resources, creates the configured vans and bays; then gives
 * each booking taken before scheduling by resource (migrations/011) the best free resource of
 * its kind, in creation order. One that cannot fit (the old hourly rule overbooked it) stays
 * without one, listed for staff under "Needs a van or bay". Each booking is tried once. Under the
 * schedule lock, so instances starting together do this once.
 */
export async function seedResources(db: Kysely<Database>, seed: ResourceSeed): Promise<{ created: number; placed: number; unplaced: number }> {
  return db.transaction().execute(async (trx) => {
    await lockSchedule(trx);
    let created = 0;
    if ((await countResources(trx)) === 0) {
      let position = 0;
      for (const kind of RESOURCE_KINDS) {
        for (let n = 1; n <= seed[kind]; n++) {
          await insertResourceUnlessNameTaken(trx, { name: `${SEED_NAMES[kind]} ${n}`, kind, position: position++ });
          created++;
        }
      }
    }
    const waiting = await trx
      .selectFrom('bookings')
      .select(['id', 'service_type', 'starts_at', 'ends_at', 'buffer_minutes', 'status'])
      .where('awaiting_first_placement', '=', true)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    let placed = 0;
    for (const booking of waiting) {
      const resourceId = booking.status === 'cancelled' ? undefined : await legacyResourceFor(trx, booking);
      if (resourceId) placed++;
      await trx
        .updateTable('bookings')
        .set({ resource_id: resourceId ?? null, awaiting_first_placement: false })
        .where('id', '=', booking.id)
        .execute();
    }
    return { created, placed, unplaced: waiting.filter((b) => b.status !== 'cancelled').length - placed };
  });
}

export const RESOURCE_NAME_MAX = 40;

export const RESOURCE_MESSAGES = {
  nameRequired: 'Please give it a name',
  nameTooLong: `Please keep the name under ${RESOURCE_NAME_MAX} characters`,
  nameTaken: 'Another van or bay already has this name',
  kindRequired: 'Please choose on-site (van) or drop-off (bay)',
  holdsJobs: 'This van or bay holds upcoming jobs. Move them to another first; they are listed below.',
  lastActive: 'This is the last active one of its kind: customers could no longer book that service. Add another first.',
} as const;

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw validationFailed([{ field: 'name', message: RESOURCE_MESSAGES.nameRequired }]);
  if (trimmed.length > RESOURCE_NAME_MAX) throw validationFailed([{ field: 'name', message: RESOURCE_MESSAGES.nameTooLong }]);
  return trimmed;
}

export async function resources(db: Kysely<Database>): Promise<Resource[]> {
  return listResources(db);
}

export async function addResource(db: Kysely<Database>, input: { name: string; kind: string }): Promise<Resource> {
  const name = checkedName(input.name);
  if (!isResourceKind(input.kind)) throw validationFailed([{ field: 'kind', message: RESOURCE_MESSAGES.kindRequired }]);
  const kind = input.kind;
  return db.transaction().execute(async (trx) => {
    await lockSchedule(trx);
    const stored = await insertResourceUnlessNameTaken(trx, { name, kind, position: await nextPosition(trx) });
    if (!stored) throw conflict(RESOURCE_MESSAGES.nameTaken, [{ field: 'name', message: RESOURCE_MESSAGES.nameTaken }]);
    return stored;
  });
}

/** Upcoming (from today) place-holding jobs on a resource, in schedule order. */
async function upcomingJobsOn(db: Kysely<Database>, resourceId: string, now: Date): Promise<Booking[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('resource_id', '=', resourceId)
    .where('status', 'in', ['pending', 'confirmed'])
    .where('date', '>=', todayInAuckland(now))
    .orderBy('starts_at')
    .limit(500)
    .execute();
}

/** 409 listing the jobs that keep a resource from being deactivated. */
export class ResourceHoldsJobsError extends Error {
  constructor(readonly bookings: Booking[]) {
    super(RESOURCE_MESSAGES.holdsJobs);
  }
}

/**
 * Renames, reorders, deactivates or reactivates a resource. Deactivating is refused while it holds
 * upcoming jobs (they are answered, for staff to move) or when it is the last active one of its
 * kind. Under the schedule lock: no booking can be placed on it meanwhile.
 */
export async function changeResource(
  db: Kysely<Database>,
  id: string,
  changes: { name?: string; active?: boolean; position?: number },
  now: Date,
): Promise<Resource> {
  const name = changes.name === undefined ? undefined : checkedName(changes.name);
  return db.transaction().execute(async (trx) => {
    await lockSchedule(trx);
    // Every resource, read once: the one changed, the last-active check and the name check.
    const all = await listResources(trx);
    const current = all.find((r) => r.id === id);
    if (!current) throw notFound('No such van or bay');
    const others = all.filter((r) => r.id !== id);
    if (changes.active === false && current.active) {
      const held = await upcomingJobsOn(trx, id, now);
      if (held.length > 0) throw new ResourceHoldsJobsError(held);
      if (!others.some((r) => r.kind === current.kind && r.active)) throw conflict(RESOURCE_MESSAGES.lastActive, [{ field: 'active', message: RESOURCE_MESSAGES.lastActive }]);
    }
    if (name !== undefined && name.toLowerCase() !== current.name.toLowerCase()) {
      const taken = others.some((r) => r.name.toLowerCase() === name.toLowerCase());
      if (taken) throw conflict(RESOURCE_MESSAGES.nameTaken, [{ field: 'name', message: RESOURCE_MESSAGES.nameTaken }]);
    }
    const updated = await updateResource(trx, id, {
      ...(name === undefined ? {} : { name }),
      ...(changes.active === undefined ? {} : { active: changes.active }),
      ...(changes.position === undefined ? {} : { position: changes.position }),
    });
    return updated!;
  });
}

/** A kind's hours on one weekday, or null when it does not work that day. */
export type DayHours = { opens: string; closes: string } | null;
export type WeekHours = Record<Weekday, DayHours>;

/** The earliest opening and latest closing staff may set: the start times offered are 07:00 to 20:00. */
export const OPENING_TIMES: readonly string[] = TIME_SLOTS;
export const CLOSING_TIMES: readonly string[] = [...TIME_SLOTS.slice(1), '21:00'];

export async function workingHours(db: Kysely<Database>): Promise<Record<ResourceKind, WeekHours>> {
  const rows = await listWorkingHours(db);
  const week = (kind: ResourceKind): WeekHours =>
    Object.fromEntries(
      WEEKDAYS.map((day, i) => {
        const row = rows.find((r) => r.kind === kind && r.weekday === i + 1);
        return [day, row ? { opens: row.opens, closes: row.closes } : null];
      }),
    ) as WeekHours;
  return { onsite: week('onsite'), dropoff: week('dropoff') };
}

/**
 * Sets a kind's week of hours. Answers the upcoming jobs of that kind now outside them: they
 * keep their place (a change of hours never moves or cancels a booking), for staff to decide on.
 */
export async function setWorkingHours(db: Kysely<Database>, kind: string, week: Partial<Record<string, DayHours>>, now: Date): Promise<{ hours: WeekHours; outside: Booking[] }> {
  if (!isResourceKind(kind)) throw validationFailed([{ field: 'kind', message: RESOURCE_MESSAGES.kindRequired }]);
  const rows: WorkingHoursRow[] = [];
  for (const [i, day] of WEEKDAYS.entries()) {
    const hours = week[day] ?? null;
    if (hours === null) continue;
    if (!OPENING_TIMES.includes(hours.opens)) throw validationFailed([{ field: `${day}.opens`, message: `Please choose an opening time from ${OPENING_TIMES[0]} to ${OPENING_TIMES.at(-1)}` }]);
    if (!CLOSING_TIMES.includes(hours.closes)) throw validationFailed([{ field: `${day}.closes`, message: `Please choose a closing time from ${CLOSING_TIMES[0]} to ${CLOSING_TIMES.at(-1)}` }]);
    if (hours.closes <= hours.opens) throw validationFailed([{ field: `${day}.closes`, message: 'Closing must be after opening' }]);
    rows.push({ kind, weekday: i + 1, opens: hours.opens, closes: hours.closes });
  }
  return db.transaction().execute(async (trx) => {
    await lockSchedule(trx);
    await replaceWorkingHours(trx, kind, rows);
    const outside = await jobsOutsideHours(trx, kind, now);
    return { hours: (await workingHours(trx))[kind], outside };
  });
}

/** The instant of an HH:00 (or 24:00) column on the booking's date in Auckland, in SQL. */
const wallInstant = (column: RawBuilder<unknown>) =>
  sql`(b."date"::timestamp + split_part(${column}, ':', 1)::int * interval '1 hour') at time zone 'Pacific/Auckland'`;

/** Upcoming place-holding jobs of a kind that start or end outside that kind's hours of their date. */
async function jobsOutsideHours(db: Kysely<Database>, kind: ResourceKind, now: Date): Promise<Booking[]> {
  return db
    .selectFrom('bookings as b')
    .selectAll('b')
    .where('b.service_type', '=', kind)
    .where('b.status', 'in', ['pending', 'confirmed'])
    .where('b.date', '>=', todayInAuckland(now))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('working_hours as h')
            .select(sql.lit(1).as('one'))
            .where('h.kind', '=', kind)
            .where(sql<boolean>`h.weekday = extract(isodow from b."date")`)
            .where(sql<boolean>`b.starts_at >= ${wallInstant(sql`h.opens`)}`)
            .where(sql<boolean>`b.ends_at <= ${wallInstant(sql`h.closes`)}`),
        ),
      ),
    )
    .orderBy('b.starts_at')
    .limit(500)
    .execute();
}

export async function minGapMinutes(db: Kysely<Database>): Promise<number> {
  const stored = await getSetting(db, MIN_GAP_KEY);
  return stored === undefined ? DEFAULT_MIN_GAP_MINUTES : Number(stored);
}

/** Sets the travel buffer given to on-site jobs placed from now on (jobs already placed keep theirs). */
export async function setMinGapMinutes(db: Kysely<Database>, minutes: number): Promise<number> {
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > MIN_GAP_MAX_MINUTES) {
    throw validationFailed([{ field: 'minutes', message: `Please give a whole number of minutes from 0 to ${MIN_GAP_MAX_MINUTES}` }]);
  }
  await db.transaction().execute(async (trx) => {
    await lockSchedule(trx);
    await putSetting(trx, MIN_GAP_KEY, String(minutes));
  });
  return minutes;
}
