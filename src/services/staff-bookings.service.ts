/**
 * What staff do with bookings: find them (paged, in PostgreSQL), read one with its history,
 * change its status (compare-and-set, recorded in an append-only history), plan the days ahead,
 * and export a filtered list.
 */
import type { Kysely } from 'kysely';
import { addDaysToDay, todayInAuckland } from '../domain/booking-dates.ts';
import { holdsSlot, isLateCancellation, STATUS_MESSAGES, statusRefusal, type BookingStatus } from '../domain/booking-status.ts';
import type { Booking, BookingStatusChange, Database } from '../db/database.ts';
import {
  bookingsBetween,
  findBooking,
  insertStatusChange,
  searchBookings,
  statusHistory,
  updateStatusIfVersion,
  type BookingCursor,
  type BookingFilters,
  type BookingRow,
  type BookingSort,
} from '../db/bookings.repository.ts';
import { lockPlacement } from '../db/bookings.repository.ts';
import { AppError, conflict, notFound } from '../errors.ts';
import { bookedDuration, kindOf, placeJob, PlacementRefusedError, type Placement } from './scheduling.service.ts';
import { isCalendarDate } from '../domain/booking-rules.ts';
import { queueBookingMail } from '../mail/booking-mail.ts';
import { recordCompletion } from './completion-record.ts';
import type { MailContext } from '../mail/mail-context.ts';
import { decodeCursorObject, encodeCursor, invalidCursor, isTimestampText, isUuid } from './paging-cursor.ts';
import { setEntryStatusOfBooking } from '../db/waitlist.repository.ts';

export interface BookingPage {
  bookings: Booking[];
  nextCursor: string | null;
}

/** A cursor comes back from the client, so it is checked like any other input. */
export function decodeCursor(value: string, sort: BookingSort): BookingCursor {
  const parsed = decodeCursorObject(value);
  if (parsed.sort !== sort || !isUuid(parsed.id)) throw invalidCursor();
  if (sort === 'newest') {
    if (!isTimestampText(parsed.createdAt)) throw invalidCursor();
    return { sort, createdAt: parsed.createdAt, id: parsed.id };
  }
  if (typeof parsed.date !== 'string' || !isCalendarDate(parsed.date) || typeof parsed.time !== 'string' || !/^([01]\d|2[0-3]):00$/.test(parsed.time)) throw invalidCursor();
  return { sort, date: parsed.date, time: parsed.time, id: parsed.id };
}

function cursorAfter(row: BookingRow, sort: BookingSort): BookingCursor {
  return sort === 'newest' ? { sort, createdAt: row.created_at_exact, id: row.id } : { sort, date: row.date, time: row.time, id: row.id };
}

function withoutCursorColumn({ created_at_exact: _exact, ...booking }: BookingRow): Booking {
  return booking;
}

export async function findBookings(
  db: Kysely<Database>,
  filters: BookingFilters,
  options: { sort: BookingSort; limit: number; cursor?: string },
): Promise<BookingPage> {
  const cursor = options.cursor ? decodeCursor(options.cursor, options.sort) : undefined;
  const rows = await searchBookings(db, filters, options.sort, options.limit, cursor);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    bookings: page.map(withoutCursorColumn),
    nextCursor: rows.length > options.limit && last ? encodeCursor(cursorAfter(last, options.sort)) : null,
  };
}

/** Every booking matching the filters, newest first, a batch at a time (for the CSV export). */
export async function* allBookings(db: Kysely<Database>, filters: BookingFilters, batchSize = 1000): AsyncGenerator<Booking> {
  let cursor: BookingCursor | undefined;
  for (;;) {
    const rows = await searchBookings(db, filters, 'newest', batchSize, cursor);
    const batch = rows.slice(0, batchSize);
    for (const row of batch) yield withoutCursorColumn(row);
    if (rows.length <= batchSize) return;
    cursor = cursorAfter(batch.at(-1)!, 'newest');
  }
}

export async function bookingDetails(db: Kysely<Database>, id: string): Promise<{ booking: Booking; history: BookingStatusChange[] }> {
  const booking = await findBooking(db, id);
  if (!booking) throw notFound('No such booking');
  return { booking, history: await statusHistory(db, id) };
}

export interface StatusChangeRequest {
  id: string;
  /** The version the staff member was looking at. */
  version: number;
  to: BookingStatus;
  by: string;
}

export const REOPEN_MESSAGES = {
  full: 'Every van or bay is taken for part of this job now, so the booking cannot be reopened. Cancel or move another booking first, or book the customer at another time.',
  closed: 'This time is closed now, so the booking cannot be reopened. Reopen the time in the Schedule view first, or book the customer at another time.',
  hours: 'This time is outside the working hours now, so the booking cannot be reopened. Change the hours in the Schedule view first, or book the customer at another time.',
  travel: 'A van is free then, but none can drive between this job and its jobs before and after in time, so the booking cannot be reopened. Move a neighbouring job first, or book the customer at another time.',
} as const;

const REOPEN_MESSAGE_OF: Partial<Record<string, string>> = { closed: REOPEN_MESSAGES.closed, full: REOPEN_MESSAGES.full, travel: REOPEN_MESSAGES.travel };

/**
 * Changes a booking's status if nobody changed it since the caller looked (compare-and-set on
 * the version): a second tab acting on stale data gets 409 and the booking as it is now. The
 * change must be in the transition table (src/domain/booking-status.ts), with its time condition
 * on the app's clock (a no-show once the appointment has started); a cancellation within
 * MANAGE_CUTOFF_HOURS of the start is marked late. A no-show e-mails nobody and keeps its place. A
 * cancelled booking taking its place back is a new claim on the schedule: it goes through the
 * engine under the kind's day lock (a van or bay free for the whole job, inside the hours, no
 * closure), exactly as a new booking would, and may get another van or bay than it had.
 */
export async function changeBookingStatus(db: Kysely<Database>, change: StatusChangeRequest, mail: MailContext): Promise<{ booking: Booking; history: BookingStatusChange[] }> {
  return db.transaction().execute(async (trx) => {
    const current = await bookingAtVersion(trx, change.id, change.version);
    const now = mail.now();
    const refusal = statusRefusal(current.status, change.to, { startsAt: current.starts_at, now });
    if (refusal) {
      const message = refusal === 'not-started' ? STATUS_MESSAGES.notStarted : STATUS_MESSAGES.notAllowed(current.status, change.to);
      throw conflict(message, [{ field: 'status', message }]);
    }
    let placement: Placement | undefined;
    if (!holdsSlot(current.status) && holdsSlot(change.to)) {
      const kind = kindOf(current.service_type);
      await lockPlacement(trx, current.date, [kind]);
      try {
        placement = await placeJob(trx, { kind, date: current.date, time: current.time, durationMinutes: bookedDuration(current), zoneId: current.zone_id, bookingId: current.id });
      } catch (error) {
        if (!(error instanceof PlacementRefusedError)) throw error;
        const message = REOPEN_MESSAGE_OF[error.reason] ?? REOPEN_MESSAGES.hours;
        throw conflict(message, [{ field: 'status', message }]);
      }
    }
    const late = change.to === 'cancelled' && isLateCancellation(current.starts_at, now, mail.manageCutoffHours);
    const updated = await updateStatusIfVersion(trx, change.id, change.version, change.to, placement, late);
    if (!updated) throw new StaleBookingError((await findBooking(trx, change.id))!);
    await insertStatusChange(trx, {
      booking_id: change.id,
      from_status: current.status,
      to_status: change.to,
      changed_by: change.by,
      ...(late ? { note: STATUS_MESSAGES.lateCancellation } : {}),
    });
    // A waitlist offer withdrawn (issue 43): nothing was booked, so no cancellation e-mail; its entry ends.
    const withdrawn = current.status === 'offered';
    if (withdrawn) await setEntryStatusOfBooking(trx, change.id, 'offered', 'withdrawn');
    if (change.to === 'confirmed' || (change.to === 'cancelled' && !withdrawn)) await queueBookingMail(trx, { type: change.to, bookingId: change.id, booking: updated, by: 'staff' }, mail);
    // Completed through the status alone: the total, unpaid, with its receipt (issue 21; POST
    // /v1/bookings/{id}/completion records another amount or the payment).
    if (change.to === 'completed') await recordCompletion(trx, updated, { by: change.by }, mail);
    return { booking: updated, history: await statusHistory(trx, change.id) };
  });
}

/** 409 carrying the booking as it is now, so the dashboard can show what changed. */
export class StaleBookingError extends AppError {
  constructor(readonly current: Booking) {
    super(409, 'STALE_BOOKING', 'This booking was changed by someone else. It has been reloaded; please check it and try again.');
  }
}

/**
 * The booking a staff change is about, as the client last saw it: 404 when there is none, the
 * stale-booking 409 (with the booking as it is now) when its version has moved on.
 */
export async function bookingAtVersion(trx: Kysely<Database>, id: string, version: number): Promise<Booking> {
  const current = await findBooking(trx, id);
  if (!current) throw notFound('No such booking');
  if (current.version !== version) throw new StaleBookingError(current);
  return current;
}

export const UPCOMING_RANGES = ['today', 'tomorrow', 'week'] as const;
export type UpcomingRange = (typeof UPCOMING_RANGES)[number];

/** The appointment dates a range covers, in Auckland: today, tomorrow, or today and the next six days. */
export function rangeDates(range: UpcomingRange, now: Date): { from: string; to: string } {
  const today = todayInAuckland(now);
  const day = (offset: number) => addDaysToDay(today, offset);
  if (range === 'today') return { from: today, to: today };
  if (range === 'tomorrow') return { from: day(1), to: day(1) };
  return { from: today, to: day(6) };
}

export const UPCOMING_LIMIT = 500;

export async function upcomingBookings(db: Kysely<Database>, range: UpcomingRange, now: Date): Promise<{ from: string; to: string; bookings: Booking[] }> {
  const dates = rangeDates(range, now);
  return { ...dates, bookings: await bookingsBetween(db, dates.from, dates.to, UPCOMING_LIMIT) };
}

export interface ReleaseRequest {
  ids: readonly string[];
  /** The staff member's reason, kept in each history row. */
  reason: string;
  by: string;
}

export interface ReleaseResult {
  released: Booking[];
  skipped: { id: string; reason: string }[];
}

export const RELEASE_SKIP_REASONS = {
  unknown: 'No such booking',
  cancelled: 'Already cancelled',
  completed: 'Already completed',
  'no-show': 'Already marked as a no-show',
} as const;

/**
 * "Release as spam" (issue 23): every pending or confirmed booking named is cancelled without any
 * e-mail to the address it gave (its queued customer e-mails, the reminder among them, are marked
 * skipped, and none is queued), its place freed (a cancelled booking holds nothing), and a history
 * row recorded with the reason, all in one transaction. The rows are locked in id order (FOR
 * UPDATE), so a release and a status change or move of the same booking take turns, and two
 * releases cannot deadlock. Ids that are unknown or already cancelled or completed are listed as
 * skipped.
 */
export async function releaseBookings(db: Kysely<Database>, request: ReleaseRequest): Promise<ReleaseResult> {
  const ids = [...new Set(request.ids.map((id) => id.toLowerCase()))].sort();
  const reason = request.reason.trim();
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('bookings').selectAll().where('id', 'in', ids).orderBy('id').forUpdate().execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    const released: Booking[] = [];
    const skipped: { id: string; reason: string }[] = [];
    for (const id of ids) {
      const current = byId.get(id);
      if (!current) {
        skipped.push({ id, reason: RELEASE_SKIP_REASONS.unknown });
        continue;
      }
      if (current.status !== 'pending' && current.status !== 'confirmed') {
        const reason = current.status === 'completed' || current.status === 'no-show' ? RELEASE_SKIP_REASONS[current.status] : RELEASE_SKIP_REASONS.cancelled;
        skipped.push({ id, reason });
        continue;
      }
      const updated = (await updateStatusIfVersion(trx, id, current.version, 'cancelled'))!;
      await insertStatusChange(trx, { booking_id: id, from_status: current.status, to_status: 'cancelled', changed_by: request.by, note: reason });
      await trx
        .updateTable('outbox_emails')
        .set({ status: 'skipped', last_error: 'The booking was released as spam' })
        .where('booking_id', '=', id)
        .where('status', '=', 'queued')
        .where('kind', 'not like', 'staff-%')
        .execute();
      released.push(updated);
    }
    return { released, skipped };
  });
}
