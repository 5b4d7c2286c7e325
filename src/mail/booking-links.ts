/**
 * The "Find my booking" e-mail (issue 22): an address's upcoming bookings, each with its manage
 * link, queued in the outbox like every other e-mail (in the caller's transaction). The links are
 * stored as slots and filled in with the live token only as the e-mail is sent (manage-slots.ts).
 */
import type { Kysely } from 'kysely';
import type { Booking, Database } from '../db/database.ts';
import { insertOutboxEmails } from '../db/outbox.repository.ts';
import { appointmentText } from '../domain/booking-dates.ts';
import { manageLinkSlotFor } from '../db/manage-link.repository.ts';
import { packageForPeople } from '../domain/catalogue.ts';
import { outboxRow, type Composed } from './composed.ts';
import type { MailContext } from './mail-context.ts';
import type { MessageSection } from './message.ts';
import { contactClosing } from './templates.ts';

export const BOOKING_LINKS_KIND = 'booking-links';

const STATUS_FOR_PEOPLE: Record<string, string> = {
  pending: 'Received, waiting for our confirmation',
  confirmed: 'Confirmed',
  completed: 'Completed',
};

/** One booking's facts and its link; no link when the booking has none (it cannot be opened online). */
function bookingSection(booking: Booking, manageLink: string | undefined): MessageSection {
  return {
    title: `Booking ${booking.reference}`,
    rows: [
      ['Reference', booking.reference],
      ['When', appointmentText(booking.date, booking.time)],
      ['Package', packageForPeople(booking)],
      ['Status', STATUS_FOR_PEOPLE[booking.status] ?? booking.status],
    ],
    ...(manageLink ? { link: { label: `Manage booking ${booking.reference}`, href: manageLink } } : {}),
  };
}

/** The e-mail listing `bookings` (soonest first, at least one), to the address they were booked with. */
export function bookingLinksMessage(bookings: readonly { booking: Booking; manageLink: string | undefined }[], context: MailContext): Composed {
  const latest = [...bookings].sort((a, b) => new Date(b.booking.created_at).getTime() - new Date(a.booking.created_at).getTime())[0]!.booking;
  const count = bookings.length;
  return {
    kind: BOOKING_LINKS_KIND,
    to: { name: latest.name, address: latest.email.trim() },
    subject: `Your ${count === 1 ? 'booking' : 'bookings'} with ${context.business.name}`,
    content: {
      heading: count === 1 ? 'Your upcoming booking' : `Your ${count} upcoming bookings`,
      paragraphs: [
        `Hi ${latest.name},`,
        `Someone (we hope you) asked on our website for the links to the bookings made with this e-mail address. Open a booking to see it, and to cancel or move it online until ${context.manageCutoffHours} hours before.`,
        'If you did not ask for this, you can ignore this e-mail: nothing has been changed.',
      ],
      sections: bookings.map(({ booking, manageLink }) => bookingSection(booking, manageLink)),
      closing: contactClosing(context),
    },
  };
}

/** Queues the e-mail listing these bookings (nothing when there are none). */
export async function queueBookingLinksMail(trx: Kysely<Database>, bookings: readonly Booking[], context: MailContext): Promise<void> {
  if (bookings.length === 0) return;
  const withLinks = [];
  for (const booking of bookings) withLinks.push({ booking, manageLink: await manageLinkSlotFor(trx, booking, context.origin, context.manageKey) });
  await insertOutboxEmails(trx, [outboxRow(bookingLinksMessage(withLinks, context), {}, context.now())]);
  context.onQueued?.();
}
