/**
 * The e-mail outbox for staff: GET /v1/emails (newest first, paged, optionally one booking's),
 * GET /v1/emails/{id} (the preview's data), GET /v1/emails/{id}/html (the HTML part, for a
 * sandboxed iframe) and POST /v1/emails/{id}/resend (a failed e-mail, once).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { outboxEmail, outboxPage, resendEmail } from '../../../services/outbox.service.ts';
import { ErrorSchema, OutboxEmailDetailSchema, OutboxEmailSchema } from '#api/schemas.ts';
import { IdParams, staffErrorResponses, toOutboxEmailDto } from '../schemas.ts';

/**
 * The HTML part is the customer's content shown to staff: it may run nothing, load nothing but
 * inline styles and images, and is sandboxed (a unique origin: no cookies, no forms, no scripts).
 * Only this site's dashboard may frame it.
 */
const PREVIEW_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/emails',
    {
      schema: {
        operationId: 'listEmails',
        summary: 'E-mails of the outbox, newest first',
        tags: ['staff'],
        querystring: Type.Object(
          {
            bookingId: Type.Optional(Type.String({ format: 'uuid', description: 'Only the e-mails of this booking' })),
            cursor: Type.Optional(Type.String({ maxLength: 400 })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ data: Type.Array(OutboxEmailSchema), nextCursor: Type.Union([Type.String(), Type.Null()]) }), ...staffErrorResponses },
      },
    },
    async (request) => {
      const page = await outboxPage(app.db, { bookingId: request.query.bookingId, limit: request.query.limit ?? 20, cursor: request.query.cursor });
      return { data: page.emails.map(toOutboxEmailDto), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/emails/:id',
    {
      schema: {
        operationId: 'getEmail',
        summary: 'One e-mail: its headers, plain text and invitation',
        tags: ['staff'],
        params: IdParams,
        response: { 200: OutboxEmailDetailSchema, 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const email = await outboxEmail(app.db, request.params.id, app.mail);
      return {
        email: toOutboxEmailDto(email),
        replyTo: email.reply_to_address ? `${email.reply_to_name ?? ''} <${email.reply_to_address}>`.trim() : null,
        text: email.text_body,
        invitation: email.ics && email.ics_method ? { method: email.ics_method, ics: email.ics } : null,
      };
    },
  );

  app.get(
    '/emails/:id/html',
    {
      schema: {
        operationId: 'getEmailHtml',
        summary: 'The HTML part of one e-mail, for a sandboxed preview',
        tags: ['staff'],
        params: IdParams,
        produces: ['text/html'],
        response: { 200: Type.String(), 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const email = await outboxEmail(app.db, request.params.id, app.mail);
      return reply.type('text/html; charset=utf-8').header('content-security-policy', PREVIEW_CSP).send(email.html_body);
    },
  );

  app.post(
    '/emails/:id/resend',
    {
      schema: {
        operationId: 'resendEmail',
        summary: 'Send a failed e-mail again (once, however many clicks)',
        tags: ['staff'],
        params: IdParams,
        response: { 200: OutboxEmailSchema, 404: ErrorSchema, 409: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const email = await resendEmail(app.db, request.params.id, app.now(), app.mail);
      request.log.info({ outboxId: email.id, kind: email.kind, bookingId: email.booking_id ?? undefined }, 'e-mail queued again by staff');
      void app.mailer.wake();
      return toOutboxEmailDto(email);
    },
  );
};

export default route;
