/** POST /v1/create-booking: the booking wizard's whole form state (spec sections 3, 5 and 7). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BOOKING_LIMITS, emptyBooking, REGIONS, TIME_SLOTS } from '../../domain/booking-rules.ts';
import { PACKAGE_NAMES } from '../../domain/catalogue.ts';
import { ADD_ON_IDS } from '../../domain/add-ons.ts';
import { MAX_VEHICLES, VEHICLE_TEXT_LIMITS } from '../../domain/job.ts';
import { bookingReceived } from '../../domain/messages.ts';
import { createBooking } from '../../services/booking.service.ts';
import { BookingSchema, ErrorSchema, QuoteSchema } from '#api/schemas.ts';
import { IdempotencyHeaders, sendOnce } from './idempotency.ts';
import { errorResponses, toBookingDto, toQuoteDto } from './schemas.ts';

const text = (field: keyof typeof BOOKING_LIMITS, description: string) =>
  Type.Optional(Type.String({ maxLength: BOOKING_LIMITS[field], description }));
const vehicleText = (maxLength: number, description: string) => Type.Optional(Type.String({ maxLength, description }));

/**
 * Every key is optional here so that a blank or missing field gets the wizard's own message from
 * the booking rules; the schema's job is types and unknown keys (a `price` or a quote sent by a
 * client is one: prices are the server's). POST /v1/quote takes the same body.
 */
export const CreateBookingBody = Type.Object(
  {
    service: text('service', `One of: ${PACKAGE_NAMES.join(', ')}`),
    coatingType: text('coatingType', "Ceramic Coating only: coat1 (1 year) or coat2 (3 years); '' otherwise"),
    vehicleType: text('vehicleType', 'sm, mid or suv'),
    selectedVehicleType: text('selectedVehicleType', 'The size chosen on step 1 (sm, mid, suv, Hatchback, Sedan or Suv)'),
    date: text('date', 'YYYY-MM-DD, from tomorrow (Pacific/Auckland) up to 12 months ahead'),
    time: text('time', `One of ${TIME_SLOTS.join(', ')}`),
    serviceType: text('serviceType', 'onsite or dropoff'),
    houseNumber: text('houseNumber', 'Required for onsite'),
    streetAddress: text('streetAddress', 'Required for onsite'),
    suburb: text('suburb', 'Required for onsite'),
    city: text('city', 'Required for onsite'),
    postalCode: text('postalCode', 'Required for onsite'),
    region: text('region', `Required for onsite; one of: ${REGIONS.join(', ')}`),
    landmark: text('landmark', 'Optional'),
    saveAddress: Type.Optional(Type.Boolean()),
    name: text('name', 'Full name'),
    email: text('email', 'E-mail address'),
    phone: text('phone', '7 to 15 digits, spaces, +, brackets or hyphens'),
    notes: text('notes', 'Optional'),
    addOns: Type.Optional(
      Type.Array(Type.String({ maxLength: 40 }), {
        maxItems: 20,
        description: `Add-ons for the one vehicle of this body, by id (${ADD_ON_IDS.join(', ')}; GET /v1/catalogue): each must fit the package, and at most its max of each`,
      }),
    ),
    vehicles: Type.Optional(
      Type.Array(
        Type.Object(
          {
            vehicleType: vehicleText(10, 'sm, mid or suv (or give selectedVehicleType)'),
            selectedVehicleType: vehicleText(20, 'The size as chosen (sm, mid, suv, Hatchback, Sedan or Suv)'),
            service: vehicleText(60, `One of: ${PACKAGE_NAMES.join(', ')}`),
            coatingType: vehicleText(10, "Ceramic Coating only: coat1 or coat2; '' otherwise"),
            addOns: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 20, description: 'Add-on ids for this vehicle' })),
            make: vehicleText(VEHICLE_TEXT_LIMITS.make, 'Optional'),
            model: vehicleText(VEHICLE_TEXT_LIMITS.model, 'Optional'),
            colour: vehicleText(VEHICLE_TEXT_LIMITS.colour, 'Optional'),
            plate: vehicleText(VEHICLE_TEXT_LIMITS.plate, 'Optional: NZ plate, 1 to 6 letters and digits (spaces ignored, stored upper case)'),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: 10,
          description: `One to ${MAX_VEHICLES} vehicles in one visit, done one after another by one van (on site) or in one bay; when given, leave out the top-level service, coatingType, vehicleType, selectedVehicleType and addOns. Errors name the field with its index: vehicles[1].service, vehicles[0].addOns[2]`,
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/create-booking',
    {
      config: { public: true, limit: 'booking' },
      schema: {
        operationId: 'createBooking',
        summary: 'Book a service',
        security: [],
        tags: ['public'],
        headers: IdempotencyHeaders,
        body: CreateBookingBody,
        response: {
          201: Type.Object({
            message: Type.String({ description: 'For the customer, with the reference' }),
            id: Type.String({ format: 'uuid' }),
            reference: Type.String({ description: 'The booking reference to quote to staff' }),
            quote: QuoteSchema,
            booking: BookingSchema,
          }),
          409: ErrorSchema,
          422: ErrorSchema,
          ...errorResponses,
        },
      },
    },
    async (request, reply) =>
      sendOnce(reply, app.db, { scope: 'create-booking', payload: request.body }, async (trx) => {
        const booking = await createBooking(
          trx,
          { ...emptyBooking(), ...request.body },
          {
            now: app.now(),
            maxActivePerEmail: app.config.maxActiveBookingsPerEmail,
            mail: app.mail,
            onlineNewBookingsPerHour: app.config.onlineNewBookingsPerHour,
            emailConfirmation: app.config.emailConfirmation,
          },
        );
        request.log.info({ bookingId: booking.id, service: booking.service, date: booking.date }, 'booking created');
        return {
          status: 201,
          body: {
            message: bookingReceived(booking.reference, booking.awaiting_email_until ? app.config.emailConfirmation.withinMs / 60_000 : undefined),
            id: booking.id,
            reference: booking.reference,
            quote: toQuoteDto(booking),
            booking: toBookingDto(booking),
          },
        };
      }),
  );
};

export default route;
