/**
 * The calendar invitation of a booking (RFC 5545), made by ical-generator: one event whose UID is
 * stable per booking (`<booking id>@<site host>`), so that a calendar updates or removes the entry
 * it already has; SEQUENCE is the booking's version, which every change raises. Times are written
 * in UTC, which every calendar shows in its own zone, so no VTIMEZONE is needed.
 *
 * The event says what the booking is: STATUS:TENTATIVE while it is pending, CONFIRMED once staff
 * confirm it, CANCELLED (with METHOD:CANCEL) when it is withdrawn.
 *
 * ORGANIZER and ATTENDEE are written here, not by ical-generator, which puts a backslash before a
 * double quote inside `CN="…"`: RFC 5545 has no escape in a parameter value, so a strict parser
 * ends the value at that quote and reads the rest of a customer's name as more parameters, or as
 * the address. Every parameter value is written per RFC 5545 and RFC 6868 instead (see
 * `parameterValue`), and the address as a mailto: URI (RFC 6068).
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { Booking } from '../db/database.ts';
import { appointmentTimes, whereForPeople } from './booking-facts.ts';
import { packageForPeople } from '../domain/catalogue.ts';
import type { MailContext } from './mail-context.ts';

export type InvitationMethod = 'REQUEST' | 'CANCEL';

export function invitationUid(bookingId: string, origin: string): string {
  return `${bookingId}@${new URL(origin).hostname}`;
}

/** What the event says of the booking: withdrawn, not yet confirmed by staff, or confirmed. */
export function invitationStatus(booking: Pick<Booking, 'status'>, method: InvitationMethod): ICalEventStatus {
  if (method === 'CANCEL' || booking.status === 'cancelled') return ICalEventStatus.CANCELLED;
  return booking.status === 'pending' ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED;
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
    summary: textValue(invitationSummary(booking, context)),
    description: textValue([`Booking reference ${booking.reference}`, where.note, manageLink ? `Manage your booking: ${manageLink}` : ''].filter(Boolean).join('\n')),
    location: textValue(where.place),
    status: invitationStatus(booking, method),
    ...(manageLink ? { url: manageLink } : {}),
  });
  const people = [
    `ORGANIZER${commonName(context.business.name)}:${mailtoUri(context.from.address)}`,
    `ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED${commonName(booking.name)}:${mailtoUri(booking.email)}`,
  ];
  const text = calendar.toString();
  const endOfEvent = text.lastIndexOf('END:VEVENT\r\n');
  if (endOfEvent < 0) throw new Error('bookingInvitation: no VEVENT');
  // Every content line ends with CRLF, the last one too (ical-generator leaves it off).
  const tail = text.slice(endOfEvent);
  return `${text.slice(0, endOfEvent)}${people.map((line) => `${fold(line)}\r\n`).join('')}${tail}${tail.endsWith('\r\n') ? '' : '\r\n'}`;
}

/** The event's title, as the e-mail states the package and the business. */
export function invitationSummary(booking: Pick<Booking, 'service' | 'coating_type'>, context: Pick<MailContext, 'business'>): string {
  return `${packageForPeople(booking)} – ${context.business.name}`;
}

// Control characters other than tab, line feed and carriage return (which TEXT writes as \n).
const TEXT_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
// Every control character but the line breaks, which a parameter value writes as ^n (RFC 6868).
const PARAMETER_CONTROLS = /[\u0000-\u0009\u000B\u000C\u000E-\u001F\u007F]/g;

/** A TEXT value without the control characters RFC 5545 does not allow in it (ical-generator escapes the rest). */
export function textValue(value: string): string {
  return value.replace(TEXT_CONTROLS, '');
}

/**
 * A parameter value (RFC 5545 §3.1, `param-value`), always as a quoted-string, whose characters
 * may be anything but a control character and DQUOTE; so `:`, `;` and `,` stand as they are
 * inside the quotes, and RFC 6868 writes `^` as `^^`, a line break as `^n` and `"` as `^'`.
 * Other control characters are removed. Readers without RFC 6868 show `^'` and `^n` as they are,
 * but no reader can take any of it for another parameter or for the address.
 */
export function parameterValue(value: string): string {
  const encoded = value
    .replace(/\r\n?/g, '\n')
    .replace(PARAMETER_CONTROLS, '')
    .replace(/[\^\n"]/g, (c) => (c === '^' ? '^^' : c === '\n' ? '^n' : "^'"));
  return `"${encoded}"`;
}

/**
 * A `mailto:` URI for one address (RFC 6068): every character of the address outside the
 * unreserved ones and `@ ! $ ' * +` percent-encoded (UTF-8), so that a `,` cannot add a second
 * recipient, a `?` or `#` cannot start headers, and nothing in it means anything to a calendar
 * parser; an ordinary address is written as it is.
 */
export function mailtoUri(address: string): string {
  const safe = /^[A-Za-z0-9\-._~@!$'*+]$/;
  let uri = 'mailto:';
  for (const char of address.replace(/[\u0000-\u001F\u007F]/g, '')) {
    uri += safe.test(char) ? char : [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return uri;
}

/** The CN parameter of a name (none for a name with nothing to show). */
function commonName(name: string): string {
  return name.replace(PARAMETER_CONTROLS, '').trim() === '' ? '' : `;CN=${parameterValue(name)}`;
}

/**
 * Folds a content line (RFC 5545 §3.1) at 75 octets, never inside a UTF-8 sequence: every
 * further line starts with one space, which a reader removes with the line break before it.
 */
export function fold(line: string): string {
  const lines: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    const limit = lines.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      lines.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  lines.push(current);
  return lines.join('\r\n ');
}
