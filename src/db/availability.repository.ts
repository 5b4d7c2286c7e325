/**
 * What the scheduling rule reads, for a span of instants, in one statement (one round trip): the
 * active resources, the working hours, the weekly closed days, the travel buffer setting, the
 * closures overlapping the span and the held intervals of the place-holding jobs overlapping it.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './database.ts';
import { TRAVEL_BUFFER_KEY, WEEKLY_CLOSED_DAYS_KEY } from './settings.repository.ts';

type Db = Kysely<Database>;

export interface ScheduleFacts {
  resources: { id: string; kind: string; position: number; name: string }[];
  hours: { kind: string; weekday: number; opens: string; closes: string }[];
  /** The weekly closed days setting, as stored (a JSON array of weekday names), or null. */
  weeklyClosedDays: string | null;
  /** The travel buffer setting in minutes, as stored, or null for the default. */
  travelBuffer: string | null;
  closures: { date: string; kind: string | null; resourceId: string | null; wholeDay: boolean; start: number; end: number }[];
  /** Place-holding jobs with a resource: [resource id, held start, held end] in milliseconds. */
  busy: [string, number, number][];
}

/** Bookings that hold their resource (the exclusion constraint's WHERE; a no-show keeps its place like a completed job). */
export const PLACE_HOLDING_STATUSES = ['pending', 'confirmed', 'completed', 'no-show'] as const;

/**
 * The facts for [from, to), leaving out one booking (the one being moved, so it never collides
 * with itself).
 */
export async function scheduleFacts(db: Db, from: number, to: number, excludeBookingId?: string): Promise<ScheduleFacts> {
  const { rows } = await sql<ScheduleFacts>`select ${scheduleFactsColumns(from, to, excludeBookingId)}`.execute(db);
  return scheduleFactsOf(rows[0]!);
}

/** scheduleFacts' columns, for a statement that reads more beside them in the same round trip. */
export function scheduleFactsColumns(from: number, to: number, excludeBookingId?: string): RawBuilder<unknown> {
  const span = sql`tstzrange(to_timestamp(${from / 1000}), to_timestamp(${to / 1000}), '[)')`;
  const exclude = excludeBookingId ? sql`and id <> ${excludeBookingId}::uuid` : sql``;
  return sql`
      (select coalesce(json_agg(json_build_object('id', id, 'kind', kind, 'position', position, 'name', name) order by position, created_at, id), '[]')
         from resources where active) as resources,
      (select coalesce(json_agg(json_build_object('kind', kind, 'weekday', weekday, 'opens', opens, 'closes', closes)), '[]')
         from working_hours) as hours,
      (select value from settings where key = ${WEEKLY_CLOSED_DAYS_KEY}) as "weeklyClosedDays",
      (select value from settings where key = ${TRAVEL_BUFFER_KEY}) as "travelBuffer",
      (select coalesce(json_agg(json_build_object(
          'date', "date", 'kind', kind, 'resourceId', resource_id, 'wholeDay', from_time is null,
          'start', extract(epoch from starts_at) * 1000, 'end', extract(epoch from ends_at) * 1000)), '[]')
         from closures where during && ${span}) as closures,
      (select coalesce(json_agg(json_build_array(resource_id, extract(epoch from lower(held)) * 1000, extract(epoch from upper(held)) * 1000)), '[]')
         from bookings
         where held && ${span} and resource_id is not null and status in ('pending', 'confirmed', 'completed', 'no-show') ${exclude}) as busy`;
}

/** The facts of a row read with scheduleFactsColumns (the held intervals' bounds come as numeric text). */
export function scheduleFactsOf(row: ScheduleFacts): ScheduleFacts {
  return {
    resources: row.resources,
    hours: row.hours,
    weeklyClosedDays: row.weeklyClosedDays,
    travelBuffer: row.travelBuffer,
    closures: row.closures,
    busy: row.busy.map(([id, start, end]) => [id, Number(start), Number(end)]),
  };
}
