/**
 * The waitlist's parts of the day and the booking wizard's words for it (issue 43), without
 * imports, so that the wizard's chunks take them from here: src/domain/waitlist.ts, the rest of the
 * catalogue, which re-exports them, brings date-fns.
 */

export const WAITLIST_PARTS = ['any', 'morning', 'afternoon'] as const;
export type WaitlistPart = (typeof WAITLIST_PARTS)[number];

export const isWaitlistPart = (value: unknown): value is WaitlistPart => (WAITLIST_PARTS as readonly unknown[]).includes(value);

/** What each part is called on the form. */
export const PART_LABELS: Record<WaitlistPart, string> = {
  any: 'Any time that day',
  morning: 'Morning (a start before 12:00)',
  afternoon: 'Afternoon (a start from 12:00)',
};

/**
 * The booking wizard's words for the waitlist: "Tell me if a time opens up" on step 2 when no
 * start fits the chosen date, then step 3 in waitlist mode. Nothing here formats a date (the
 * caller gives the date as it shows it).
 */
export const WAITLIST_WIZARD_MESSAGES = {
  offerLegend: (day: string) => `Or keep ${day}: when would a time suit you?`,
  offerHint: 'Join the waitlist for that date: if a time opens up, we will e-mail you and hold it for you to confirm.',
  offerButton: 'Tell me if a time opens up',
  joining: (day: string, part: WaitlistPart) =>
    `You are joining the waitlist for ${day}, ${PART_LABELS[part].charAt(0).toLowerCase()}${PART_LABELS[part].slice(1)}. Nothing is booked until a time opens up and you confirm it.`,
  joinButton: 'Join the waitlist',
  joinedHeading: 'You are on the waitlist',
  timeFree: 'A time is free on that date: please choose it instead.',
} as const;

/** The manage page's words for a place offered (issue 43); the hold's text itself comes formatted from the server. */
export const WAITLIST_OFFER_WORDS = {
  offerHeading: 'A time opened up for you',
  offerEnded: 'This offer has ended: the time was held for you until it lapsed, and has been offered to the next person waiting.',
  confirmButton: 'Confirm this time',
  declineButton: 'No thanks',
} as const;
