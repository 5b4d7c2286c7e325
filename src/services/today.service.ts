/**
 * The Today view's two actions on a job (issue 21): "On the way" tells the customer once, by
 * e-mail, when the detailer expects to arrive; "Started" records when the work began. Each is a
 * compare-and-set on the booking's version, recorded in its history, in one transaction with the
 * e-mail it causes. "Complete" is the completion form's (POST /v1/bookings/{id}/completion). And
 * each van's route of the day (issue 40): its stops in order with directions, and its driving.
 */
import type { Kysely } from 'kysely';
import { aucklandClockText, todayInAuckland } from '../domain/booking-dates.ts';
import type { Booking, BookingStatusChange, Database } from '../db/database.ts';
import { findBooking, insertStatusChange, statusHistory } from '../db/bookings.repository.ts';
import { conflict, notFound } from '../errors.ts';
import { queueBookingMessage } from '../mail/booking-mail.ts';
import type { MailContext } from '../mail/mail-context.ts';
import { onTheWayMessage } from '../mail/on-the-way.ts';
import { StaleBookingError } from './staff-bookings.service.ts';
import type { TravelTable } from '../domain/service-area.ts';
import { directionsUrl, firstNameOf, oneLineAddress, vanDriving, type VanDriving } from '../domain/van-day.ts';
import { bookingInputOf } from '../db/booking-input.ts';

export const TODAY_MESSAGES = {
  notOpen: 'Only a pending or confirmed job can be travelled to or started.',
  onsiteOnly: 'Only on-site jobs are travelled to: drop-off customers come to us.',
  notToday: 'Customers can be told you are on the way only on the day of their job.',
  alreadyOnTheWay: (at: string) => `The customer was already told at ${at} that you are on the way.`,
  alreadyStarted: (at: string) => `This job was already started at ${at}.`,
} as const;

/** Arrival times are given to the customer to the next five minutes. */
const FIVE_MINUTES = 5 * 60_000;

export function arrivalTime(now: Date, minutes: number): Date {
  return new Date(Math.ceil((now.getTime() + minutes * 60_000) / FIVE_MINUTES) * FIVE_MINUTES);
}

interface TodayAction {
  id: string;
  version: number;
  by: string;
}

async function current(db: Kysely<Database>, action: TodayAction): Promise<Booking> {
  const booking = await findBooking(db, action.id);
  if (!booking) throw notFound('No such booking');
  if (booking.version !== action.version) throw new StaleBookingError(booking);
  if (booking.status !== 'pending' && booking.status !== 'confirmed') throw conflict(TODAY_MESSAGES.notOpen);
  return booking;
}

export async function markOnTheWay(
  db: Kysely<Database>,
  action: TodayAction & { minutes: number },
  mail: MailContext,
): Promise<{ booking: Booking; history: BookingStatusChange[] }> {
  const now = mail.now();
  return db.transaction().execute(async (trx) => {
    const booking = await current(trx, action);
    if (booking.service_type !== 'onsite') throw conflict(TODAY_MESSAGES.onsiteOnly);
    if (booking.date !== todayInAuckland(now)) throw conflict(TODAY_MESSAGES.notToday);
    if (booking.on_the_way_at) throw conflict(TODAY_MESSAGES.alreadyOnTheWay(aucklandClockText(booking.on_the_way_at)));
    const arrivingAt = arrivalTime(now, action.minutes);
    const updated = await trx
      .updateTable('bookings')
      .set((eb) => ({ on_the_way_at: now, arriving_at: arrivingAt, version: eb('version', '+', 1) }))
      .where('id', '=', booking.id)
      .where('version', '=', action.version)
      .where('on_the_way_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new StaleBookingError((await findBooking(trx, booking.id)) ?? booking);
    await insertStatusChange(trx, {
      booking_id: booking.id,
      from_status: booking.status,
      to_status: booking.status,
      changed_by: action.by,
      note: `On the way, arriving about ${aucklandClockText(arrivingAt)}${booking.email ? ' (customer e-mailed)' : ''}`,
    });
    // Composed when it is sent, from the snapshot of the booking as written here (issue 24).
    if (booking.email) await queueBookingMessage(trx, updated, onTheWayMessage(updated, arrivingAt, mail), mail);
    return { booking: updated, history: await statusHistory(trx, booking.id) };
  });
}

export async function markStarted(db: Kysely<Database>, action: TodayAction, now: Date): Promise<{ booking: Booking; history: BookingStatusChange[] }> {
  return db.transaction().execute(async (trx) => {
    const booking = await current(trx, action);
    if (booking.started_at) throw conflict(TODAY_MESSAGES.alreadyStarted(aucklandClockText(booking.started_at)));
    const updated = await trx
      .updateTable('bookings')
      .set((eb) => ({ started_at: now, version: eb('version', '+', 1) }))
      .where('id', '=', booking.id)
      .where('version', '=', action.version)
      .where('started_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new StaleBookingError((await findBooking(trx, booking.id)) ?? booking);
    await insertStatusChange(trx, { booking_id: booking.id, from_status: booking.status, to_status: booking.status, changed_by: action.by, note: `Started at ${aucklandClockText(now)}` });
    return { booking: updated, history: await statusHistory(trx, booking.id) };
  });
}

export interface RouteStop {
  bookingId: string;
  time: string;
  firstName: string;
  address: string;
  /** The zone's name; null outside the service area. */
  zoneName: string | null;
  directionsUrl: string;
}

export interface VanRoute extends VanDriving {
  stops: RouteStop[];
}

/**
 * A van's jobs of a day as its route: the stops in the order it reaches them, each with the
 * directions to it, and the day's driving (vanDriving's rule) under the current zones and travel.
 */
export function vanRoute(jobs: readonly Booking[], zoneNames: ReadonlyMap<string, string>, table: TravelTable): VanRoute {
  const ordered = [...jobs].sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime());
  const stops = ordered.map((job) => {
    const address = oneLineAddress(bookingInputOf(job));
    return {
      bookingId: job.id,
      time: job.time,
      firstName: firstNameOf(job.name),
      address,
      zoneName: job.zone_id === null ? null : (zoneNames.get(job.zone_id) ?? null),
      directionsUrl: directionsUrl(address),
    };
  });
  return { stops, ...vanDriving(ordered.map((job) => job.zone_id), table) };
}
