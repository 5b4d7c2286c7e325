/**
 * What a customer does on their booking's manage page: find it by the link's token, cancel it, or
 * move it to another slot. Each change is a compare-and-set on bookings.version, the same one staff
 * status changes use, so a customer and a staff member acting at once cannot overwrite each other:
 * whoever comes second is told and shown the booking as it is now. Each change is recorded in the
 * booking's history as made by the customer, and queues its e-mail, in the same transaction.
 */
import type { Kysely } from 'kysely';
import { bookingWindow, slotStartsAt } from '../domain/booking-dates.ts';
import { dateError, timeError } from '../domain/booking-rules.ts';
import { MANAGE_MESSAGES, manageLock, moveLimitExplanation, type ManageLock } from '../domain/manage-rules.ts';
import type { FieldError } from '../domain/messages.ts';
import { weatherMoveOpen } from '../domain/weather-day.ts';
import type { Booking, Database } from '../db/database.ts';
import { findBookingByManageHash, insertStatusChange, lockPlacement, moveIfVersion, updateStatusIfVersion } from '../db/bookings.repository.ts';
import { confirmEmailIfVersion, lapseUnconfirmed } from '../db/email-confirmation.repository.ts';
import { queueLapsedWebhooks } from '../webhooks/queue.ts';
import { AppError, notFound, validationFailed } from '../errors.ts';
import { queueBookingMail } from '../mail/booking-mail.ts';
import type { MailContext } from '../mail/mail-context.ts';
import { bookedDuration, kindOf, placeJob } from './scheduling.service.ts';
import { hashManageToken } from '../db/manage-link.repository.ts';
import { isManageTokenShape } from '../domain/manage-link.ts';

/** Who a customer's change is recorded as, in the history staff read. */
export const CUSTOMER = 'Customer';

export interface ManageOptions {
  now: Date;
  /** Changes close this many hours before the appointment. */
  cutoffHours: number;
  /** What the customer's e-mails are composed with (the app's `app.mail`). */
  mail: MailContext;
  /** MANAGE_MAX_CHANGES: moves the customer may make to one booking; 0 or absent: no cap. */
  maxChanges?: number;
  /** The number a customer past the cap is told to call. */
  phone?: string;
}

/** How many times the customer has moved the booking (its history's moves made as CUSTOMER; staff moves are not counted). */
export async function customerMoveCount(db: Kysely<Database>, bookingId: string): Promise<number> {
  const row = await db
    .selectFrom('booking_status_changes')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('booking_id', '=', bookingId)
    .where('changed_by', '=', CUSTOMER)
    .where('from_date', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Whether the customer has used up their moves of this booking (always false without a cap, and
 * while a weather day's window to choose a new time is open at `now`).
 */
export async function moveLimitReached(
  db: Kysely<Database>,
  booking: Pick<Booking, 'id'> & Partial<Pick<Booking, 'weather_move_until'>>,
  maxChanges: number | undefined,
  now?: Date,
): Promise<boolean> {
  if (!maxChanges) return false;
  if (now && weatherMoveOpen(booking.weather_move_until, now)) return false;
  return (await customerMoveCount(db, booking.id)) >= maxChanges;
}

/** The instant the appointment starts. */
export function appointmentStart(booking: Pick<Booking, 'date' | 'time'>): Date {
  return new Date(slotStartsAt(booking.date, booking.time));
}

/**
 * Why the booking cannot be changed on its page now, or null when it can. A booking awaiting a new
 * time after a weather day has no notice period until its window closes (WEATHER_MOVE_DAYS).
 */
export function lockOf(booking: Booking, options: Pick<ManageOptions, 'now' | 'cutoffHours'>): ManageLock | null {
  const cutoffHours = weatherMoveOpen(booking.weather_move_until, options.now) ? 0 : options.cutoffHours;
  return manageLock(booking.status, appointmentStart(booking).getTime() - options.now.getTime(), cutoffHours);
}

/**
 * The booking a manage token opens, or undefined: a token of the wrong shape, unknown, or whose
 * appointment has started (the link works until then).
 */
export async function findManagedBooking(db: Kysely<Database>, token: string, now: Date): Promise<Booking | undefined> {
  if (!isManageTokenShape(token)) return undefined;
  const booking = await findBookingByManageHash(db, hashManageToken(token));
  if (!booking || appointmentStart(booking).getTime() <= now.getTime()) return undefined;
  return booking;
}

/** 409 carrying the booking as it is now: someone (staff) changed it since the customer looked. */
export class BookingChangedError extends AppError {
  constructor(readonly current: Booking) {
    super(409, 'STALE_BOOKING', MANAGE_MESSAGES.changedMeanwhile);
  }
}

/** 409: the booking can no longer be changed online (cancelled, completed, or past the cutoff). */
export class ManageLockedError extends AppError {
  constructor(readonly current: Booking, readonly lock: ManageLock) {
    super(409, 'BOOKING_LOCKED', MANAGE_MESSAGES.locked[lock]);
  }
}

/** 409: the customer has moved this booking MANAGE_MAX_CHANGES times; staff can still move it, the customer can still cancel. */
export class MoveLimitError extends AppError {
  constructor(readonly current: Booking, maxChanges: number, phone: string) {
    super(409, 'MOVE_LIMIT_REACHED', moveLimitExplanation(maxChanges, phone));
  }
}

/** The booking, still at `version` and open to changes, inside the caller's transaction. */
async function changeable(trx: Kysely<Database>, token: string, version: number, options: ManageOptions): Promise<Booking> {
  const current = await findManagedBooking(trx, token, options.now);
  if (!current) throw notFound(MANAGE_MESSAGES.notFound);
  if (current.version !== version) throw new BookingChangedError(current);
  const lock = lockOf(current, options);
  if (lock) throw new ManageLockedError(current, lock);
  return current;
}

export async function cancelByCustomer(db: Kysely<Database>, token: string, version: number, options: ManageOptions): Promise<Booking> {
  return db.transaction().execute(async (trx) => {
    const current = await changeable(trx, token, version, options);
    const updated = await updateStatusIfVersion(trx, current.id, version, 'cancelled');
    if (!updated) throw new BookingChangedError((await findManagedBooking(trx, token, options.now)) ?? current);
    await insertStatusChange(trx, { booking_id: current.id, from_status: current.status, to_status: 'cancelled', changed_by: CUSTOMER });
    await queueBookingMail(trx, { type: 'cancelled', bookingId: current.id, booking: updated, by: 'customer' }, options.mail);
    return updated;
  });
}

/** The field errors of a requested slot, before any database work (the wizard's rules): the date's, else the time's. */
export function moveTargetErrors(date: string, time: string, now: Date): FieldError[] {
  const error = dateError(date, bookingWindow(now)) ?? timeError(time);
  return error ? [error] : [];
}

/**
 * Moves the booking to another time, through the scheduling engine under the kind's day lock (the
 * one every writer takes): the job keeps the duration it was booked with, and gets a van or bay
 * free for the whole of it, or the customer is told why not.
 */
export async function moveByCustomer(
  db: Kysely<Database>,
  token: string,
  version: number,
  target: { date: string; time: string },
  options: ManageOptions,
): Promise<Booking> {
  const errors = moveTargetErrors(target.date, target.time, options.now);
  if (errors.length > 0) throw validationFailed(errors);
  return db.transaction().execute(async (trx) => {
    const current = await changeable(trx, token, version, options);
    // Counted in the transaction, on the version just checked: two moves posted at once cannot
    // both pass, as the second finds the version changed.
    if (options.maxChanges && (await moveLimitReached(trx, current, options.maxChanges, options.now))) {
      throw new MoveLimitError(current, options.maxChanges, options.phone ?? '');
    }
    if (current.date === target.date && current.time === target.time) {
      throw validationFailed([{ field: 'time', message: MANAGE_MESSAGES.sameSlot }]);
    }
    const kind = kindOf(current.service_type);
    await lockPlacement(trx, target.date, [kind]);
    // Bookings on that day whose customers never confirmed them give their places up first.
    await queueLapsedWebhooks(trx, await lapseUnconfirmed(trx, options.now, target.date), { now: () => options.now });
    const placement = await placeJob(trx, { kind, date: target.date, time: target.time, durationMinutes: bookedDuration(current), zoneId: current.zone_id, bookingId: current.id });
    const updated = await moveIfVersion(trx, current.id, version, target.date, target.time, placement);
    if (!updated) throw new BookingChangedError((await findManagedBooking(trx, token, options.now)) ?? current);
    await insertStatusChange(trx, {
      booking_id: current.id,
      from_status: current.status,
      to_status: current.status,
      changed_by: CUSTOMER,
      from_date: current.date,
      from_time: current.time,
      to_date: target.date,
      to_time: target.time,
      from_resource_id: current.resource_id,
      to_resource_id: placement.resource_id,
    });
    await queueBookingMail(trx, { type: 'moved', bookingId: current.id, booking: updated, by: 'customer', from: { date: current.date, time: current.time } }, options.mail);
    return updated;
  });
}

/**
 * BOOKING_CONFIRMATION=email: the customer confirms the booking that waits for them (a POST from
 * the manage page their e-mail links to; opening the link alone changes nothing, as mail scanners
 * open links). Allowed whatever the notice period: a booking for tomorrow morning made tonight is
 * inside it from the start. The booking stays pending, for staff to confirm as usual.
 */
export async function confirmEmailByCustomer(db: Kysely<Database>, token: string, version: number, options: Pick<ManageOptions, 'now'>): Promise<Booking> {
  return db.transaction().execute(async (trx) => {
    const current = await findManagedBooking(trx, token, options.now);
    if (!current) throw notFound(MANAGE_MESSAGES.notFound);
    if (current.version !== version) throw new BookingChangedError(current);
    const updated = await confirmEmailIfVersion(trx, current.id, version, options.now);
    if (!updated) throw new AppError(409, 'NOT_AWAITING_CONFIRMATION', MANAGE_MESSAGES.notAwaiting);
    await insertStatusChange(trx, { booking_id: current.id, from_status: current.status, to_status: current.status, changed_by: CUSTOMER, note: 'Confirmed from the e-mail link' });
    return updated;
  });
}
