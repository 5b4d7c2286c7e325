/**
 * The Customers view's data shapes (issue 22): TypeBox schemas for the /v1/customers routes and
 * their static types for the dashboard (which imports types only).
 */
import { Type, type Static } from 'typebox';
import { BookingSchema, ContactMessageSchema } from './schemas.ts';

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
    totalSpentCents: Type.Integer({ minimum: 0, description: 'The totals of their completed bookings, in cents of NZ dollars' }),
    lastVisit: Type.Union([VisitSchema, Type.Null()], { description: 'The latest appointment before now that is not cancelled' }),
    nextVisit: Type.Union([VisitSchema, Type.Null()], { description: 'The earliest appointment from now on that is not cancelled' }),
    lastBookedAt: Type.String({ format: 'date-time', description: 'When their most recent booking was made (the list is in this order, most recent first)' }),
  },
  { description: 'The bookings made with one e-mail address (trimmed, in any case), or with one phone number when they have no e-mail' },
);
export type CustomerDto = Static<typeof CustomerSchema>;

export const CustomerPageSchema = Type.Object({ data: Type.Array(CustomerSchema), nextCursor: Type.Union([Type.String(), Type.Null()]) });
export type CustomerPageDto = Static<typeof CustomerPageSchema>;

export const CustomerDetailsSchema = Type.Object({
  customer: CustomerSchema,
  bookings: Type.Array(BookingSchema, { description: 'Every booking, the latest appointment first' }),
  messages: Type.Array(ContactMessageSchema, { description: 'Contact-form messages from their e-mail address (trimmed, in any case), newest first' }),
});
export type CustomerDetailsDto = Static<typeof CustomerDetailsSchema>;
