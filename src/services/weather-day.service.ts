/**
 * Weather days (issue 21): staff ask every customer of one kind of job on a date to choose a new
 * time. In one transaction: the weather day is recorded (once per date and kind), each upcoming
 * booking of that kind on that date not asked yet is flagged "awaiting a new time" for
 * WEATHER_MOVE_DAYS, its history says so, and its customer's apology e-mail (with the manage
 * link) is queued in the outbox. Nothing is cancelled: the bookings keep their place until the
 * customer or staff move them, or they are cancelled. Asking again for the same date and kind
 * asks only the bookings not asked yet, so nobody is e-mailed twice.
 */
import type { Kysely } from 'kysely';
import { latestBookingDate, todayInAuckland } from '../domain/booking-dates.ts';
import { isCalendarDate } from '../domain/booking-rules.ts';
import type { FieldError } from '../domain/messages.ts';
import { WEATHER_MESSAGES, weatherMoveDeadline, type WeatherServiceType } from '../domain/weather-day.ts';
import type { Booking, Database, WeatherDay } from '../db/database.ts';
import { insertStatusChange, lockPlacement } from '../db/bookings.repository.ts';
import { askBookings, weatherDayFor, weatherDaysOn } from '../db/weather-days.repository.ts';
import { validationFailed } from '../errors.ts';
import { queueBookingMail } from '../mail/booking-mail.ts';
import type { MailContext } from '../mail/mail-context.ts';

export interface WeatherAsk {
  date: string;
  serviceType: WeatherServiceType;
  /** The signed-in staff member's name. */
  by: string;
}

function dateErrors(date: string, now: Date): FieldError[] {
  if (!isCalendarDate(date)) return [{ field: 'date', message: WEATHER_MESSAGES.dateInvalid }];
  if (date < todayInAuckland(now)) return [{ field: 'date', message: WEATHER_MESSAGES.datePast }];
  if (date > latestBookingDate(now)) return [{ field: 'date', message: WEATHER_MESSAGES.dateTooFar }];
  return [];
}

export async function askCustomersToReschedule(
  db: Kysely<Database>,
  ask: WeatherAsk,
  options: { now: Date; mail: MailContext },
): Promise<{ day: WeatherDay; asked: Booking[] }> {
  const errors = dateErrors(ask.date, options.now);
  if (errors.length > 0) throw validationFailed(errors);
  return db.transaction().execute(async (trx) => {
    // The kind's day lock every writer of that day takes: no booking is placed or moved there
    // while its customers are being asked.
    await lockPlacement(trx, ask.date, [ask.serviceType]);
    const day = await weatherDayFor(trx, ask.date, ask.serviceType, ask.by);
    const asked = await askBookings(trx, day, options.now, weatherMoveDeadline(options.now));
    for (const booking of asked) {
      await insertStatusChange(trx, {
        booking_id: booking.id,
        from_status: booking.status,
        to_status: booking.status,
        changed_by: ask.by,
        note: WEATHER_MESSAGES.historyNote,
      });
      await queueBookingMail(trx, { type: 'weather', bookingId: booking.id, booking }, options.mail);
    }
    return { day, asked };
  });
}

/** The weather days of a date, each with the bookings it asked. */
export async function weatherDaysOfDate(db: Kysely<Database>, date: string): Promise<{ day: WeatherDay; bookings: Booking[] }[]> {
  if (!isCalendarDate(date)) throw validationFailed([{ field: 'date', message: WEATHER_MESSAGES.dateInvalid }]);
  return weatherDaysOn(db, date);
}
