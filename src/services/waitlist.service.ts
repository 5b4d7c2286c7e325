/**
 * The waitlist (issue 43): a customer for whom no start fits on a date joins that date's list; when
 * a place opens there (a cancellation, a move away, a release, a lapse, a closure removed, a van
 * added or its hours extended), it is offered to the first entry that fits, in order of joining.
 *
 * An offer is a booking made through createBooking (the same rules, locks, engine and exclusion
 * constraint as any booking) in status 'offered', holding its place for WAITLIST_HOLD_MINUTES.
 * The customer confirms it (it becomes pending, with the usual confirmation e-mail) or says no
 * thanks from its manage page; unconfirmed, it lapses. Either way the place is offered to the next
 * entry that fits. Each offer runs in its own transaction under the date's waitlist lock, so the
 * sweeps of several instances serve a date's entries one at a time and in order; a
 * compare-and-set on the entry's state makes sure an entry is offered one place at most.
 */
import type { Kysely } from 'kysely';
import { bookingWindow } from '../domain/booking-dates.ts';
import { emptyBooking, jobOf, validateBooking, TIME_SLOTS, type BookingInput } from '../domain/booking-rules.ts';
import { jobLines, linesMinutes } from '../domain/job.ts';
import { MANAGE_MESSAGES } from '../domain/manage-rules.ts';
import { MESSAGES } from '../domain/messages.ts';
import { entryEndsAt, isWaitlistPart, startInPart, WAITLIST_MESSAGES, type WaitlistPart } from '../domain/waitlist.ts';
import type { Booking, Database, WaitlistEntry } from '../db/database.ts';
import { insertStatusChange, lockCustomer, lockWaitlistDay, updateStatusIfVersion } from '../db/bookings.repository.ts';
import { listZones } from '../db/service-zones.repository.ts';
import {
  datesWithWaiting,
  endPastEntries,
  entryOfBooking,
  findWaitlistEntry,
  insertWaitlistEntry,
  lapseOffers,
  openEntryDates,
  setEntryStatus,
  setEntryStatusOfBooking,
  waitingEntries,
} from '../db/waitlist.repository.ts';
import { inTransaction } from '../db/transaction.ts';
import { AppError, conflict, notFound, validationFailed } from '../errors.ts';
import { queueBookingMail } from '../mail/booking-mail.ts';
import type { MailContext } from '../mail/mail-context.ts';
import { createBooking } from './booking.service.ts';
import { BookingChangedError, CUSTOMER, findManagedBooking } from './manage-booking.service.ts';
import { availabilityOn, kindOf, zoneOfJob, type JobQuery } from './scheduling.service.ts';

export interface WaitlistOptions {
  now: Date;
  mail: MailContext;
  /** WAITLIST_MAX_PER_EMAIL: open entries per address; 0: no cap. */
  maxPerEmail: number;
  /** WAITLIST_HOLD_MINUTES: how long an offered place is held. */
  holdMinutes: number;
  /** MAX_ACTIVE_BOOKINGS_PER_EMAIL: an offer is a booking, held to the same cap. */
  maxActivePerEmail: number;
}

/** What joining takes: the create-booking body (its time left out) and the part of the day. */
export type WaitlistRequest = Partial<BookingInput> & { date?: string; part?: string };

/** The request as stored: the booking body without its date, time and part (trimmed like a booking's). */
function storedRequest(input: BookingInput & { part?: unknown }): Record<string, unknown> {
  const { date: _date, time: _time, part: _part, ...rest } = input;
  const trimmed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) trimmed[key] = typeof value === 'string' ? value.trim() : value;
  return trimmed;
}

/** The job an entry waits to have done: its minutes, kind and where. */
function jobOfRequest(input: BookingInput, mail: MailContext): JobQuery {
  const lines = jobLines(jobOf(input).vehicles);
  if (lines === undefined) throw validationFailed([{ field: 'service', message: MESSAGES.serviceUnknown }]);
  return { durationMinutes: linesMinutes(lines), kinds: [kindOf(input.serviceType)], where: { postalCode: input.postalCode, business: mail.business } };
}

const inputOf = (entry: Pick<WaitlistEntry, 'request' | 'date'>, time: string): BookingInput => ({
  ...emptyBooking(),
  ...(entry.request as Partial<BookingInput>),
  date: entry.date,
  time,
});

/**
 * Joins a date's waitlist: the booking's own rules (every field but the time), a postcode in the
 * service area, and at most WAITLIST_MAX_PER_EMAIL open entries per address (one per date),
 * counted under the customer's lock so that entries sent at once cannot overshoot it.
 */
export async function joinWaitlist(db: Kysely<Database>, raw: WaitlistRequest, options: WaitlistOptions): Promise<WaitlistEntry> {
  const part = raw.part === undefined || raw.part === '' ? 'any' : raw.part;
  const input: BookingInput = { ...emptyBooking(), ...raw, date: raw.date ?? '', time: TIME_SLOTS[0]! };
  // The time is the offer's to choose; every other rule is the booking's.
  const errors = validateBooking(input, bookingWindow(options.now)).filter((error) => error.field !== 'time');
  if (!isWaitlistPart(part)) errors.push({ field: 'part', message: WAITLIST_MESSAGES.partInvalid });
  if (errors.length > 0) throw validationFailed(errors);
  const job = jobOfRequest(input, options.mail);
  // On site: a postcode outside the service area is refused now, not after a wait.
  if (input.serviceType === 'onsite') zoneOfJob(await listZones(db), job.where);
  return inTransaction(db, async (trx) => {
    await lockCustomer(trx, { email: input.email });
    const open = await openEntryDates(trx, input.email);
    if (open.includes(input.date)) throw conflict(WAITLIST_MESSAGES.alreadyWaiting, [{ field: 'date', message: WAITLIST_MESSAGES.alreadyWaiting }]);
    if (options.maxPerEmail > 0 && open.length >= options.maxPerEmail) {
      const message = WAITLIST_MESSAGES.tooMany(options.maxPerEmail);
      throw conflict(message, [{ field: 'email', message }]);
    }
    return insertWaitlistEntry(trx, { date: input.date, part, request: storedRequest(input), email: input.email.trim(), endsAt: entryEndsAt(input.date) });
  });
}

/** The entry's date as the engine sees its job there now: each start, and whether the job fits at it. */
const dayOfEntry = (db: Kysely<Database>, entry: Pick<WaitlistEntry, 'request' | 'date'>, options: Pick<WaitlistOptions, 'now' | 'mail'>) =>
  availabilityOn(db, entry.date, jobOfRequest(inputOf(entry, TIME_SLOTS[0]!), options.mail), options.now);

/** An offer made: the entry and the booking holding its place. */
export interface Offer {
  entryId: string;
  booking: Booking;
}

/** Thrown inside an offer's transaction to undo it: the entry was no longer waiting when the offer was to be recorded. */
class EntryMovedOn extends Error {}

/**
 * Offers the entry a place, at `time` when given (staff choosing), else at the first start of its
 * part of the day that fits its job: the offer, or null when none fits (or the entry no longer
 * waits). Runs in its own transaction under the date's waitlist lock.
 */
export async function offerToEntry(db: Kysely<Database>, entryId: string, options: WaitlistOptions, chosen?: { time: string; by: string }): Promise<Offer | null> {
  try {
    return await db.transaction().execute(async (trx) => {
      const first = await findWaitlistEntry(trx, entryId);
      if (!first) return null;
      await lockWaitlistDay(trx, first.date);
      // Read again under the lock: another instance may have served it meanwhile.
      const entry = await findWaitlistEntry(trx, entryId);
      if (!entry || entry.status !== 'waiting' || entry.ends_at.getTime() <= options.now.getTime()) return null;
      const day = await dayOfEntry(trx, entry, options);
      const part = isWaitlistPart(entry.part) ? entry.part : 'any';
      const fits = day.slots.filter((slot) => slot.available && (chosen ? slot.time === chosen.time : startInPart(part, slot.time)));
      const start = fits[0];
      if (!start) return null;
      const expiresAt = new Date(options.now.getTime() + options.holdMinutes * 60_000);
      const booking = await createBooking(trx, inputOf(entry, start.time), {
        now: options.now,
        maxActivePerEmail: options.maxActivePerEmail,
        mail: options.mail,
        offer: { expiresAt },
      });
      if (!(await setEntryStatus(trx, entry.id, 'waiting', 'offered', { bookingId: booking.id, offeredBy: chosen?.by ?? null }))) throw new EntryMovedOn();
      await insertStatusChange(trx, {
        booking_id: booking.id,
        from_status: 'offered',
        to_status: 'offered',
        changed_by: chosen?.by ?? WAITLIST_MESSAGES.offerActor,
        note: WAITLIST_MESSAGES.offeredNote(part),
      });
      return { entryId: entry.id, booking };
    });
  } catch (caught) {
    if (caught instanceof EntryMovedOn) return null;
    // The customer's cap of upcoming bookings, or a rule the date no longer meets (it has come
    // inside the notice): no offer for this entry now.
    if (caught instanceof AppError && !chosen) return null;
    throw caught;
  }
}

/**
 * The sweep (each minute): offers unconfirmed in time lapse and entries whose date has passed end;
 * then every date with waiting entries (and those a lapse freed) offers its places, entry by entry
 * in order of joining. After a change that frees a place, only `dates` (the change's) offer theirs:
 * the lapses and the past entries wait for the minute's pass. The offers made.
 */
export async function offerFreedPlaces(db: Kysely<Database>, options: WaitlistOptions, dates?: readonly string[]): Promise<Offer[]> {
  let freed: string[] = [];
  if (!dates) {
    freed = await db.transaction().execute(async (trx) => lapseOffers(trx, options.now, WAITLIST_MESSAGES.offerActor, WAITLIST_MESSAGES.lapsedNote));
    await endPastEntries(db, options.now);
  }
  const window = bookingWindow(options.now);
  const asked = dates ?? (await datesWithWaiting(db, options.now, window.min));
  const offers: Offer[] = [];
  for (const date of [...new Set([...asked, ...freed])].sort()) {
    if (date < window.min || date > window.max) continue;
    for (const entry of await waitingEntries(db, date, options.now)) {
      const offer = await offerToEntry(db, entry.id, options);
      if (offer) offers.push(offer);
    }
  }
  return offers;
}

/** The offer a manage token opens, still held at `now` and at `version`, inside the caller's transaction. */
async function heldOffer(trx: Kysely<Database>, token: string, version: number, now: Date): Promise<Booking> {
  const current = await findManagedBooking(trx, token, now);
  if (!current) throw notFound(MANAGE_MESSAGES.notFound);
  // Lapsed (or withdrawn) meanwhile: the offer has ended; anything else was never an offer waiting.
  if (current.status === 'cancelled' && (await entryOfBooking(trx, current.id))) throw new AppError(409, 'OFFER_ENDED', WAITLIST_MESSAGES.offerEnded);
  if (current.status !== 'offered') throw new AppError(409, 'NOT_OFFERED', WAITLIST_MESSAGES.notOffered);
  if (current.offer_expires_at && current.offer_expires_at.getTime() <= now.getTime()) throw new AppError(409, 'OFFER_ENDED', WAITLIST_MESSAGES.offerEnded);
  if (current.version !== version) throw new BookingChangedError(current);
  return current;
}

/** The customer's answer to an offer, in the caller's transaction: the booking to `to`, its entry to `entry`, a line in its history. */
async function answerOffer(trx: Kysely<Database>, token: string, version: number, now: Date, answer: { to: 'pending' | 'cancelled'; entry: 'booked' | 'declined'; note: string }): Promise<Booking> {
  const current = await heldOffer(trx, token, version, now);
  const updated = await updateStatusIfVersion(trx, current.id, version, answer.to);
  if (!updated) throw new BookingChangedError(current);
  await setEntryStatusOfBooking(trx, current.id, 'offered', answer.entry);
  await insertStatusChange(trx, { booking_id: current.id, from_status: 'offered', to_status: answer.to, changed_by: CUSTOMER, note: answer.note });
  return updated;
}

/**
 * The customer takes the place offered: the booking becomes pending (for staff to confirm as any
 * online booking), its entry booked, with the confirmation, staff's notification and the reminder
 * queued as for a new booking.
 */
export async function confirmOffer(db: Kysely<Database>, token: string, version: number, options: Pick<WaitlistOptions, 'now' | 'mail'>): Promise<Booking> {
  return db.transaction().execute(async (trx) => {
    const updated = await answerOffer(trx, token, version, options.now, { to: 'pending', entry: 'booked', note: WAITLIST_MESSAGES.confirmedNote });
    await queueBookingMail(trx, { type: 'created', bookingId: updated.id, booking: updated }, options.mail);
    return updated;
  });
}

/** "No thanks": the place is freed (the booking cancelled, its entry declined); the caller offers it to the next entry. */
export async function declineOffer(db: Kysely<Database>, token: string, version: number, options: Pick<WaitlistOptions, 'now'>): Promise<Booking> {
  return db.transaction().execute((trx) => answerOffer(trx, token, version, options.now, { to: 'cancelled', entry: 'declined', note: WAITLIST_MESSAGES.declinedNote }));
}

/**
 * The starts at which an entry's job fits on its date now, as an offer would find them (staff
 * choose one to offer by hand); none when the date is outside the booking window, or the job or
 * its address no longer passes the rules (its package gone from the catalogue, its postcode in no
 * zone).
 */
export async function fittingStarts(db: Kysely<Database>, entry: Pick<WaitlistEntry, 'request' | 'date'>, options: Pick<WaitlistOptions, 'now' | 'mail'>): Promise<string[]> {
  try {
    return (await dayOfEntry(db, entry, options)).slots.filter((slot) => slot.available).map((slot) => slot.time);
  } catch (caught) {
    if (caught instanceof AppError) return [];
    throw caught;
  }
}

/** Staff offer a place by hand: the entry at `time` (the engine still decides whether it fits), with the reason when it cannot be. */
export async function offerByStaff(db: Kysely<Database>, entryId: string, time: string, by: string, options: WaitlistOptions): Promise<Offer> {
  const entry = await findWaitlistEntry(db, entryId);
  if (!entry) throw notFound(WAITLIST_MESSAGES.staffNoEntry);
  if (entry.status !== 'waiting') throw conflict(WAITLIST_MESSAGES.staffNoEntry);
  if (!TIME_SLOTS.includes(time)) throw validationFailed([{ field: 'time', message: MESSAGES.timeInvalid }]);
  const offer = await offerToEntry(db, entryId, options, { time, by });
  if (!offer) throw conflict(WAITLIST_MESSAGES.staffNoFit, [{ field: 'time', message: WAITLIST_MESSAGES.staffNoFit }]);
  return offer;
}

export type { WaitlistPart };
