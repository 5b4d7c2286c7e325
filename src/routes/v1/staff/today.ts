/**
 * The Today view's actions (issue 21): POST /v1/bookings/{id}/on-the-way { version, minutes }
 * e-mails the customer once that staff are on the way; POST /v1/bookings/{id}/started records
 * when the work began. The day's jobs themselves are GET /v1/schedule.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { markOnTheWay, markStarted } from '../../../services/today.service.ts';
import { answerBookingChange, bookingChangeResponses, IdParams } from '../schemas.ts';

const Version = Type.Integer({ minimum: 1, description: 'The version of the booking the action is based on' });

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/bookings/:id/on-the-way',
    {
      schema: {
        operationId: 'markOnTheWay',
        summary: 'Tell the customer (once, by e-mail) that staff are on the way, and when they expect to arrive',
        tags: ['staff'],
        params: IdParams,
        body: Type.Object(
          { version: Version, minutes: Type.Integer({ minimum: 1, maximum: 240, description: 'Minutes until arrival (the e-mail gives the time, to the next five minutes)' }) },
          { additionalProperties: false },
        ),
        response: bookingChangeResponses,
      },
    },
    async (request, reply) =>
      answerBookingChange(reply, request.log, async () => {
        const changed = await markOnTheWay(app.db, { id: request.params.id, version: request.body.version, minutes: request.body.minutes, by: request.staff?.name ?? 'Staff' }, app.mail);
        request.log.info({ bookingId: changed.booking.id }, 'on the way');
        return changed;
      }),
  );

  app.post(
    '/bookings/:id/started',
    {
      schema: {
        operationId: 'markStarted',
        summary: 'Record that the work on a job has started',
        tags: ['staff'],
        params: IdParams,
        body: Type.Object({ version: Version }, { additionalProperties: false }),
        response: bookingChangeResponses,
      },
    },
    async (request, reply) =>
      answerBookingChange(reply, request.log, async () => {
        const changed = await markStarted(app.db, { id: request.params.id, version: request.body.version, by: request.staff?.name ?? 'Staff' }, app.now());
        request.log.info({ bookingId: changed.booking.id }, 'job started');
        return changed;
      }),
  );
};

export default route;
