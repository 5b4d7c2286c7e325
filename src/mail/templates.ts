/** The words of each e-mail: to the customer about their booking, and to staff. */
import type { Booking, ContactMessage } from '../db/database.ts';
import { appointmentText, aucklandDate, aucklandTime, dayText } from '../domain/booking-dates.ts';
import { WEATHER_EMAIL_ACTION, weatherEmailParagraphs } from '../domain/weather-day.ts';
import { awaitingConfirmationText, CONFIRM_BOOKING_LABEL } from '../domain/manage-rules.ts';
import { FIND_BOOKING_PATH } from '../domain/site-paths.ts';
import { WAITLIST_MESSAGES } from '../domain/waitlist.ts';
import { quoteLines, whenForPeople, whereForPeople } from './booking-facts.ts';
import { packageForPeople, vehicleForPeople } from '../domain/catalogue.ts';
import type { MailContext } from './mail-context.ts';
import type { MessageContent, MessageSection } from './message.ts';

export type CustomerMessageKind =
  | 'booking-created'
  | 'booking-confirmed'
  | 'booking-cancelled'
  | 'booking-cancelled-by-customer'
  | 'booking-moved'
  | 'booking-changed'
  | 'booking-reminder'
  | 'booking-weather'
  /** Issue 43: before a plan's visit, "keep it, move it or skip it". */
  | 'plan-visit-check'
  /** Issue 43: a place that opened up, held for a waitlist entry until the customer confirms it. */
  | 'waitlist-offer';

interface Message<K extends string> {
  kind: K;
  to: { name: string; address: string };
  replyTo?: { name: string; address: string };
  subject: string;
  content: MessageContent;
}

function bookingSection(booking: Booking, context: MailContext): MessageSection {
  const where = whereForPeople(booking, context.business);
  return {
    title: 'Your booking',
    rows: [
      ['Reference', booking.reference],
      ['Package', packageForPeople(booking)],
      ['Vehicle size', vehicleForPeople(booking)],
      ['When', whenForPeople(booking)],
      ['Where', where.place],
    ],
    note: where.note,
  };
}

function quoteSection(booking: Booking): MessageSection {
  return { title: 'Your quote', rows: quoteLines(booking), note: 'Nothing to pay now: you pay when the work is done.' };
}

export function contactClosing(context: MailContext): string[] {
  const { business } = context;
  return [`Questions? Call us on ${business.phone} or write to ${business.email}.`, `${business.name}`];
}

const SUBJECTS: Record<CustomerMessageKind, (reference: string, name: string) => string> = {
  'booking-created': (ref, name) => `Booking received: ${ref} – ${name}`,
  'booking-confirmed': (ref, name) => `Booking confirmed: ${ref} – ${name}`,
  'booking-cancelled': (ref, name) => `Booking cancelled: ${ref} – ${name}`,
  'booking-cancelled-by-customer': (ref, name) => `Booking cancelled: ${ref} – ${name}`,
  'booking-moved': (ref, name) => `Booking moved: ${ref} – ${name}`,
  'booking-changed': (ref, name) => `Your booking has changed: ${ref} – ${name}`,
  'booking-reminder': (ref, name) => `Reminder: your valet ${ref} – ${name}`,
  'booking-weather': (ref, name) => `Weather: please choose a new time for ${ref} – ${name}`,
  'plan-visit-check': (ref, name) => `Your next valet ${ref}: keep it, move it or skip it – ${name}`,
  'waitlist-offer': (_ref, name) => `A time opened up for you – ${name}`,
};

/** The subject of an e-mail about a booking: written when it is queued (the staff list shows it), its bodies when it is sent. */
export function bookingSubject(kind: CustomerMessageKind | 'staff-new-booking', booking: Pick<Booking, 'reference' | 'date' | 'time'>, context: Pick<MailContext, 'business'>): string {
  return kind === 'staff-new-booking'
    ? `New booking ${booking.reference}: ${appointmentText(booking.date, booking.time)}`
    : SUBJECTS[kind](booking.reference, context.business.name);
}

function intro(kind: CustomerMessageKind, booking: Booking): { heading: string; paragraphs: string[] } {
  const when = appointmentText(booking.date, booking.time);
  const hello = `Hi ${booking.name},`;
  switch (kind) {
    case 'booking-created':
      if (booking.awaiting_email_until) {
        // BOOKING_CONFIRMATION=email: the customer confirms from the manage page (a button there;
        // opening the link alone changes nothing, as mail scanners open links).
        const deadline = appointmentText(aucklandDate(booking.awaiting_email_until), aucklandTime(booking.awaiting_email_until));
        return {
          heading: `Please confirm your booking, ${booking.reference}`,
          paragraphs: [
            hello,
            `We have your booking for ${when}. ${awaitingConfirmationText(deadline)}`,
            `To confirm it, open "${CONFIRM_BOOKING_LINK}" below and press "${CONFIRM_BOOKING_LABEL}". The calendar invitation is attached.`,
          ],
        };
      }
      if (booking.source === 'plan') {
        // Issue 43: a visit the customer's regular plan booked.
        return {
          heading: `Your next regular valet: ${booking.reference}`,
          paragraphs: [
            hello,
            `Your regular plan has booked your next valet for ${when}. The calendar invitation is attached.`,
            booking.status === 'confirmed' ? 'It is confirmed.' : 'We will confirm it shortly.',
          ],
        };
      }
      return {
        heading: `Thanks for your booking, ${booking.reference}`,
        paragraphs: [hello, `We have your booking for ${when}. We will confirm it shortly. The calendar invitation is attached.`],
      };
    case 'booking-confirmed':
      return {
        heading: `Your booking ${booking.reference} is confirmed`,
        paragraphs: [hello, `We have confirmed your booking for ${when}. The updated calendar invitation is attached. See you then!`],
      };
    case 'booking-cancelled':
      return {
        heading: `Your booking ${booking.reference} is cancelled`,
        paragraphs: [hello, `We have had to cancel your booking for ${when}. Please call us or book another time; we are sorry for the trouble.`],
      };
    case 'booking-cancelled-by-customer':
      return { heading: `Your booking ${booking.reference} is cancelled`, paragraphs: [hello, `As you asked, we have cancelled your booking for ${when}.`] };
    case 'booking-moved':
      return {
        heading: `Your booking ${booking.reference} has moved`,
        paragraphs: [hello, `Your booking is now on ${when}. The updated calendar invitation is attached.`],
      };
    case 'booking-changed':
      return {
        heading: `Your booking ${booking.reference} has changed`,
        paragraphs: [hello, `We have updated your booking for ${when}; what changed is listed below. The updated calendar invitation is attached.`],
      };
    case 'plan-visit-check':
      return {
        heading: `Your next valet is on ${when}`,
        paragraphs: [
          hello,
          `Your regular plan's next visit, ${booking.reference}, is on ${when}. Keep it, move it or skip it: open "${PLAN_CHECK_ACTION}" below. Keeping it is one press.`,
        ],
      };
    case 'waitlist-offer': {
      // Issue 43: the place is held until offer_expires_at, in Auckland's time.
      const until = booking.offer_expires_at ? appointmentText(aucklandDate(booking.offer_expires_at), aucklandTime(booking.offer_expires_at)) : '';
      return {
        heading: WAITLIST_MESSAGES.offerHeading,
        paragraphs: [
          hello,
          `A time opened up on the day you asked for: ${when}. It is yours if you confirm it by ${until}; after that it goes to the next person waiting.`,
          `To take it, open "${WAITLIST_OFFER_ACTION}" below and press "Confirm". If you cannot make it, press "No thanks" there so the next person can have it.`,
        ],
      };
    }
    case 'booking-reminder':
      return { heading: `See you soon: ${when}`, paragraphs: [hello, `A reminder of your booking ${booking.reference} on ${when}.`] };
    case 'booking-weather':
      // A weather day (issue 21): an apology, and the manage link to choose a new time.
      return {
        heading: `Please choose a new time for ${booking.reference}`,
        paragraphs: weatherEmailParagraphs(booking.name, dayText(booking.date), weatherDeadlineText(booking)),
      };
  }
}

export function customerMessage(kind: CustomerMessageKind, booking: Booking, context: MailContext, manageLink: string | undefined): Message<CustomerMessageKind> {
  const cancelled = kind === 'booking-cancelled' || kind === 'booking-cancelled-by-customer';
  const { heading, paragraphs } = intro(kind, booking);
  return {
    kind,
    to: { name: booking.name, address: booking.email },
    subject: bookingSubject(kind, booking, context),
    content: {
      heading,
      paragraphs,
      sections: cancelled ? [bookingSection(booking, context)] : [bookingSection(booking, context), quoteSection(booking)],
      ...(manageLink && !cancelled
        ? {
            action: {
              label:
                kind === 'booking-created' && booking.awaiting_email_until
                  ? CONFIRM_BOOKING_LINK
                  : kind === 'booking-weather'
                    ? WEATHER_EMAIL_ACTION
                    : kind === 'plan-visit-check'
                      ? PLAN_CHECK_ACTION
                      : kind === 'waitlist-offer'
                        ? WAITLIST_OFFER_ACTION
                        : 'Manage your booking',
              href: manageLink,
              note:
                kind === 'booking-weather'
                  ? `Move it online to any free time until ${weatherDeadlineText(booking)}.`
                  : kind === 'waitlist-offer'
                    ? 'Nothing is booked until you confirm.'
                    : `Cancel or move it online until ${context.manageCutoffHours} hours before.`,
            },
          }
        : {}),
      closing: kind === 'booking-created' ? [findBookingLine(context), ...contactClosing(context)] : contactClosing(context),
    },
  };
}

/** Until when a weather day's customer may choose a new time, in words (Auckland). */
function weatherDeadlineText(booking: Booking): string {
  const until = booking.weather_move_until;
  return until ? appointmentText(aucklandDate(until), aucklandTime(until)) : '';
}

/** The button of a waitlist offer's e-mail (issue 43). */
export const WAITLIST_OFFER_ACTION = 'Confirm or decline this time';

/** The button of a plan's "keep it, move it or skip it" e-mail (issue 43). */
export const PLAN_CHECK_ACTION = 'Keep, move or skip this visit';

/** The e-mail's button to a booking that waits for its customer's confirmation. */
const CONFIRM_BOOKING_LINK = 'Confirm your booking';

/** Where a customer who has lost this e-mail gets their links again (issue 22). */
function findBookingLine(context: MailContext): string {
  return `Lost this e-mail later? Ask for the links to your bookings at ${context.origin}${FIND_BOOKING_PATH}`;
}

/** "Your booking has changed" (a staff edit, issue 21): the usual message with what changed, from what to what, first. */
export function bookingChangedMessage(
  booking: Booking,
  context: MailContext,
  manageLink: string | undefined,
  changes: readonly { field: string; from: string; to: string }[],
): Message<CustomerMessageKind> {
  const message = customerMessage('booking-changed', booking, context, manageLink);
  const changed: MessageSection = { title: 'What changed', rows: changes.map((c) => [c.field, `${c.from || '(none)'} → ${c.to || '(none)'}`]) };
  return { ...message, content: { ...message.content, sections: [changed, ...message.content.sections] } };
}

export function staffBookingMessage(booking: Booking, context: MailContext): Message<'staff-new-booking'> {
  const where = whereForPeople(booking, context.business);
  return {
    kind: 'staff-new-booking',
    to: { name: context.business.name, address: context.staffEmail },
    replyTo: { name: booking.name, address: booking.email },
    subject: bookingSubject('staff-new-booking', booking, context),
    content: {
      heading: `New booking ${booking.reference}`,
      paragraphs: [],
      sections: [
        {
          title: 'Booking',
          rows: [
            ['Reference', booking.reference],
            ['When', whenForPeople(booking)],
            ['Where', where.place],
            ['Package', packageForPeople(booking)],
            ['Vehicle size', vehicleForPeople(booking)],
            ...quoteLines(booking),
            ...(booking.notes.trim() ? ([['Notes', booking.notes]] as [string, string][]) : []),
          ],
        },
        { title: 'Customer', rows: [['Name', booking.name], ['E-mail', booking.email], ['Phone', booking.phone]] },
      ],
      action: { label: 'Open the dashboard', href: `${context.origin}/dashboard` },
      closing: ['Reply to this e-mail to write to the customer.'],
    },
  };
}

export function staffContactMessage(message: ContactMessage, context: MailContext): Message<'staff-contact-message'> {
  return {
    kind: 'staff-contact-message',
    to: { name: context.business.name, address: context.staffEmail },
    replyTo: { name: message.name, address: message.email },
    subject: `Contact form: message from ${message.name}`,
    content: {
      heading: `Message from ${message.name}`,
      paragraphs: [message.message],
      sections: [{ title: 'Sender', rows: [['Name', message.name], ['E-mail', message.email], ['Phone', message.phone]] }],
      action: { label: 'Open the inbox', href: `${context.origin}/dashboard` },
      closing: ['Reply to this e-mail to answer the sender.'],
    },
  };
}
