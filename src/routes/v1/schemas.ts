/** Response and request shapes shared by several /v1 routes. */
import { Type, type Static } from 'typebox';
import type { Booking, BookingStatusChange, Closure, ContactMessage } from '../../db/database.ts';

export const FieldErrorSchema = Type.Object({
  field: Type.String({ description: 'The payload key the message is about' }),
  message: Type.String(),
});

export const ErrorSchema = Type.Object(
  { message: Type.String(), errors: Type.Array(FieldErrorSchema) },
  { $id: 'ErrorResponse', description: 'Every error answer of the API has this shape' },
);

/** The error answers every route may give, by status code. */
export const errorResponses = {
  400: ErrorSchema,
  413: ErrorSchema,
  415: ErrorSchema,
  429: ErrorSchema,
  503: ErrorSchema,
} as const;

export const BookingSchema = Type.Object({
  _id: Type.String({ format: 'uuid' }),
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
  price: Type.Integer({ description: 'Price in NZ dollars at the time of booking' }),
  status: Type.String({ description: 'pending, confirmed, completed or cancelled' }),
  version: Type.Integer({ description: 'Bumped by every status change; send it back to change the status' }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type BookingDto = Static<typeof BookingSchema>;

export function toBookingDto(row: Booking): BookingDto {
  return {
    _id: row.id,
    service: row.service,
    coatingType: row.coating_type,
    vehicleType: row.vehicle_type,
    selectedVehicleType: row.selected_vehicle_type,
    date: row.date,
    time: row.time,
    serviceType: row.service_type,
    houseNumber: row.house_number,
    streetAddress: row.street_address,
    suburb: row.suburb,
    city: row.city,
    postalCode: row.postal_code,
    region: row.region,
    landmark: row.landmark,
    saveAddress: row.save_address,
    name: row.name,
    email: row.email,
    phone: row.phone,
    notes: row.notes,
    price: row.price_nzd,
    status: row.status,
    version: row.version,
    createdAt: row.created_at.toISOString(),
  };
}

export const StatusChangeSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  by: Type.String({ description: 'The name given at sign-in' }),
  at: Type.String({ format: 'date-time' }),
});

export function toStatusChangeDto(row: BookingStatusChange): Static<typeof StatusChangeSchema> {
  return { from: row.from_status, to: row.to_status, by: row.changed_by, at: row.changed_at.toISOString() };
}

export const BookingWithHistorySchema = Type.Object({ booking: BookingSchema, history: Type.Array(StatusChangeSchema) });

export const ContactMessageSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  message: Type.String(),
  read: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});

export function toContactMessageDto(row: ContactMessage): Static<typeof ContactMessageSchema> {
  return { id: row.id, name: row.name, email: row.email, phone: row.phone, message: row.message, read: row.read_at !== null, createdAt: row.created_at.toISOString() };
}

export const ClosureSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  date: Type.String({ format: 'date' }),
  time: Type.Union([Type.String(), Type.Null()], { description: 'HH:mm of the slot closed; null when the whole date is closed' }),
  reason: Type.String({ description: 'For staff only; customers are told "Closed"' }),
  createdBy: Type.String({ description: 'The name given at sign-in' }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type ClosureDto = Static<typeof ClosureSchema>;

export function toClosureDto(row: Closure): ClosureDto {
  return { id: row.id, date: row.date, time: row.time, reason: row.reason, createdBy: row.created_by, createdAt: row.created_at.toISOString() };
}

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** Status codes every staff route may answer besides its own. */
export const staffErrorResponses = { 401: ErrorSchema, 403: ErrorSchema, ...errorResponses } as const;
