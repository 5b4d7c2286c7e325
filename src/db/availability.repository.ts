/** What availability reads: bookings, closures and the weekly closed days of one date, at once. */
import { sql, type Kysely } from 'kysely';
import type { DayFacts } from '../domain/availability.ts';
import type { Weekday } from '../domain/schedule.ts';
import type { Database } from './database.ts';
import { WEEKLY_CLOSED_DAYS_KEY } from './settings.repository.ts';

type Db = Kysely<Database>;

/**
 * One statement per date: the bookings holding each slot (a grouped count over the slot index),
 * the closures of the date, and whether its weekday is a weekly closed day; a row per fact.
 * Cancelled bookings do not hold a place (holdsSlot in src/domain/booking-status.ts).
 */
export async function dayFacts(db: Db, date: string, weekday: Weekday): Promise<DayFacts> {
  const { rows } = await sql<{ kind: 'booked' | 'closed' | 'weekly'; time: string | null; count: number }>`
    select 'booked' as kind, "time", count(*) as count from bookings
      where "date" = ${date}::date and status <> 'cancelled' group by "time"
    union all
    select 'closed', "time", 0 from closures where "date" = ${date}::date
    union all
    select 'weekly', null, 0 from settings
      where key = ${WEEKLY_CLOSED_DAYS_KEY} and value::jsonb @> jsonb_build_array(${weekday}::text)`.execute(db);
  const facts = { booked: {} as Record<string, number>, dayClosed: false, closedTimes: [] as string[] };
  for (const row of rows) {
    if (row.kind === 'booked') facts.booked[row.time!] = Number(row.count);
    else if (row.time === null) facts.dayClosed = true;
    else facts.closedTimes.push(row.time);
  }
  return facts;
}
