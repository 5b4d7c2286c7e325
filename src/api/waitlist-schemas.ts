/**
 * The staff side of the waitlist (issue 43): TypeBox schemas for GET /v1/waitlist and
 * POST /v1/waitlist/{id}/offer, and their static types for the dashboard (which imports types only).
 */
import { Type, type Static } from 'typebox';
import { BookingSchema } from './schemas.ts';

export const WaitlistOfferSchema = Type.Object(
  {
    reference: Type.String({ description: "The offer's booking reference" }),
    time: Type.String({ description: 'HH:mm, in Auckland: the start offered' }),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'While the place is held (status offered): when the hold lapses; null once it has ended' }),
  },
  { description: 'The booking made for the entry when it was offered a place' },
);
export type WaitlistOfferDto = Static<typeof WaitlistOfferSchema>;

export const WaitlistEntrySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    date: Type.String({ format: 'date', description: 'YYYY-MM-DD, in Auckland: the date the customer waits for' }),
    part: Type.Union([Type.Literal('any'), Type.Literal('morning'), Type.Literal('afternoon')], { description: 'When in the day a start suits: before 12:00, from 12:00, or any' }),
    partLabel: Type.String({ description: 'The part of the day in words, as the customer chose it: "Morning (a start before 12:00)"' }),
    // Every status of WAITLIST_STATUSES (src/domain/waitlist.ts): the route's mapping does not compile without one.
    status: Type.Union(
      [
        Type.Literal('waiting'),
        Type.Literal('offered'),
        Type.Literal('booked'),
        Type.Literal('declined'),
        Type.Literal('lapsed'),
        Type.Literal('withdrawn'),
        Type.Literal('left'),
        Type.Literal('ended'),
      ],
      { description: 'waiting: for a place; offered: a place is held for the customer to confirm; booked: they confirmed it; declined, lapsed, withdrawn (by staff): the offer ended without them; left: they booked that date another way; ended: the date passed' },
    ),
    createdAt: Type.String({ format: 'date-time', description: 'When the customer joined: entries are served in this order' }),
    customer: Type.Object({ name: Type.String(), email: Type.String(), phone: Type.String() }),
    serviceType: Type.Union([Type.Literal('onsite'), Type.Literal('dropoff')], { description: 'On site (a van) or drop-off (a bay)' }),
    suburb: Type.String({ description: 'On site: where the van would go; empty for drop-off' }),
    job: Type.String({ description: 'The vehicles and their work, in words: "ABC123 (Small car): Deluxe Clean + Pet hair removal"' }),
    durationMinutes: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'How long the job takes; null when the catalogue no longer has its package' }),
    offeredBy: Type.Union([Type.String(), Type.Null()], { description: 'The member of staff who offered a place by hand; null when the engine offered it, or none was offered' }),
    offer: Type.Union([WaitlistOfferSchema, Type.Null()]),
    freeStarts: Type.Array(
      Type.Object({
        time: Type.String({ description: 'HH:mm, in Auckland' }),
        inPart: Type.Boolean({ description: 'Whether the start is in the part of the day the customer asked for' }),
      }),
      { description: 'A waiting entry: the starts at which its job fits on the date now, in its part of the day or not (an offer by hand may take any of them); empty otherwise' },
    ),
  },
  { description: "A customer on a date's waitlist" },
);
export type WaitlistEntryDto = Static<typeof WaitlistEntrySchema>;

export const WaitlistListSchema = Type.Object({
  date: Type.String({ format: 'date' }),
  waiting: Type.Integer({ minimum: 0, description: 'The entries still waiting for a place' }),
  data: Type.Array(WaitlistEntrySchema, { description: 'Every entry of the date, in order of joining' }),
});
export type WaitlistListDto = Static<typeof WaitlistListSchema>;

export const WaitlistOfferMadeSchema = Type.Object({
  entryId: Type.String({ format: 'uuid' }),
  booking: BookingSchema,
});
export type WaitlistOfferMadeDto = Static<typeof WaitlistOfferMadeSchema>;
