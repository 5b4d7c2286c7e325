/**
 * "Find my booking" (issue 22): the links to an address's upcoming bookings, e-mailed to that
 * address. The caller answers the same whatever happened here, and in the same time:
 * - the same statements run for every valid address (the lock, the count of e-mails already sent
 *   to it, the bookings), whether it has bookings or not;
 * - the answer is held until `answerMs` after the request began (FIND_BOOKING_ANSWER_MS), so the
 *   little work that differs (composing and queueing the e-mail) cannot be timed from outside.
 * At most `perAddressPerDay` such e-mails go to one address in 24 hours (counted in the outbox,
 * so every instance agrees); past that nothing is sent, and the answer is still the same.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { emailsToAddressInLastDay, lockLinksAddress, upcomingBookingsOf } from '../db/booking-links.repository.ts';
import type { Database } from '../db/database.ts';
import { lookupAddress, validateFindBooking, type FindBookingInput } from '../domain/find-booking-rules.ts';
import { validationFailed } from '../errors.ts';
import { BOOKING_LINKS_KIND, queueBookingLinksMail } from '../mail/booking-links.ts';
import type { MailContext } from '../mail/mail-context.ts';

export interface FindBookingOptions {
  /** FIND_BOOKING_PER_ADDRESS_PER_DAY: e-mails to one address in 24 hours; 0: no cap. */
  perAddressPerDay: number;
  /** FIND_BOOKING_ANSWER_MS: the answer's earliest moment after the request began; 0: at once. */
  answerMs: number;
}

/** What happened, for the log only: never for the answer. */
export type FindBookingOutcome = 'sent' | 'no-bookings' | 'capped';

/** The most bookings one e-mail lists (the soonest). */
export const MAX_LISTED_BOOKINGS = 20;

/**
 * Queues the e-mail when the address has upcoming bookings (not cancelled, not yet started: the
 * ones whose manage page opens) and is under its daily cap. Throws a 400 for an address that is not one; otherwise
 * resolves no sooner than `answerMs` after it was called, whatever the outcome (and when the
 * database fails too).
 */
export async function sendBookingLinks(db: Kysely<Database>, input: FindBookingInput, mail: MailContext, options: FindBookingOptions): Promise<FindBookingOutcome> {
  const errors = validateFindBooking(input);
  if (errors.length > 0) throw validationFailed(errors);
  const answerAt = performance.now() + options.answerMs;
  const address = lookupAddress(input.email);
  try {
    return await db.transaction().execute(async (trx) => {
      await lockLinksAddress(trx, address);
      const alreadySent = await emailsToAddressInLastDay(trx, BOOKING_LINKS_KIND, address);
      const bookings = await upcomingBookingsOf(trx, address, mail.now(), MAX_LISTED_BOOKINGS);
      if (bookings.length === 0) return 'no-bookings';
      if (options.perAddressPerDay > 0 && alreadySent >= options.perAddressPerDay) return 'capped';
      await queueBookingLinksMail(trx, bookings, mail);
      return 'sent';
    });
  } finally {
    const wait = answerAt - performance.now();
    if (wait > 0) await sleep(wait);
  }
}
