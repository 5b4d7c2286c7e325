/**
 * What several /v1 routes share besides the API's data shapes (#api/schemas.ts): the error
 * answers by status code, the id parameter, and the mapping of database rows to those shapes.
 */
import { Type } from 'typebox';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { BookingSchema, BookingWithHistorySchema, ErrorSchema, type ContactMessageDto, type StatusChangeDto, type ClosureDto, type EmailStatus, type OutboxEmailDto, type ResourceDto } from '#api/schemas.ts';
import { toBookingDto } from '../../db/booking-dto.ts';
import type { Booking, BookingStatusChange, Closure, ContactMessage, Resource } from '../../db/database.ts';
import { oneHourClosed } from '../../domain/closure-rules.ts';
import type { OutboxEmailSummary } from '../../db/outbox.repository.ts';
import { StaleBookingError } from '../../services/staff-bookings.service.ts';

/** The error answers every route may give, by status code. */
export const errorResponses = {
  400: ErrorSchema,
  413: ErrorSchema,
  415: ErrorSchema,
  429: ErrorSchema,
  503: ErrorSchema,
} as const;

export { toBookingDto, toQuoteDto } from '../../db/booking-dto.ts';

export function toStatusChangeDto(row: BookingStatusChange): StatusChangeDto {
  const move =
    row.from_date !== null && row.from_time !== null && row.to_date !== null && row.to_time !== null
      ? { from: { date: row.from_date, time: row.from_time, resourceId: row.from_resource_id }, to: { date: row.to_date, time: row.to_time, resourceId: row.to_resource_id } }
      : null;
  return { from: row.from_status, to: row.to_status, by: row.changed_by, at: row.changed_at.toISOString(), note: row.note, move, changes: row.changes ?? null };
}

export function toContactMessageDto(row: ContactMessage): ContactMessageDto {
  return { id: row.id, name: row.name, email: row.email, phone: row.phone, message: row.message, read: row.read_at !== null, createdAt: row.created_at.toISOString() };
}

export function toClosureDto(row: Closure): ClosureDto {
  return {
    id: row.id,
    date: row.date,
    time: oneHourClosed(row),
    from: row.from_time,
    to: row.to_time,
    kind: row.kind === 'onsite' || row.kind === 'dropoff' ? row.kind : null,
    resourceId: row.resource_id,
    reason: row.reason,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
  };
}

export function toResourceDto(row: Resource): ResourceDto {
  return { id: row.id, name: row.name, kind: row.kind === 'dropoff' ? 'dropoff' : 'onsite', active: row.active, position: row.position };
}

export function toOutboxEmailDto(row: OutboxEmailSummary): OutboxEmailDto {
  return {
    id: row.id,
    kind: row.kind,
    bookingId: row.booking_id,
    bookingReference: row.booking_reference,
    contactMessageId: row.contact_message_id,
    to: `${row.to_name} <${row.to_address}>`,
    subject: row.subject,
    status: row.status as EmailStatus,
    attempts: row.attempts,
    lastError: row.last_error,
    dueAt: row.next_attempt_at.toISOString(),
    sentAt: row.sent_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** Status codes every staff route may answer besides its own. */
export const staffErrorResponses = { 401: ErrorSchema, 403: ErrorSchema, ...errorResponses } as const;

/**
 * The answers of a staff change to one booking (compare-and-set on its version): the booking with
 * its history, or 409 — with the booking as it is now when someone changed it meanwhile.
 */
export const bookingChangeResponses = {
  200: BookingWithHistorySchema,
  404: ErrorSchema,
  409: Type.Object({ message: Type.String(), errors: ErrorSchema.properties.errors, booking: Type.Optional(BookingSchema) }),
  ...staffErrorResponses,
} as const;

/**
 * Runs a staff change to a booking and answers it: the booking and its history, or, when the
 * booking changed since the staff member looked, 409 with the booking as it is now.
 */
export async function answerBookingChange(
  reply: FastifyReply,
  log: FastifyBaseLogger,
  change: () => Promise<{ booking: Booking; history: BookingStatusChange[] }>,
) {
  try {
    const { booking, history } = await change();
    return { booking: toBookingDto(booking), history: history.map(toStatusChangeDto) };
  } catch (error) {
    if (!(error instanceof StaleBookingError)) throw error;
    log.info({ bookingId: error.current.id }, 'stale booking change refused');
    return reply.code(409).send({ message: error.message, errors: [], booking: toBookingDto(error.current) });
  }
}
