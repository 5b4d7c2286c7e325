/**
 * GET /v1/availability/staff: GET /v1/availability as staff see it (issue 21): the same engine and
 * answer, but today is bookable from the next whole hour (staffBookingWindow) where the online
 * wizard starts tomorrow. With `bookingId` (the edit dialog), that booking's own place is free.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { staffBookingWindow } from '../../../domain/booking-dates.ts';
import { availabilityOn, jobQuery } from '../../../services/scheduling.service.ts';
import { DateParam, JobParams, SlotSchema } from '../availability.ts';
import { staffErrorResponses } from '../schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/availability/staff',
    {
      schema: {
        operationId: 'getStaffAvailability',
        summary: "A date's start times for a job as staff may book them (today from the next whole hour)",
        tags: ['staff'],
        querystring: Type.Object(
          {
            date: DateParam('The date'),
            ...JobParams,
            bookingId: Type.Optional(Type.String({ format: 'uuid', description: 'A booking being edited: the place it holds counts as free' })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            date: Type.String({ format: 'date' }),
            durationMinutes: Type.Integer({ minimum: 1 }),
            slots: Type.Array(SlotSchema),
          }),
          ...staffErrorResponses,
        },
      },
    },
    async (request) => {
      const { date, bookingId, ...params } = request.query;
      const now = app.now();
      return availabilityOn(app.db, date, { ...jobQuery(params, app.config.business), ...(bookingId ? { bookingId } : {}) }, now, staffBookingWindow(now));
    },
  );
};

export default route;
