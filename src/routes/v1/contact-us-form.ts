/** POST /v1/contact-us-form: a message from the contact page (spec sections 5 and 7). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CONTACT_LIMITS } from '../../domain/contact-rules.ts';
import { MESSAGES } from '../../domain/messages.ts';
import { receiveContactMessage } from '../../services/contact.service.ts';
import { IdempotencyHeaders, sendOnce } from './idempotency.ts';
import { ErrorSchema } from '#api/schemas.ts';
import { errorResponses } from './schemas.ts';

export const ContactBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: CONTACT_LIMITS.name })),
    email: Type.Optional(Type.String({ maxLength: CONTACT_LIMITS.email })),
    phone: Type.Optional(Type.String({ maxLength: CONTACT_LIMITS.phone })),
    message: Type.Optional(Type.String({ maxLength: CONTACT_LIMITS.message })),
  },
  { additionalProperties: false },
);

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/contact-us-form',
    {
      config: { public: true, limit: 'contact' },
      schema: {
        operationId: 'sendContactMessage',
        summary: 'Send a message to the business',
        security: [],
        tags: ['public'],
        headers: IdempotencyHeaders,
        body: ContactBody,
        response: {
          201: Type.Object({ message: Type.String(), id: Type.String({ format: 'uuid' }) }),
          422: ErrorSchema,
          ...errorResponses,
        },
      },
    },
    async (request, reply) =>
      sendOnce(reply, app.db, { scope: 'contact-us-form', payload: request.body }, async (trx) => {
        const { name = '', email = '', phone = '', message = '' } = request.body;
        const saved = await receiveContactMessage(trx, { name, email, phone, message }, app.mail);
        request.log.info({ contactMessageId: saved.id }, 'contact message received');
        return { status: 201, body: { message: MESSAGES.contactReceived, id: saved.id } };
      }),
  );
};

export default route;
