/**
 * Availability of a date's slots for customers (GET /v1/availability, the wizard's step 2), and the
 * state of one slot for the writers that must respect it (a new booking, a reopened one), read
 * inside their transaction after they took the slot's lock.
 */
import type { Kysely } from 'kysely';
import { OPEN_DAY, slotState, slotStates, weekdayOf, type SlotState } from '../domain/availability.ts';
import { bookingWindow, slotStartsAt } from '../domain/booking-dates.ts';
import type { Database } from '../db/database.ts';
import { dayFacts } from '../db/availability.repository.ts';

export interface SlotAvailability extends SlotState {
  /** The instant the slot starts, with Auckland's offset on that date. */
  startsAt: string;
}

export interface AvailabilityOptions {
  now: Date;
  slotCapacity: number;
}

/** Every slot of a calendar date. A date outside the booking window is all unavailable, without asking the database. */
export async function availabilityOn(db: Kysely<Database>, date: string, options: AvailabilityOptions): Promise<SlotAvailability[]> {
  const window = bookingWindow(options.now);
  const bookable = date >= window.min && date <= window.max;
  const facts = bookable ? await dayFacts(db, date, weekdayOf(date)) : OPEN_DAY;
  return slotStates(facts, options.slotCapacity, bookable).map((slot) => ({ ...slot, startsAt: slotStartsAt(date, slot.time) }));
}

/** One slot as it stands now, closures and weekly closed days included (the window is the caller's business). */
export async function currentSlotState(db: Kysely<Database>, date: string, time: string, slotCapacity: number): Promise<SlotState> {
  return slotState(time, await dayFacts(db, date, weekdayOf(date)), slotCapacity);
}
