/**
 * Calendar feeds (issue 44), for the owner only: GET /v1/calendar-feeds lists the live ones,
 * POST /v1/calendar-feeds makes one for a van or bay (or a member of staff on it), replacing the one
 * before for the same van and person, and answers its address once; DELETE revokes one.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CalendarFeedListSchema, CreateCalendarFeedBody, CreatedCalendarFeedSchema, type CalendarFeedDto } from '#api/calendar-feed-schemas.ts';
import { ErrorSchema } from '#api/schemas.ts';
import { CALENDAR_FEED_MESSAGES } from '../../../domain/calendar-feed.ts';
import { liveFeeds } from '../../../db/calendar-feeds.repository.ts';
import { createFeed, revoke } from '../../../services/calendar-feeds.service.ts';
import { IdParams, staffErrorResponses } from '../schemas.ts';

const OWNER_ONLY = 'Only the owner may call this: 403 for a member whose role is staff.';

type FeedRow = Awaited<ReturnType<typeof liveFeeds>>[number];
const toDto = (row: FeedRow): CalendarFeedDto => ({
  id: row.id,
  resource: { id: row.resource_id, name: row.resource_name },
  staffMember: row.staff_member_id ? { id: row.staff_member_id, name: row.member_name ?? '' } : null,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
});

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/calendar-feeds',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'listCalendarFeeds',
        summary: 'The live calendar feeds, by van or bay',
        description: `${OWNER_ONLY} Their addresses are not kept, so not listed: make a new feed to see one again.`,
        tags: ['staff'],
        response: { 200: CalendarFeedListSchema, ...staffErrorResponses },
      },
    },
    async () => ({ data: (await liveFeeds(app.db)).map(toDto) }),
  );

  app.post(
    '/calendar-feeds',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'createCalendarFeed',
        summary: "Make a van's or bay's private calendar feed (or a member of staff's on it), replacing the one before",
        description: `${OWNER_ONLY} The feed (/calendar/{token}.ics) shows the van's jobs from 7 days back to 60 days ahead: the address, the customer's first name and phone, the job's lines; no manage link.`,
        tags: ['staff'],
        body: CreateCalendarFeedBody,
        response: { 201: CreatedCalendarFeedSchema, 404: ErrorSchema, 409: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const { feed, url } = await createFeed(app.db, request.body, request.staff?.name ?? 'Owner', app.mail.origin, app.now());
      const row = (await liveFeeds(app.db)).find((f) => f.id === feed.id)!;
      request.log.info({ feedId: feed.id, resourceId: feed.resource_id }, 'calendar feed made');
      return reply.code(201).send({ ...toDto(row), url, message: CALENDAR_FEED_MESSAGES.created });
    },
  );

  app.delete(
    '/calendar-feeds/:id',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'revokeCalendarFeed',
        summary: 'Revoke a calendar feed: its address answers 404 from now on',
        description: OWNER_ONLY,
        tags: ['staff'],
        params: IdParams,
        response: { 204: Type.Null({ description: 'Revoked' }), 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      await revoke(app.db, request.params.id, app.now());
      request.log.info({ feedId: request.params.id }, 'calendar feed revoked');
      return reply.code(204).send(null);
    },
  );
};

export default route;
