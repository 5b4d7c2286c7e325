/** Data access for weather days (migrations/019): plain functions over a Kysely instance or transaction. */
import type { Kysely } from 'kysely';
import type { Booking, Database, WeatherDay } from './database.ts';

type Db = Kysely<Database>;

/**
 * The weather day of a date and kind, made by `askedBy` unless one exists (a repeat ask, or two
 * at once: ON CONFLICT, then the row the other one committed).
 */
export async function weatherDayFor(db: Db, date: string, serviceType: string, askedBy: string): Promise<WeatherDay> {
  const inserted = await db
    .insertInto('weather_days')
    .values({ date, service_type: serviceType, asked_by: askedBy })
    .onConflict((oc) => oc.columns(['date', 'service_type']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return inserted;
  return db.selectFrom('weather_days').selectAll().where('date', '=', date).where('service_type', '=', serviceType).executeTakeFirstOrThrow();
}

/**
 * Flags the upcoming (pending or confirmed) bookings of the weather day's date and kind that it
 * has not asked yet and whose appointment starts after `now`: each then carries the weather day
 * and `moveUntil`, and its version moves on (a page open on it is stale). Returns them, by start.
 * A booking already asked by this weather day is never asked again: two asks at once each flag
 * a booking at most once between them (the second update waits for the first and re-checks).
 */
export async function askBookings(db: Db, day: WeatherDay, now: Date, moveUntil: Date): Promise<Booking[]> {
  const rows = await db
    .updateTable('bookings')
    .set((eb) => ({ weather_day_id: day.id, weather_move_until: moveUntil, version: eb('version', '+', 1) }))
    .where('date', '=', day.date)
    .where('service_type', '=', day.service_type)
    .where('status', 'in', ['pending', 'confirmed'])
    .where('starts_at', '>', now)
    .where((eb) => eb.or([eb('weather_day_id', 'is', null), eb('weather_day_id', '!=', day.id)]))
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime() || a.id.localeCompare(b.id));
}

/** The weather days of a date (both kinds, on-site first), each with the bookings it asked, by start. */
export async function weatherDaysOn(db: Db, date: string): Promise<{ day: WeatherDay; bookings: Booking[] }[]> {
  const days = await db.selectFrom('weather_days').selectAll().where('date', '=', date).orderBy('service_type', 'desc').execute();
  if (days.length === 0) return [];
  const bookings = await db
    .selectFrom('bookings')
    .selectAll()
    .where(
      'weather_day_id',
      'in',
      days.map((day) => day.id),
    )
    .orderBy('starts_at')
    .orderBy('id')
    .execute();
  return days.map((day) => ({ day, bookings: bookings.filter((booking) => booking.weather_day_id === day.id) }));
}
