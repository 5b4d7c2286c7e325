/**
 * The Customers view's data shapes (issue 22): TypeBox schemas for the /v1/customers routes and
 * their static types for the dashboard (which imports types only).
 */
import { Type, type Static } from 'typebox';
import { BookingNoteSchema, BookingSchema, ContactMessageSchema, StatusChangeSchema, VehicleSchema } from './schemas.ts';

export const VisitSchema = Type.Object({
  bookingId: Type.String({ format: 'uuid' }),
  reference: Type.String(),
  date: Type.String({ description: 'YYYY-MM-DD, in Auckland' }),
  time: Type.String({ description: 'HH:mm, in Auckland' }),
  status: Type.String({ description: 'pending, confirmed or completed (a cancelled booking is no visit)' }),
});
export type VisitDto = Static<typeof VisitSchema>;

export const CustomerSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Opaque; the same while the customer has bookings' }),
    name: Type.String({ description: 'As given on their most recently made booking' }),
    email: Type.String({ description: "Their most recent booking's e-mail; empty for a customer known only by phone" }),
    phone: Type.String({ description: "Their most recent booking's phone" }),
    bookings: Type.Integer({ minimum: 1, description: 'Bookings of every status' }),
    completedJobs: Type.Integer({ minimum: 0 }),
    totalSpentCents: Type.Integer({ minimum: 0, description: 'What was paid for their completed jobs (the amount recorded with the payment; the total for a job completed before payments were recorded), in cents of NZ dollars' }),
    lastVisit: Type.Union([VisitSchema, Type.Null()], { description: 'The latest appointment before now that is not cancelled' }),
    nextVisit: Type.Union([VisitSchema, Type.Null()], { description: 'The earliest appointment from now on that is not cancelled' }),
    lastBookedAt: Type.String({ format: 'date-time', description: 'When their most recent booking was made (the list is in this order, most recent first)' }),
  },
  { description: 'The bookings made with one e-mail address (trimmed, in any case), or with one phone number when they have no e-mail' },
);
export type CustomerDto = Static<typeof CustomerSchema>;

export const CustomerPageSchema = Type.Object({ data: Type.Array(CustomerSchema), nextCursor: Type.Union([Type.String(), Type.Null()]) });
export type CustomerPageDto = Static<typeof CustomerPageSchema>;

export const CustomerVehicleSchema = Type.Object({
  name: Type.String({ description: 'Its plate, or else its make and model' }),
  vehicle: Type.Object(VehicleSchema.properties, { description: 'As on its latest booking (size, details, package and add-ons): what "Book again" fills in' }),
  jobs: Type.Array(
    Type.Object({
      bookingId: Type.String({ format: 'uuid' }),
      reference: Type.String(),
      date: Type.String({ description: 'YYYY-MM-DD' }),
      service: Type.String(),
      coatingType: Type.String(),
      addOns: Type.Array(Type.String(), { description: 'Add-on ids' }),
    }),
    { description: 'The jobs done on it (completed), the latest first' },
  ),
});
export type CustomerVehicleDto = Static<typeof CustomerVehicleSchema>;

export const CustomerDetailsSchema = Type.Object({
  customer: CustomerSchema,
  bookings: Type.Array(BookingSchema, { description: 'Every booking, the latest appointment first' }),
  vehicles: Type.Array(CustomerVehicleSchema, {
    description: 'Their vehicles (issue 41), each known by its plate or else its make and model (one with neither is not listed), the latest booked first; cancelled bookings name none',
  }),
  messages: Type.Array(ContactMessageSchema, { description: 'Contact-form messages from their e-mail address (trimmed, in any case), newest first' }),
});
export type CustomerDetailsDto = Static<typeof CustomerDetailsSchema>;

/** PATCH /v1/customers/{id}: the details to correct on every one of their bookings (the address on on-site ones). */
export const CustomerCorrectionSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 100 })),
    email: Type.Optional(Type.String({ maxLength: 254, description: "Empty for a customer who gave none (a booking taken by phone)" })),
    phone: Type.Optional(Type.String({ maxLength: 20 })),
    houseNumber: Type.Optional(Type.String({ maxLength: 20 })),
    streetAddress: Type.Optional(Type.String({ maxLength: 120 })),
    suburb: Type.Optional(Type.String({ maxLength: 80 })),
    city: Type.Optional(Type.String({ maxLength: 80 })),
    postalCode: Type.Optional(Type.String({ maxLength: 10 })),
    region: Type.Optional(Type.String({ maxLength: 40 })),
    landmark: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type CustomerCorrectionDto = Static<typeof CustomerCorrectionSchema>;

export const CustomerCorrectedSchema = Type.Object({
  customer: CustomerSchema,
  bookingsChanged: Type.Integer({ minimum: 0, description: 'Bookings whose details changed (each has a history line saying what)' }),
});
export type CustomerCorrectedDto = Static<typeof CustomerCorrectedSchema>;

export const ErasureRequestSchema = Type.Object(
  { confirmation: Type.String({ minLength: 1, maxLength: 100, description: "ERASE, or the customer's name as listed, in any case: erasing cannot be undone" }) },
  { additionalProperties: false },
);

const erasedRows = (what: string) => Type.Integer({ minimum: 0, description: what });
export const ErasureResultSchema = Type.Object(
  {
    erased: Type.Object({
      bookings: erasedRows('Bookings whose name, e-mail, phone, address, landmark and notes were replaced (amounts, dates, package, status kept); their manage links no longer work'),
      booking_status_changes: erasedRows('History lines whose note or changed details were replaced'),
      booking_notes: erasedRows('Internal notes whose text was replaced'),
      contact_messages: erasedRows('Contact messages whose name, e-mail, phone and text were replaced'),
      outbox_emails: erasedRows('E-mails whose recipient, subject, bodies and invitation were erased (one still queued is never sent)'),
      idempotency_keys: erasedRows('Stored answers to repeated requests that named them, deleted'),
      waitlist_entries: erasedRows('Their waitlist entries (issue 43), deleted'),
    }),
  },
  { description: 'What was erased, by table: rows changed' },
);
export type ErasureResultDto = Static<typeof ErasureResultSchema>;

const ExportBookingSchema = Type.Object({
  booking: BookingSchema,
  history: Type.Array(StatusChangeSchema),
  notes: Type.Array(BookingNoteSchema, { description: 'Internal notes written by staff' }),
  payment: Type.Union([
    Type.Object({
      amountCents: Type.Integer(),
      method: Type.Union([Type.String(), Type.Null()]),
      paidAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      invoiceNumber: Type.Union([Type.Integer(), Type.Null()]),
    }),
    Type.Null(),
  ]),
});

export const ExportEmailSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  text: Type.String({ description: 'Empty once the body is no longer kept (RETENTION_EMAIL_BODY_DAYS)' }),
  status: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const CustomerExportSchema = Type.Object(
  {
    exportedAt: Type.String({ format: 'date-time' }),
    customer: CustomerSchema,
    bookings: Type.Array(ExportBookingSchema, { description: 'Every booking with its history, internal notes and payment, the latest appointment first' }),
    contactMessages: Type.Array(ContactMessageSchema),
    emails: Type.Array(ExportEmailSchema, { description: 'E-mails sent (or to be sent) to their address, with their status, newest first' }),
    waitlistEntries: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date' }),
        part: Type.String({ description: 'any, morning or afternoon' }),
        status: Type.String({ description: 'waiting, offered, booked, declined, lapsed, withdrawn, left or ended' }),
        createdAt: Type.String({ format: 'date-time' }),
        request: Type.Record(Type.String(), Type.Unknown(), { description: 'The booking they asked for, as they sent it (without a time)' }),
      }),
      { description: 'Their waitlist entries (issue 43), newest first' },
    ),
  },
  { description: 'Everything held about one customer (Privacy Act principle 6)' },
);
export type CustomerExportDto = Static<typeof CustomerExportSchema>;
