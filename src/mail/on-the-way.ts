/** "We are on our way" (issue 21, the Today view): one e-mail to the customer, with the time the detailer expects to arrive. */
import type { Booking } from '../db/database.ts';
import { aucklandClockText } from '../domain/booking-dates.ts';
import { packageForPeople } from '../domain/catalogue.ts';
import type { Composed } from './composed.ts';
import type { MailContext } from './mail-context.ts';
import { contactClosing } from './templates.ts';

export function onTheWayMessage(booking: Booking, arrivingAt: Date, context: MailContext): Composed {
  const arriving = aucklandClockText(arrivingAt);
  return {
    kind: 'booking-on-the-way',
    to: { name: booking.name, address: booking.email },
    subject: `We are on our way, arriving about ${arriving} – ${context.business.name}`,
    content: {
      heading: `We are on our way, arriving about ${arriving}`,
      paragraphs: [`Hi ${booking.name},`, `Your detailer is on the way for your ${packageForPeople(booking)} (booking ${booking.reference}) and expects to arrive about ${arriving}.`],
      sections: [],
      closing: contactClosing(context),
    },
  };
}
