/** GET /v1/contact-messages and POST /v1/contact-messages/{id}/read: the contact-form inbox. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { inboxPage, markMessage } from '../../../services/inbox.service.ts';
import { ContactMessageSchema, ErrorSchema } from '#api/schemas.ts';
import { IdParams, staffErrorResponses, toContactMessageDto } from '../schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/contact-messages',
    {
      schema: {
        operationId: 'listContactMessages',
        summary: 'Messages from the contact form, newest first',
        tags: ['staff'],
        querystring: Type.Object(
          {
            unread: Type.Optional(Type.Boolean({ description: 'Only unread messages' })),
            cursor: Type.Optional(Type.String({ maxLength: 400 })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ data: Type.Array(ContactMessageSchema), unread: Type.Integer(), nextCursor: Type.Union([Type.String(), Type.Null()]) }),
          ...staffErrorResponses,
        },
      },
    },
    async (request) => {
      const page = await inboxPage(app.db, { unreadOnly: request.query.unread ?? false, limit: request.query.limit ?? 20, cursor: request.query.cursor });
      return { data: page.messages.map(toContactMessageDto), unread: page.unread, nextCursor: page.nextCursor };
    },
  );

  app.post(
    '/contact-messages/:id/read',
    {
      schema: {
        operationId: 'markContactMessageRead',
        summary: 'Mark a message read or unread',
        tags: ['staff'],
        params: IdParams,
        body: Type.Object({ read: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: ContactMessageSchema, 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const message = await markMessage(app.db, request.params.id, request.body.read);
      request.log.info({ contactMessageId: message.id, read: request.body.read }, 'contact message marked');
      return toContactMessageDto(message);
    },
  );
};

export default route;
