/**
 * The waitlist (issue 43): a customer for whom no start fits on a date asks to be told when one
 * opens up, for the morning, the afternoon or any time. Pure rules: which starts an entry takes,
 * the order entries are served in, and every message about it. The service
 * (src/services/waitlist.service.ts) asks the scheduling engine and writes.
 */
import { appointmentText, aucklandInstant, addDaysToDay, dayText } from './booking-dates.ts';
import { PART_LABELS, WAITLIST_OFFER_WORDS, type WaitlistPart } from './waitlist-words.ts';

export { PART_LABELS, WAITLIST_OFFER_WORDS, WAITLIST_PARTS, WAITLIST_WIZARD_MESSAGES, isWaitlistPart, type WaitlistPart } from './waitlist-words.ts';

/** Noon: a morning start is before it, an afternoon start at or after it. */
const NOON = '12:00';

/** Whether a start ('HH:MM') is one the entry's part of the day takes. */
export function startInPart(part: WaitlistPart, time: string): boolean {
  if (part === 'morning') return time < NOON;
  if (part === 'afternoon') return time >= NOON;
  return true;
}

/** The instant an entry for `date` stops waiting: the end of its date in Auckland (midnight after it). */
export function entryEndsAt(date: string): Date {
  return new Date(aucklandInstant(addDaysToDay(date, 1), '00:00'));
}

/**
 * The states of an entry: waiting for a place; offered one (held as a booking in status
 * 'offered'); booked (the customer confirmed it); declined, lapsed or withdrawn by staff (the offer ended without
 * them); left (they booked that date another way); ended (its date passed).
 */
export const WAITLIST_STATUSES = ['waiting', 'offered', 'booked', 'declined', 'lapsed', 'withdrawn', 'left', 'ended'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/** Entries that count against WAITLIST_MAX_PER_EMAIL: still waiting, or with a place held. */
export const OPEN_WAITLIST_STATUSES: readonly WaitlistStatus[] = ['waiting', 'offered'];

export const WAITLIST_MESSAGES = {
  joined: (date: string, part: WaitlistPart) =>
    `You are on the waitlist for ${dayText(date)}${part === 'any' ? '' : part === 'morning' ? ' (morning)' : ' (afternoon)'}. If a time opens up, we will e-mail you and hold it for you.`,
  tooMany: (max: number) => `You are already waiting for ${max} dates, the most one e-mail address can. Please call us and we will help you find a time.`,
  alreadyWaiting: 'You are already on the waitlist for that date.',
  partInvalid: 'Please choose morning, afternoon or any time.',
  dateRequired: 'Please choose the date you would like.',
  offerHeading: WAITLIST_OFFER_WORDS.offerHeading,
  offerHeld: (date: string, time: string, until: string) =>
    `${appointmentText(date, time)} is held for you until ${until}. Confirm it to book it; if you cannot make it, let the next person have it.`,
  confirmed: 'Thank you! The time is yours: your booking has been received. We will contact you shortly to confirm it.',
  declined: 'Thank you for letting us know. We have offered the time to the next person waiting.',
  offerEnded: WAITLIST_OFFER_WORDS.offerEnded,
  notOffered: 'This booking is not an offer waiting for your answer.',
  staffNoEntry: 'That waitlist entry is no longer waiting for a place.',
  staffNoFit: 'That start does not fit this job. Choose another.',
  offerActor: 'Waitlist',
  offeredNote: (part: WaitlistPart) => `Offered from the waitlist (${PART_LABELS[part].toLowerCase()})`,
  lapsedNote: 'The offer lapsed: the customer did not confirm it in time',
  declinedNote: 'The customer said no thanks to the offer',
  confirmedNote: 'The customer confirmed the offer from the waitlist',
} as const;
