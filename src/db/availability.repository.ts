/**
 * What the scheduling rule reads, for a span of instants, in one statement (one round trip): the
 * active resources, the working hours, the weekly closed days, the least gap between two jobs of a
 * van, the service zones and the driving minutes staff set between them, the closures overlapping
 * the span and the held intervals (with their ends and zones) of the place-holding jobs overlapping it.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './database.ts';
import { MIN_GAP_KEY, WEEKLY_CLOSED_DAYS_KEY } from './settings.repository.ts';

type Db = Kysely<Database>;

export interface ScheduleFacts {
  resources: { id: string; kind: string; position: number; name: string }[];
  hours: { kind: string; weekday: number; opens: string; closes: string }[];
  /** The weekly closed days setting, as stored (a JSON array of weekday names), or null. */
  weeklyClosedDays: string | null;
  /** The least gap between two jobs of one van in minutes, as stored, or null for the default. */
  minGap: string | null;
  /** Every zone, active or not (a booking keeps the zone it was placed in); postcodes as PostgreSQL writes an int4multirange. */
  zones: { id: string; name: string; postcodes: string; travelFeeCents: number; minutesFromCentre: number; active: boolean; position: number }[];
  /** Driving minutes staff set between two zones: [zone, zone, minutes]. */
  travel: [string, string, number][];
  closures: { date: string; kind: string | null; resourceId: string | null; wholeDay: boolean; start: number; end: number }[];
  /** Place-holding jobs with a resource: [resource id, held start, held end, work end] in milliseconds, and the job's zone. */
  busy: [string, number, number, number, string | null][];
}

/**
 * Bookings that hold their resource (the exclusion constraint's WHERE; a no-show keeps its place
 * like a completed job, a waitlist offer holds it for the customer to confirm).
 */
export const PLACE_HOLDING_STATUSES = ['offered', 'pending', 'confirmed', 'completed', 'no-show'] as const;

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
      (select value from settings where key = ${MIN_GAP_KEY}) as "minGap",
      (select coalesce(json_agg(json_build_object('id', id, 'name', name, 'postcodes', postcodes::text, 'travelFeeCents', travel_fee_cents,
          'minutesFromCentre', minutes_from_centre, 'active', active, 'position', position) order by position, created_at, id), '[]')
         from service_zones) as zones,
      (select coalesce(json_agg(json_build_array(zone_a, zone_b, minutes)), '[]') from zone_travel) as travel,
      (select coalesce(json_agg(json_build_object(
          'date', "date", 'kind', kind, 'resourceId', resource_id, 'wholeDay', from_time is null,
          'start', extract(epoch from starts_at) * 1000, 'end', extract(epoch from ends_at) * 1000)), '[]')
         from closures where during && ${span}) as closures,
      (select coalesce(json_agg(json_build_array(resource_id, extract(epoch from lower(held)) * 1000, extract(epoch from upper(held)) * 1000,
          extract(epoch from ends_at) * 1000, zone_id)), '[]')
         from bookings
         where held && ${span} and resource_id is not null and status in ('offered', 'pending', 'confirmed', 'completed', 'no-show') ${exclude}) as busy`;
}

/** The facts of a row read with scheduleFactsColumns (the held intervals' bounds come as numeric text). */
export function scheduleFactsOf(row: ScheduleFacts): ScheduleFacts {
  return {
    resources: row.resources,
    hours: row.hours,
    weeklyClosedDays: row.weeklyClosedDays,
    minGap: row.minGap,
    zones: row.zones,
    travel: row.travel,
    closures: row.closures,
    busy: row.busy.map(([id, start, end, workEnd, zoneId]) => [id, Number(start), Number(end), Number(workEnd), zoneId]),
  };
}
