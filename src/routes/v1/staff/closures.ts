/**
 * GET /v1/closures, POST /v1/closures, DELETE /v1/closures/{id}: staff close a whole date, an hour
 * or a range of hours (for both kinds, one kind or one van or bay) with a reason, and reopen it. Closing never cancels a booking: the answer lists the ones
 * still holding places in what was closed, for staff to decide on.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CLOSURE_REASON_MAX } from '../../../domain/schedule.ts';
import { CLOSURE_FROM_TIMES, CLOSURE_MESSAGES, hourAfter } from '../../../domain/closure-rules.ts';
import { validationFailed } from '../../../errors.ts';
import { closeSlots, listClosures, reopenSlots } from '../../../services/schedule.service.ts';
import { BookingSchema, ClosureSchema, ErrorSchema } from '#api/schemas.ts';
import { IdParams, staffErrorResponses, toBookingDto, toClosureDto } from '../schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/closures',
    {
      schema: {
        operationId: 'listClosures',
        summary: 'Closed dates and slots in a range of dates, in schedule order',
        tags: ['staff'],
        querystring: Type.Object(
          {
            from: Type.Optional(Type.String({ format: 'date', description: 'First date (default: today in Auckland)' })),
            to: Type.Optional(Type.String({ format: 'date', description: 'Last date, at most 400 days after the first (default: 12 months ahead)' })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            from: Type.String({ format: 'date' }),
            to: Type.String({ format: 'date' }),
            data: Type.Array(
              Type.Object({ ...ClosureSchema.properties, activeBookings: Type.Integer({ description: 'Bookings still holding places in it (not cancelled)' }) }),
            ),
          }),
          ...staffErrorResponses,
        },
      },
    },
    async (request) => {
      const { from, to, closures } = await listClosures(app.db, request.query, app.now());
      return { from, to, data: closures.map((row) => ({ ...toClosureDto(row), activeBookings: Number(row.active_bookings) })) };
    },
  );

  app.post(
    '/closures',
    {
      schema: {
        operationId: 'createClosure',
        summary: 'Close a whole date, one hour or a range of hours, for both kinds, one kind or one van or bay',
        tags: ['staff'],
        body: Type.Object(
          {
            date: Type.String({ maxLength: 10, description: 'YYYY-MM-DD, from today (Auckland) up to 12 months ahead' }),
            time: Type.Optional(Type.Union([Type.String({ maxLength: 5 }), Type.Null()], { description: 'HH:00: closes that one hour (the same as from = time, to = the hour after)' })),
            from: Type.Optional(Type.Union([Type.String({ maxLength: 5 }), Type.Null()], { description: 'HH:00 the closure starts; with `to`. Without time, from and to: the whole date' })),
            to: Type.Optional(Type.Union([Type.String({ maxLength: 5 }), Type.Null()], { description: 'HH:00 (24:00: midnight) the closure ends' })),
            kind: Type.Optional(Type.Union([Type.String({ maxLength: 10 }), Type.Null()], { description: 'onsite or dropoff: every resource of that kind; absent or null: both kinds' })),
            resourceId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'One van or bay only (then no kind)' })),
            reason: Type.String({ maxLength: CLOSURE_REASON_MAX + 50, description: `1 to ${CLOSURE_REASON_MAX} characters, for staff only` }),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({
            ...ClosureSchema.properties,
            affectedBookings: Type.Array(BookingSchema, { description: 'Bookings still holding places in what was closed; none is cancelled' }),
          }),
          409: ErrorSchema,
          ...staffErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { date, time, from, to, kind, resourceId, reason } = request.body;
      // `time` (one hour, the name before ranges) is checked here: the rule itself knows from-to ranges.
      if (typeof time === 'string' && (from != null || to != null)) {
        throw validationFailed([{ field: 'time', message: 'Please give either one time or a from-to range, not both' }]);
      }
      if (typeof time === 'string' && !CLOSURE_FROM_TIMES.includes(time)) throw validationFailed([{ field: 'time', message: CLOSURE_MESSAGES.timeInvalid }]);
      const range = typeof time === 'string' ? { from: time, to: hourAfter(time) } : { from: from ?? null, to: to ?? null };
      const { closure, affected } = await closeSlots(
        app.db,
        { date, ...range, kind: kind ?? null, resourceId: resourceId ?? null, reason },
        { now: app.now(), by: request.staff?.name ?? 'Staff' },
      );
      request.log.info({ closureId: closure.id, date: closure.date, from: closure.from_time, to: closure.to_time, affected: affected.length }, 'closure created');
      return reply.code(201).send({ ...toClosureDto(closure), affectedBookings: affected.map(toBookingDto) });
    },
  );

  app.delete(
    '/closures/:id',
    {
      schema: {
        operationId: 'deleteClosure',
        summary: 'Reopen a closed date or slot',
        tags: ['staff'],
        params: IdParams,
        response: { 204: Type.Null(), 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const date = await reopenSlots(app.db, request.params.id);
      request.log.info({ closureId: request.params.id }, 'closure removed');
      // The places it reopened go to the date's waitlist (issue 43).
      await app.offerFreedPlaces([date]);
      return reply.code(204).send(null);
    },
  );
};

export default route;
