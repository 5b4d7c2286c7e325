/** GET /: the home page, with the confirmation a booking made without JavaScript is redirected to. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MESSAGES } from '../../domain/messages.ts';
import type { HomeState } from '#client/page-state.ts';

export const BOOKING_RECEIVED = 'received';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/',
    { schema: { hide: true, querystring: Type.Object({ booking: Type.Optional(Type.String({ maxLength: 20 })) }) } },
    (request, reply) => {
      const received = request.query.booking === BOOKING_RECEIVED;
      const state: HomeState = { notice: received ? MESSAGES.bookingCreated : null };
      return reply.page({ state, cacheKey: received ? BOOKING_RECEIVED : '' });
    },
  );
};

export default route;
