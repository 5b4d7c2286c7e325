/**
 * The staff side of the waitlist (issue 43): the day view lists a date's waitlist (every entry in
 * order of joining, with the customer, the job in words, the offer made, and for an entry still
 * waiting the starts at which its job fits now), and staff offer a place by hand at one of them.
 * The offer goes through the waitlist service (src/services/waitlist.service.ts) as the engine's
 * own do: a booking in status 'offered', held for WAITLIST_HOLD_MINUTES, with the "a time opened
 * up" e-mail. Withdrawing an offer is the booking's ordinary cancellation.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorSchema } from '#api/schemas.ts';
import { WaitlistListSchema, WaitlistOfferMadeSchema, type WaitlistEntryDto } from '#api/waitlist-schemas.ts';
import { emptyBooking, jobOf, type BookingInput } from '../../../domain/booking-rules.ts';
import { jobLines, linesMinutes } from '../../../domain/job.ts';
import { jobText } from '../../../domain/vehicle-text.ts';
import { isWaitlistPart, PART_LABELS, startInPart, WAITLIST_STATUSES, type WaitlistStatus } from '../../../domain/waitlist.ts';
import { entriesOn } from '../../../db/waitlist.repository.ts';
import { fittingStarts, offerByStaff } from '../../../services/waitlist.service.ts';
import { DateParam } from '../availability.ts';
import { IdParams, staffErrorResponses, toBookingDto } from '../schemas.ts';

type EntryRow = Awaited<ReturnType<typeof entriesOn>>[number];

const statusOf = (value: string): WaitlistStatus => ((WAITLIST_STATUSES as readonly string[]).includes(value) ? (value as WaitlistStatus) : 'ended');
const text = (value: unknown) => (typeof value === 'string' ? value : '');

function toWaitlistEntryDto(row: EntryRow, freeStarts: string[]): WaitlistEntryDto {
  const part = isWaitlistPart(row.part) ? row.part : 'any';
  const request: BookingInput = { ...emptyBooking(), ...(row.request as Partial<BookingInput>) };
  const { vehicles } = jobOf(request);
  const lines = jobLines(vehicles);
  const onsite = request.serviceType !== 'dropoff';
  return {
    id: row.id,
    date: row.date,
    part,
    partLabel: PART_LABELS[part],
    status: statusOf(row.status),
    createdAt: row.created_at.toISOString(),
    customer: { name: text(request.name), email: row.email, phone: text(request.phone) },
    serviceType: onsite ? 'onsite' : 'dropoff',
    suburb: onsite ? text(request.suburb) : '',
    job: jobText(vehicles),
    durationMinutes: lines ? linesMinutes(lines) : null,
    offeredBy: row.offered_by,
    offer: row.reference && row.time ? { reference: row.reference, time: row.time, expiresAt: row.offer_expires_at?.toISOString() ?? null } : null,
    freeStarts: freeStarts.map((time) => ({ time, inPart: startInPart(part, time) })),
  };
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/waitlist',
    {
      schema: {
        operationId: 'listWaitlist',
        summary: "A date's waitlist: every entry in order of joining, with its offer and, while it waits, the starts that fit its job",
        tags: ['staff'],
        querystring: Type.Object({ date: DateParam('The date') }, { additionalProperties: false }),
        response: { 200: WaitlistListSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const { date } = request.query;
      const options = app.waitlistOptions();
      const rows = await entriesOn(app.db, date);
      const data: WaitlistEntryDto[] = [];
      for (const row of rows) data.push(toWaitlistEntryDto(row, row.status === 'waiting' ? await fittingStarts(app.db, row, options) : []));
      return { date, waiting: data.filter((entry) => entry.status === 'waiting').length, data };
    },
  );

  app.post(
    '/waitlist/:id/offer',
    {
      schema: {
        operationId: 'offerWaitlistPlace',
        summary: 'Offer a waiting entry a place by hand, at a start that fits its job',
        description:
          'As the engine offers a freed place: a booking in status `offered` holding its van or bay for WAITLIST_HOLD_MINUTES, with the "a time opened up" e-mail for the customer to confirm. Any start that fits, in the entry\'s part of the day or not. 400: not a start time. 404: no such entry. 409: the entry is no longer waiting, the job does not fit at that start, or the customer holds as many upcoming bookings as they may.',
        tags: ['staff'],
        params: IdParams,
        body: Type.Object({ time: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:mm, in Auckland' }) }, { additionalProperties: false }),
        response: { 201: WaitlistOfferMadeSchema, 404: ErrorSchema, 409: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const offer = await offerByStaff(app.db, request.params.id, request.body.time, request.staff?.name ?? 'Staff', app.waitlistOptions());
      request.log.info({ waitlistEntryId: offer.entryId, bookingId: offer.booking.id }, 'waitlist place offered by staff');
      return reply.code(201).send({ entryId: offer.entryId, booking: toBookingDto(offer.booking) });
    },
  );
};

export default route;
