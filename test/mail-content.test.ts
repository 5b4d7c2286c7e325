/** What the e-mails say, composed without a database: the manage link, escaping, dates for people, the invitation. */
import t from 'tap';
import ical from 'node-ical';
import type { Booking } from '../src/db/database.ts';
import { DEFAULT_BUSINESS } from '../src/domain/business.ts';
import { appointmentText } from '../src/domain/booking-dates.ts';
import { bookingInvitation } from '../src/mail/invitation.ts';
import type { MailContext } from '../src/mail/mail-context.ts';
import { renderText } from '../src/mail/message.ts';
import { renderHtml } from '../src/mail/MessageHtml.tsx';
import { customerMessage } from '../src/mail/templates.ts';

const context: MailContext = {
  business: DEFAULT_BUSINESS,
  origin: 'https://valet.example.nz',
  from: { name: DEFAULT_BUSINESS.name, address: 'hello@valet.example.nz' },
  staffEmail: 'staff@valet.example.nz',
  reminderHoursBefore: 24,
  manageCutoffHours: 24,
  now: () => new Date('2026-11-23T00:00:00Z'),
};

const booking = {
  id: '6f1c7d2e-0000-4000-8000-000000000001',
  service: 'Ceramic Coating',
  coating_type: 'coat2',
  vehicle_type: 'suv',
  selected_vehicle_type: 'Suv',
  date: '2026-12-05',
  time: '09:00',
  service_type: 'dropoff',
  house_number: '',
  street_address: '',
  suburb: '',
  city: '',
  postal_code: '',
  region: '',
  landmark: '',
  save_address: false,
  name: 'Tama <script>alert(1)</script>',
  email: 'tama@example.co.nz',
  phone: '021 555 1234',
  notes: '',
  reference: 'ABCD2345',
  list_price_cents: 89900,
  discount_cents: 13485,
  total_cents: 76415,
  discount_kind: 'first-service',
  discount_percent: 15,
  status: 'pending',
  search_text: '',
  version: 1,
  manage_nonce: null,
  manage_token_hash: null,
  created_at: new Date('2026-11-23T00:00:00Z'),
  resource_id: null,
  starts_at: new Date('2026-12-04T20:00:00Z'),
  ends_at: new Date('2026-12-05T04:00:00Z'),
  buffer_minutes: 0,
  held: '',
  awaiting_first_placement: false,
  new_customer: true,
  email_canonical: 'tama@example.co.nz',
  phone_canonical: '0215551234',
  cancelled_late: false,
  awaiting_email_until: null,
  lapsed_at: null,
  offer_expires_at: null,
  source: 'online',
  created_by: null,
  price_adjustment_cents: 0,
  price_adjustment_reason: null,
  weather_day_id: null,
  weather_move_until: null,
  on_the_way_at: null,
  arriving_at: null,
  started_at: null,
  erased_at: null,
  zone_id: null,
  travel_fee_cents: 0,
  vehicles: [{ service: 'Ceramic Coating', coatingType: 'coat2', vehicleType: 'suv', selectedVehicleType: 'Suv', addOns: [], make: '', model: '', colour: '', plate: '' }],
  lines: [{ vehicle: 0, kind: 'package', code: 'Ceramic Coating', description: 'Ceramic Coating (3 Year Coating), SUV/UTE', quantity: 1, unitCents: 89900, totalCents: 89900, minutes: 480 }],
} satisfies Booking;

t.test('dates are written for people in Auckland, on ordinary and daylight-saving days', async (t) => {
  t.equal(appointmentText('2026-12-05', '09:00'), 'Saturday 5 December 2026, 9:00 am');
  t.equal(appointmentText('2027-04-04', '14:00'), 'Sunday 4 April 2027, 2:00 pm');
  t.equal(appointmentText('2026-09-27', '07:00'), 'Sunday 27 September 2026, 7:00 am');
});

t.test('the confirmation carries the manage link, the drop-off directions and the quote, escaped in HTML', async (t) => {
  const message = customerMessage('booking-created', booking, context, 'https://valet.example.nz/booking/manage/abc_DEF-123');
  t.equal(message.subject, 'Booking received: ABCD2345 – Auckland Valet Co.');
  t.same(message.to, { name: booking.name, address: booking.email });
  const text = renderText(message.content);
  const html = renderHtml(message.content);
  for (const part of [text, html]) {
    t.match(part, 'https://valet.example.nz/booking/manage/abc_DEF-123');
    t.match(part, 'Ceramic Coating (3 Year Coating)');
    t.match(part, 'SUV');
    t.match(part, 'Drop-off at our service centre: 300 Mount Wellington Highway, Mount Wellington, Auckland 1060');
    t.match(part, '$899.00');
    t.match(part, /First-service discount 15%/);
    t.match(part, '$764.15, pay on completion');
    t.match(part, 'Saturday 5 December 2026, 9:00 am to 5:00 pm (about 8 hours)', 'the start, the end and the duration booked');
  }
  t.notMatch(html, '<script>', 'the customer name is escaped');
  t.match(html, 'Tama &lt;script&gt;');
  t.match(html, 'href="https://valet.example.nz/booking/manage/abc_DEF-123"');
});

t.test('a cancellation has no manage link and withdraws the invitation', async (t) => {
  const message = customerMessage('booking-cancelled-by-customer', booking, context, undefined);
  t.notMatch(renderText(message.content), /Manage your booking/);
  const ics = bookingInvitation({ ...booking, version: 3, status: 'cancelled' }, context, 'CANCEL', undefined);
  t.match(ics, /METHOD:CANCEL/);
  const event = Object.values(ical.sync.parseICS(ics)).find((c) => c?.type === 'VEVENT') as ical.VEvent;
  t.equal(event.uid, `${booking.id}@valet.example.nz`);
  t.equal(Number(event.sequence), 3);
  t.equal(event.start.toISOString(), '2026-12-04T20:00:00.000Z', '9:00 NZDT');
  t.equal(event.end!.getTime() - event.start.getTime(), 480 * 60_000, "Ceramic Coating's eight hours");
});
