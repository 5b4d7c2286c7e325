/**
 * PATCH /v1/bookings/{id}: staff edit a booking (issue 21): contact details, address, notes,
 * on-site or drop-off, package, vehicle size, coating, the vehicles with their add-ons (issue 41),
 * date, time, van or bay and the price adjustment, compare-and-set on the version it was based on
 * (409 with the booking as it is now when it changed meanwhile). A new package, size, coating or
 * set of vehicles is re-quoted line by line; a new date, time, van or bay, or a new duration, goes
 * through the scheduling engine (409 with its reason when it does not fit). `dryRun` answers the same without
 * writing (the dialog's preview). The customer is e-mailed what changed unless `notifyCustomer`
 * is false.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BOOKING_LIMITS, type BookingTextField } from '../../../domain/booking-rules.ts';
import { BookingChangeSchema, BookingSchema, ErrorSchema, QuoteSchema, StatusChangeSchema } from '#api/schemas.ts';
import { editBooking, type BookingEdit } from '../../../services/booking-edit.service.ts';
import { StaleBookingError } from '../../../services/staff-bookings.service.ts';
import { PriceAdjustmentFields } from './booking-create.ts';
import { CreateBookingBody } from '../create-booking.ts';
import { IdParams, staffErrorResponses, toBookingDto, toQuoteDto, toStatusChangeDto } from '../schemas.ts';
import { zoneNameOf } from '../../../db/service-zones.repository.ts';

const text = (field: BookingTextField, description: string) => Type.Optional(Type.String({ maxLength: BOOKING_LIMITS[field], description }));

const EditBody = Type.Object(
  {
    version: Type.Integer({ minimum: 1, description: 'The version of the booking the edit is based on' }),
    notifyCustomer: Type.Optional(Type.Boolean({ description: 'E-mail the customer "Your booking has changed" with the updated invitation (default true; never without an address)' })),
    dryRun: Type.Optional(Type.Boolean({ description: 'Work out the new quote and placement and answer as if saved, writing nothing' })),
    name: text('name', 'Full name'),
    email: text('email', "E-mail address; '' removes it (then nothing is e-mailed)"),
    phone: text('phone', '7 to 15 digits, spaces, +, brackets or hyphens'),
    houseNumber: text('houseNumber', 'On-site address'),
    streetAddress: text('streetAddress', 'On-site address'),
    suburb: text('suburb', 'On-site address'),
    city: text('city', 'On-site address'),
    postalCode: text('postalCode', 'On-site address'),
    region: text('region', 'On-site address'),
    landmark: text('landmark', 'Optional'),
    notes: text('notes', "The customer's notes"),
    serviceType: text('serviceType', 'onsite (the address is then required) or dropoff (the address is cleared): placed again on a van or a bay through the engine'),
    service: text('service', 'A package name: re-quoted'),
    selectedVehicleType: text('selectedVehicleType', 'The size (sm, mid, suv, Hatchback, Sedan or Suv): re-quoted'),
    vehicleType: text('vehicleType', 'sm, mid or suv: re-quoted'),
    coatingType: text('coatingType', 'coat1 or coat2 for Ceramic Coating: re-quoted'),
    vehicles: CreateBookingBody.properties.vehicles,
    date: text('date', 'YYYY-MM-DD, from today (next whole hour on) to 12 months ahead'),
    time: text('time', 'HH:00'),
    resourceId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: "A van or bay of the job's kind; null: the schedule chooses; absent: keep it if it still fits" })),
    ...PriceAdjustmentFields,
  },
  { additionalProperties: false },
);

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.patch(
    '/bookings/:id',
    {
      schema: {
        operationId: 'editBooking',
        summary: "Edit a booking's details, vehicles and add-ons, package, time or price (compare-and-set on its version)",
        tags: ['staff'],
        params: IdParams,
        body: EditBody,
        response: {
          200: Type.Object({
            booking: BookingSchema,
            history: Type.Array(StatusChangeSchema),
            changes: Type.Array(BookingChangeSchema, { description: 'What changed (or, for a dry run, would change), from what to what' }),
            quote: QuoteSchema,
            customerNotified: Type.Boolean({ description: 'Whether the customer was (or would be) e-mailed' }),
            dryRun: Type.Boolean(),
          }),
          404: ErrorSchema,
          409: Type.Object({ message: Type.String(), errors: ErrorSchema.properties.errors, booking: Type.Optional(BookingSchema) }),
          ...staffErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { version, notifyCustomer, dryRun, ...edit } = request.body;
      try {
        const result = await editBooking(
          app.db,
          {
            id: request.params.id,
            version,
            edit: edit as BookingEdit,
            ...(notifyCustomer === undefined ? {} : { notifyCustomer }),
            ...(dryRun ? { dryRun } : {}),
            by: request.staff?.name ?? 'Staff',
          },
          { now: app.now(), mail: app.mail },
        );
        if (!result.dryRun) request.log.info({ bookingId: result.booking.id, changed: result.changes.map((c) => c.field), notified: result.customerNotified }, 'booking edited by staff');
        return {
          booking: { ...toBookingDto(result.booking), zoneName: await zoneNameOf(app.db, result.booking.zone_id) },
          history: result.history.map(toStatusChangeDto),
          changes: result.changes,
          quote: toQuoteDto(result.booking),
          customerNotified: result.customerNotified,
          dryRun: result.dryRun,
        };
      } catch (error) {
        if (!(error instanceof StaleBookingError)) throw error;
        return reply.code(409).send({ message: error.message, errors: [], booking: toBookingDto(error.current) });
      }
    },
  );
};

export default route;
