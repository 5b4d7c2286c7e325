/**
 * POST /v1/bookings: a booking taken by staff for a customer who phones or walks in (issue 21).
 * The wizard's fields, rules and scheduling engine, except: the e-mail is optional (without one no
 * e-mail is queued; the phone is required as always), staff may name the van or bay, may adjust
 * the price (cents, with a reason) and may book from the next whole hour today. The booking is
 * confirmed at once and records who took it. An Idempotency-Key makes a retry safe, as for
 * POST /v1/create-booking.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { emptyBooking } from '../../../domain/booking-rules.ts';
import { ADJUSTMENT_MAX_CENTS, ADJUSTMENT_REASON_MAX, staffBookingTaken } from '../../../domain/staff-booking-rules.ts';
import { createBooking } from '../../../services/booking.service.ts';
import { BookingSchema, ErrorSchema, QuoteSchema } from '#api/schemas.ts';
import { CreateBookingBody } from '../create-booking.ts';
import { IdempotencyHeaders, sendOnce } from '../idempotency.ts';
import { staffErrorResponses, toBookingDto, toQuoteDto } from '../schemas.ts';

export const PriceAdjustmentFields = {
  priceAdjustmentCents: Type.Optional(
    Type.Integer({
      minimum: -ADJUSTMENT_MAX_CENTS,
      maximum: ADJUSTMENT_MAX_CENTS,
      description: 'Added to the total, in cents (negative: taken off); 0 or absent: none. Needs priceAdjustmentReason.',
    }),
  ),
  priceAdjustmentReason: Type.Optional(Type.String({ maxLength: ADJUSTMENT_REASON_MAX, description: 'Why the price is adjusted (shown to the customer with the total)' })),
};

const StaffBookingBody = Type.Object(
  {
    ...CreateBookingBody.properties,
    resourceId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: "A van or bay of the job's kind; absent or null: the schedule chooses" })),
    ...PriceAdjustmentFields,
  },
  { additionalProperties: false },
);

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/bookings',
    {
      schema: {
        operationId: 'createStaffBooking',
        summary: 'Take a booking for a customer who phones or walks in (staff)',
        description:
          'The create-booking payload, with the e-mail optional (without one no e-mail is queued; the phone is always required), from the next whole hour today (Pacific/Auckland), ' +
          'an optional van or bay (resourceId) and an optional price adjustment with its reason. The booking is confirmed at once; source is staff and createdBy the signed-in name. ' +
          'A start that does not fit, or a van or bay that is busy, is 409 with the reason.',
        tags: ['staff'],
        headers: IdempotencyHeaders,
        body: StaffBookingBody,
        response: {
          201: Type.Object({
            message: Type.String(),
            id: Type.String({ format: 'uuid' }),
            reference: Type.String(),
            quote: QuoteSchema,
            booking: BookingSchema,
          }),
          409: ErrorSchema,
          422: ErrorSchema,
          ...staffErrorResponses,
        },
      },
    },
    async (request, reply) =>
      sendOnce(reply, app.db, { scope: 'staff-create-booking', payload: request.body }, async (trx) => {
        const { resourceId, priceAdjustmentCents, priceAdjustmentReason, ...fields } = request.body;
        const by = request.staff?.name ?? 'Staff';
        const booking = await createBooking(
          trx,
          { ...emptyBooking(), ...fields },
          {
            now: app.now(),
            maxActivePerEmail: app.config.maxActiveBookingsPerEmail,
            mail: app.mail,
            source: 'staff',
            staff: {
              by,
              ...(resourceId ? { resourceId } : {}),
              priceAdjustment: priceAdjustmentCents ? { cents: priceAdjustmentCents, reason: (priceAdjustmentReason ?? '').trim() } : null,
            },
          },
        );
        request.log.info({ bookingId: booking.id, service: booking.service, date: booking.date, by }, 'booking taken by staff');
        return {
          status: 201,
          body: { message: staffBookingTaken(booking.reference), id: booking.id, reference: booking.reference, quote: toQuoteDto(booking), booking: toBookingDto(booking) },
        };
      }),
  );
};

export default route;
