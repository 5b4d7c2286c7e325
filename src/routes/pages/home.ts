/**
 * GET /: the home page, with the confirmation a booking made without JavaScript is redirected to
 * (`/?booking=received&ref=XXXXXXXX`). The reference is checked to be one's shape and only echoed:
 * nothing is looked up, so the page tells a visitor nothing they did not put in the URL. A page
 * with a reference is rendered for that request alone, never cached per reference.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { isBookingReference } from '../../domain/booking-reference.ts';
import { MESSAGES, bookingReceived } from '../../domain/messages.ts';
import type { HomeState } from '#client/page-state.ts';

export const BOOKING_RECEIVED = 'received';

/** Where a booking made without JavaScript lands. */
export function bookingReceivedUrl(reference: string, awaitingConfirmation = false): string {
  return `/?booking=${BOOKING_RECEIVED}&ref=${encodeURIComponent(reference)}${awaitingConfirmation ? '&confirm=email' : ''}`;
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ booking: Type.Optional(Type.String({ maxLength: 20 })), ref: Type.Optional(Type.String({ maxLength: 20 })), confirm: Type.Optional(Type.String({ maxLength: 20 })) }),
      },
    },
    (request, reply) => {
      const received = request.query.booking === BOOKING_RECEIVED;
      const reference = request.query.ref;
      if (received && reference !== undefined && isBookingReference(reference)) {
        const within = request.query.confirm === 'email' ? app.config.emailConfirmation.withinMs / 60_000 : undefined;
        return reply.page({ state: { notice: bookingReceived(reference, within) } satisfies HomeState, cacheKey: false });
      }
      const state: HomeState = { notice: received ? MESSAGES.bookingCreated : null };
      return reply.page({ state, cacheKey: received ? BOOKING_RECEIVED : '', everyone: !received });
    },
  );
};

export default route;
