/** The shapes of the calendar feeds' API (issue 44), shared by the server and the dashboard. */
import { Type, type Static } from 'typebox';

export const CalendarFeedSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  resource: Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }),
  staffMember: Type.Union([Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }), Type.Null()], { description: 'The person the feed is for, or null: the van or bay itself' }),
  createdBy: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type CalendarFeedDto = Static<typeof CalendarFeedSchema>;

export const CalendarFeedListSchema = Type.Object({ data: Type.Array(CalendarFeedSchema) });

export const CreatedCalendarFeedSchema = Type.Object({
  ...CalendarFeedSchema.properties,
  url: Type.String({ format: 'uri', description: 'The subscription address: shown this once (only its token\'s hash is kept)' }),
  message: Type.String(),
});
export type CreatedCalendarFeedDto = Static<typeof CreatedCalendarFeedSchema>;

export const CreateCalendarFeedBody = Type.Object(
  {
    resourceId: Type.String({ format: 'uuid', description: 'The van or bay whose jobs the feed shows' }),
    staffMemberId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'The member of staff it is for (their feed stops when they are disabled); absent: the van itself' })),
  },
  { additionalProperties: false },
);
