/**
 * The API's data shapes, in one place: TypeBox schemas (which the /v1 routes validate and
 * document with) and their static types (which the browser's staff client is typed with). The
 * browser imports types only, so TypeBox stays out of its bundle. Database rows are the data
 * layer's (src/db/database.ts); the routes map them to these shapes.
 */
import { Type, type Static } from 'typebox';
import { FIRST_SERVICE_DISCOUNT_PERCENT } from '../domain/catalogue.ts';
import { CURRENCY } from '../domain/pricing.ts';

export const FieldErrorSchema = Type.Object({
  field: Type.String({ description: 'The payload key the message is about' }),
  message: Type.String(),
});

export const ErrorSchema = Type.Object(
  { message: Type.String(), errors: Type.Array(FieldErrorSchema) },
  { $id: 'ErrorResponse', description: 'Every error answer of the API has this shape' },
);

const Cents = (description: string) => Type.Integer({ minimum: 0, description: `${description}, in cents of NZ dollars` });

export const JobLineSchema = Type.Object(
  {
    description: Type.String({ description: "The package with the vehicle's size (and coating term), or an add-on; with the vehicle's plate or make and model when the job has several" }),
    quantity: Type.Integer({ minimum: 1 }),
    unitCents: Cents('The price of one'),
    totalCents: Cents('quantity × unitCents'),
    minutes: Type.Integer({ minimum: 1, description: 'Minutes of work it adds to the job' }),
  },
  { description: 'A line of the job: a package or an add-on for one vehicle' },
);

export const VehicleSchema = Type.Object({
  vehicleType: Type.String({ description: 'sm, mid or suv' }),
  selectedVehicleType: Type.String({ description: 'The size as chosen (sm, mid, suv, Hatchback, Sedan or Suv)' }),
  service: Type.String({ description: 'The package' }),
  coatingType: Type.String({ description: "Ceramic Coating: coat1 or coat2; '' otherwise" }),
  addOns: Type.Array(Type.String(), { description: 'Add-on ids (GET /v1/catalogue), one entry per one taken' }),
  make: Type.String(),
  model: Type.String(),
  colour: Type.String(),
  plate: Type.String({ description: "NZ plate, upper case, 1 to 6 letters and digits; '' when not given" }),
});

export const QuoteSchema = Type.Object(
  {
    currency: Type.Literal(CURRENCY),
    listPriceCents: Cents('The catalogue price'),
    discountCents: Cents('The discount: the percentage of the list price, to the nearest cent (halves up)'),
    travelFeeCents: Cents("On-site work: the travel fee of the customer's zone of the service area, GST inclusive (never discounted); 0 for none"),
    totalCents: Cents('What the customer pays: list price less discount, plus the travel fee and any staff adjustment'),
    discount: Type.Union([
      Type.Null(),
      Type.Object({
        kind: Type.Union([Type.Literal('first-service'), Type.Literal('plan')], {
          description: "'first-service': no earlier booking (not cancelled) with this e-mail; 'plan': a visit of a maintenance plan after its first (PLAN_DISCOUNT_PERCENT)",
        }),
        percent: Type.Integer({ examples: [FIRST_SERVICE_DISCOUNT_PERCENT] }),
      }),
    ]),
    adjustment: Type.Optional(
      Type.Union([Type.Null(), Type.Object({ cents: Type.Integer({ description: 'Added to the total, in cents (negative: taken off)' }), reason: Type.String() })], {
        description: 'A price adjusted by staff (a booking taken or edited in the dashboard), with the reason; null: none',
      }),
    ),
    lines: Type.Array(JobLineSchema, { description: 'The job line by line; listPriceCents is their sum' }),
    durationMinutes: Type.Integer({ minimum: 1, description: "The job's minutes of work: the sum of its lines'" }),
  },
  { description: 'What a booking costs, computed by the server' },
);

export const BookingSchema = Type.Object({
  _id: Type.String({ format: 'uuid' }),
  reference: Type.String({ description: 'Short reference for people: 8 characters, no look-alikes (no 0/O, 1/I/L)' }),
  service: Type.String(),
  coatingType: Type.String(),
  vehicleType: Type.String(),
  selectedVehicleType: Type.String(),
  date: Type.String({ description: 'YYYY-MM-DD, as sent' }),
  time: Type.String({ description: 'HH:mm, as sent' }),
  serviceType: Type.String({ description: 'onsite or dropoff' }),
  houseNumber: Type.String(),
  streetAddress: Type.String(),
  suburb: Type.String(),
  city: Type.String(),
  postalCode: Type.String(),
  region: Type.String(),
  landmark: Type.String(),
  saveAddress: Type.Boolean(),
  name: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  notes: Type.String(),
  quote: QuoteSchema,
  vehicles: Type.Array(VehicleSchema, { description: 'The vehicles of the visit (one to four); the top-level service fields are the first one\'s' }),
  resourceId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'The van or bay the job holds; null when it needs one (see GET /v1/schedule)' }),
  startsAt: Type.String({ format: 'date-time', description: 'The appointment as an instant' }),
  endsAt: Type.String({ format: 'date-time', description: 'When the work ends: the start plus the duration the job was booked with' }),
  bufferMinutes: Type.Integer({ minimum: 0, description: 'The least gap the van is held for after the work (on-site jobs); the drive to its next job may ask for more (the zones)' }),
  zoneId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
    description: 'On-site: the zone of the service area the job was placed in (GET /v1/service-zones names it); null for a drop-off and for an on-site job outside every zone',
  }),
  outsideServiceArea: Type.Boolean({ description: 'An on-site job whose postcode was in no zone when zones came in: kept where it is, for staff to look at' }),
  zoneName: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: "The name of the job's zone (null when zoneId is); given with one booking's details (GET and PATCH /v1/bookings/{id}), not in lists" }),
  ),
  status: Type.String({ description: 'pending, confirmed, completed, no-show or cancelled (the transitions: src/domain/booking-status.ts)' }),
  cancelledLate: Type.Boolean({ description: 'Cancelled by staff within the notice period (MANAGE_CUTOFF_HOURS before the start); false otherwise' }),
  version: Type.Integer({ description: 'Bumped by every status change; send it back to change the status' }),
  createdAt: Type.String({ format: 'date-time' }),
  source: Type.Union([Type.Literal('online'), Type.Literal('staff')], { description: 'online (the wizard or the API) or staff (taken in the dashboard)' }),
  createdBy: Type.Union([Type.String(), Type.Null()], { description: 'The staff member who took a staff booking; null for an online one' }),
  awaitingEmailUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'BOOKING_CONFIRMATION=email: the booking awaits its customer\'s confirmation from the e-mail until then, and lapses after; null when it is not waiting',
  }),
  lapsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the booking lapsed unconfirmed (it is then cancelled); null otherwise' }),
  onTheWayAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the customer was told staff are on the way (the Today view); null before' }),
  arrivingAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The arrival time the customer was given; null before' }),
  startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the work started; null before' }),
});
export type BookingDto = Static<typeof BookingSchema>;

const SlotSchema = Type.Object({
  date: Type.String({ description: 'YYYY-MM-DD' }),
  time: Type.String({ description: 'HH:mm' }),
  resourceId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
});

/** One field of a booking changed by a staff edit, as people read it (issue 21). */
export const BookingChangeSchema = Type.Object({
  field: Type.String({ description: 'Name, E-mail, Phone, Address, Notes, Package, Vehicle size, Vehicles, When, Van or bay, Price adjustment or Total' }),
  from: Type.String({ description: "'' when there was none" }),
  to: Type.String({ description: "'' when there is none now" }),
});
export type BookingChangeDto = Static<typeof BookingChangeSchema>;

export const StatusChangeSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  by: Type.String({ description: "The member of staff's account name (the name given at sign-in with the owner password), or 'Customer' for a change made on the booking's manage page" }),
  at: Type.String({ format: 'date-time' }),
  note: Type.Union([Type.String(), Type.Null()], { description: 'Why, when staff said (a release as spam gives its reason)' }),
  move: Type.Union([Type.Object({ from: SlotSchema, to: SlotSchema }), Type.Null()], {
    description: 'A move to another time or resource (the status stays the same): the appointment before and after, with the resource each held; null for a status change',
  }),
  changes: Type.Union([Type.Array(BookingChangeSchema), Type.Null()], {
    description: 'A staff edit (PATCH /v1/bookings/{id}): each field changed, from what to what, as people read them; null otherwise',
  }),
});
export type StatusChangeDto = Static<typeof StatusChangeSchema>;

export const BookingWithHistorySchema = Type.Object({ booking: BookingSchema, history: Type.Array(StatusChangeSchema) });

export const BookingNoteSchema = Type.Object(
  {
    id: Type.Integer(),
    text: Type.String({ description: 'The note, 1 to 2000 characters (line breaks kept)' }),
    by: Type.String({ description: 'The name the staff member signed in with' }),
    at: Type.String({ format: 'date-time' }),
  },
  { description: 'An internal note: for staff only, never shown to the customer nor e-mailed' },
);
export type BookingNoteDto = Static<typeof BookingNoteSchema>;

export const ContactMessageSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  message: Type.String(),
  read: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type ContactMessageDto = Static<typeof ContactMessageSchema>;

export const ClosureSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  date: Type.String({ format: 'date' }),
  time: Type.Union([Type.String(), Type.Null()], { description: 'HH:mm of the one hour closed, when exactly one hour is (the name before from-to ranges); null otherwise' }),
  from: Type.Union([Type.String(), Type.Null()], { description: 'HH:mm the closure starts; null when the whole date is closed' }),
  to: Type.Union([Type.String(), Type.Null()], { description: 'HH:mm (24:00: midnight) the closure ends; null when the whole date is closed' }),
  kind: Type.Union([Type.Literal('onsite'), Type.Literal('dropoff'), Type.Null()], { description: 'Closes every resource of this kind; null with resourceId null: both kinds' }),
  resourceId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'Closes this one van or bay only' }),
  reason: Type.String({ description: 'For staff only; customers are told "Closed"' }),
  createdBy: Type.String({ description: 'The name given at sign-in' }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type ClosureDto = Static<typeof ClosureSchema>;

export const ResourceSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  kind: Type.Union([Type.Literal('onsite'), Type.Literal('dropoff')], { description: 'onsite: a van or team that goes to customers; dropoff: a bay at the service centre' }),
  active: Type.Boolean({ description: 'Only active ones take jobs' }),
  position: Type.Integer({ minimum: 0, description: 'Order in the schedule' }),
});
export type ResourceDto = Static<typeof ResourceSchema>;

/** queued (waiting or being sent), sent, failed (after the last attempt), skipped (a reminder of a cancelled or moved booking), unsent (no SMTP configured). */
export const EmailStatusSchema = Type.Union([Type.Literal('queued'), Type.Literal('sent'), Type.Literal('failed'), Type.Literal('skipped'), Type.Literal('unsent')]);
export type EmailStatus = Static<typeof EmailStatusSchema>;

/** One e-mail of the outbox as the dashboard lists it. */
export const OutboxEmailSchema = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  bookingId: Type.Union([Type.String(), Type.Null()]),
  bookingReference: Type.Union([Type.String(), Type.Null()]),
  contactMessageId: Type.Union([Type.String(), Type.Null()]),
  to: Type.String({ description: 'The recipient, "Name <address>"' }),
  subject: Type.String(),
  status: EmailStatusSchema,
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  /** When it is (or was) due: a reminder's is before its appointment. */
  dueAt: Type.String({ format: 'date-time' }),
  sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type OutboxEmailDto = Static<typeof OutboxEmailSchema>;

/** An e-mail with its content, for the preview (the HTML part is served on its own, sandboxed). */
export const OutboxEmailDetailSchema = Type.Object({
  email: OutboxEmailSchema,
  replyTo: Type.Union([Type.String(), Type.Null()]),
  text: Type.String(),
  invitation: Type.Union([Type.Object({ method: Type.String(), ics: Type.String() }), Type.Null()]),
});
export type OutboxEmailDetailDto = Static<typeof OutboxEmailDetailSchema>;

/** A kind's hours on one weekday (wall-clock in Auckland, on the hour; 24:00 is midnight), or null when it does not work that day. */
export const DayHoursSchema = Type.Union([
  Type.Object({ opens: Type.String({ description: 'HH:00' }), closes: Type.String({ description: 'HH:00, after opens' }) }, { additionalProperties: false }),
  Type.Null(),
]);
export type DayHoursDto = Static<typeof DayHoursSchema>;

export const WeekHoursSchema = Type.Object(
  {
    monday: DayHoursSchema,
    tuesday: DayHoursSchema,
    wednesday: DayHoursSchema,
    thursday: DayHoursSchema,
    friday: DayHoursSchema,
    saturday: DayHoursSchema,
    sunday: DayHoursSchema,
  },
  { description: 'A kind of job\'s hours for each weekday; null: closed that day' },
);
export type WeekHoursDto = Static<typeof WeekHoursSchema>;

export const WorkingHoursSchema = Type.Object({
  onsite: WeekHoursSchema,
  dropoff: WeekHoursSchema,
  minGapMinutes: Type.Integer({ minimum: 0, description: 'Minutes an on-site job holds its van after the work, for jobs placed from now on' }),
});
export type WorkingHoursDto = Static<typeof WorkingHoursSchema>;

const ZoneNameSchema = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const ScheduleGapSchema = Type.Object(
  {
    fromBookingId: Type.String({ format: 'uuid' }),
    toBookingId: Type.String({ format: 'uuid' }),
    gapMinutes: Type.Integer({ description: "From the end of the first job's work to the start of the next" }),
    driveMinutes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: "The drive from the first job's zone to the next's under today's zones and travel times; null when either is outside the service area",
    }),
    fromZone: ZoneNameSchema("The first job's zone; null outside the service area"),
    toZone: ZoneNameSchema("The next job's zone; null outside the service area"),
    tooShort: Type.Boolean({ description: 'The gap is shorter than the drive: possible only for jobs placed before travel times or zones changed' }),
  },
  { description: "The gap between two consecutive jobs of a van, and the drive it needs" },
);
export type ScheduleGapDto = Static<typeof ScheduleGapSchema>;

export const RouteStopSchema = Type.Object({
  bookingId: Type.String({ format: 'uuid' }),
  time: Type.String({ description: 'HH:mm' }),
  firstName: Type.String({ description: "The customer's first name" }),
  address: Type.String({ description: 'The address on one line' }),
  zoneName: ZoneNameSchema('Its zone of the service area; null outside the service area'),
  directionsUrl: Type.String({ format: 'uri', description: 'Google Maps directions from where the phone is to the address' }),
});
export type RouteStopDto = Static<typeof RouteStopSchema>;

export const VanRouteSchema = Type.Object(
  {
    stops: Type.Array(RouteStopSchema, { description: 'Its jobs in the order the van reaches them' }),
    minutes: Type.Integer({
      minimum: 0,
      description: 'About how long the van drives that day: from the service centre to its first stop, between stops and back, under today\'s travel times; the drive to and from a stop outside the service area is not known and not counted',
    }),
    unknownStops: Type.Integer({ minimum: 0, description: 'Stops outside the service area, whose drives are left out of minutes' }),
  },
  { description: "A van's route of the day (the Today view)" },
);
export type VanRouteDto = Static<typeof VanRouteSchema>;

export const ScheduleLaneSchema = Type.Object({
  resource: ResourceSchema,
  jobs: Type.Array(BookingSchema, { description: 'The jobs it holds that date (pending, confirmed or completed), by start' }),
  closures: Type.Array(ClosureSchema, { description: 'Closures of this van or bay alone' }),
  gaps: Type.Array(ScheduleGapSchema, { description: "A van's gaps between consecutive jobs, in order; empty for a bay" }),
  route: Type.Union([VanRouteSchema, Type.Null()], { description: 'A van\'s route of the day; null for a bay' }),
});
export type ScheduleLaneDto = Static<typeof ScheduleLaneSchema>;

export const ScheduleDaySchema = Type.Object({
  date: Type.String({ format: 'date' }),
  hours: Type.Object({ onsite: DayHoursSchema, dropoff: DayHoursSchema }, { description: "Each kind's working hours that date (null: not working, weekly closed days included)" }),
  weeklyClosed: Type.Boolean({ description: 'The date falls on a weekly closed day' }),
  lanes: Type.Array(ScheduleLaneSchema, { description: 'Active vans and bays in order, then inactive ones still holding jobs that date' }),
  closures: Type.Array(ClosureSchema, { description: 'Closures of every resource of a kind, or of both kinds' }),
  unassigned: Type.Array(BookingSchema, { description: '"Needs a van or bay": jobs from today on that hold none, soonest first' }),
});
export type ScheduleDayDto = Static<typeof ScheduleDaySchema>;

export const ScheduleWeekSchema = Type.Object({
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  dates: Type.Array(Type.String({ format: 'date' })),
  rows: Type.Array(
    Type.Object({
      resource: ResourceSchema,
      days: Type.Array(
        Type.Object({
          date: Type.String({ format: 'date' }),
          jobs: Type.Integer({ minimum: 0 }),
          bookedMinutes: Type.Integer({ minimum: 0, description: 'The work booked on it, start to end (travel buffers apart)' }),
          openMinutes: Type.Integer({ minimum: 0, description: "Its kind's working minutes that date" }),
        }),
      ),
    }),
  ),
  unassigned: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), jobs: Type.Integer({ minimum: 0 }) }), { description: 'Jobs holding no van or bay, per date' }),
});
export type ScheduleWeekDto = Static<typeof ScheduleWeekSchema>;

/** POST /v1/bookings/release: what was released as spam, and what was not (with why). */
export const ReleaseResultSchema = Type.Object({
  released: Type.Array(BookingSchema, { description: 'Cancelled without any e-mail to the customer, their places freed' }),
  skipped: Type.Array(
    Type.Object({
      id: Type.String(),
      reason: Type.String({ description: 'Why it was not released: unknown, or already cancelled or completed' }),
    }),
  ),
});
export type ReleaseResultDto = Static<typeof ReleaseResultSchema>;
