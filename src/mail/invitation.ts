/**
 * The calendar invitation of a booking (RFC 5545), made by ical-generator: one event whose UID is
 * stable per booking (`<booking id>@<site host>`), so that a calendar updates or removes the entry
 * it already has; SEQUENCE is the booking's version, which every change raises. Times are written
 * in UTC, which every calendar shows in its own zone, so no VTIMEZONE is needed.
 */
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { Booking } from '../db/database.ts';
import { appointmentTimes, packageForPeople, whereForPeople } from './booking-facts.ts';
import type { MailContext } from './mail-context.ts';

export type InvitationMethod = 'REQUEST' | 'CANCEL';

export function invitationUid(bookingId: string, origin: string): string {
  return `${bookingId}@${new URL(origin).hostname}`;
}

export function bookingInvitation(booking: Booking, context: MailContext, method: InvitationMethod, manageLink: string | undefined): string {
  const { start, end } = appointmentTimes(booking);
  const calendar = ical({
    prodId: { company: context.business.name, product: 'Bookings', language: 'EN' },
    method: method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  const where = whereForPeople(booking, context.business);
  calendar.createEvent({
    id: invitationUid(booking.id, context.origin),
    sequence: booking.version,
    stamp: context.now(),
    start,
    end,
    summary: `${packageForPeople(booking)} – ${context.business.name}`,
    description: [`Booking reference ${booking.reference}`, where.note, manageLink ? `Manage your booking: ${manageLink}` : ''].filter(Boolean).join('\n'),
    location: where.place,
    status: method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: context.business.name, email: context.from.address },
    attendees: [{ name: booking.name, email: booking.email, role: ICalAttendeeRole.REQ, status: ICalAttendeeStatus.ACCEPTED }],
    ...(manageLink ? { url: manageLink } : {}),
  });
  return calendar.toString();
}
