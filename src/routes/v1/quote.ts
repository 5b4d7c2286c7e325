/**
 * POST /v1/quote: what a booking would cost, for the wizard's step 3. It answers whether an
 * e-mail has booked before (the discount), so it has a rate limit of its own: generous for a
 * customer typing, too tight to test addresses in bulk.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { emptyBooking } from '../../domain/booking-rules.ts';
import { quoteBooking } from '../../services/quote.service.ts';
import { CreateBookingBody } from './create-booking.ts';
import { QuoteSchema } from '#api/schemas.ts';
import { errorResponses } from './schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/quote',
    {
      config: { public: true, limit: 'quote' },
      schema: {
        operationId: 'createQuote',
        summary: 'Price a booking',
        security: [],
        description:
          'Takes the create-booking payload; only the service choice is required (service, vehicleType or selectedVehicleType, and coatingType for Ceramic Coating). ' +
          'On site (serviceType onsite, the default), travelFeeCents is the travel fee of the zone of postalCode (without one, of the service centre\'s own zone; a postcode in no zone is a 400 naming postalCode); the discount never applies to it. ' +
          'With an e-mail address, the 15% first-service discount applies when the customer has no booking that is not cancelled: none under that address compared in its canonical form (trimmed, lower case, a +tag removed, dots ignored at gmail.com, googlemail.com being gmail.com) nor, when a phone is given, under that number in its NZ national form (digits only, +64 as 0).',
        tags: ['public'],
        body: CreateBookingBody,
        response: { 200: QuoteSchema, ...errorResponses },
      },
    },
    async (request) => quoteBooking(app.db, { ...emptyBooking(), ...request.body }, app.config.business),
  );
};

export default route;
