/**
 * Webhooks (issue 44), for the owner only: endpoints registered, changed (events, description, on
 * or off), deleted; their secret answered once at creation and at each rotation; their latest
 * deliveries listed, and one resent.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  CreateWebhookEndpointBody,
  UpdateWebhookEndpointBody,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookSecretSchema,
  type WebhookDeliveryDto,
  type WebhookEndpointDto,
} from '#api/webhook-schemas.ts';
import { ErrorSchema } from '#api/schemas.ts';
import type { WebhookDeliverySummary, WebhookEndpointSummary } from '../../../db/webhooks.repository.ts';
import { WEBHOOK_MESSAGES, type WebhookDeliveryStatus, type WebhookEvent } from '../../../domain/webhooks.ts';
import { changeEndpoint, createEndpoint, deliveriesOf, listEndpoints, removeEndpoint, resendDelivery, rotateSecret } from '../../../services/webhooks.service.ts';
import { IdParams, staffErrorResponses } from '../schemas.ts';

const OWNER_ONLY = 'Only the owner may call this: 403 for a member whose role is staff.';

const toEndpointDto = (row: WebhookEndpointSummary): WebhookEndpointDto => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events as WebhookEvent[],
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  failingSince: row.failing_since?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
});

const toDeliveryDto = (row: WebhookDeliverySummary): WebhookDeliveryDto => ({
  id: row.id,
  endpointId: row.endpoint_id,
  event: row.event as WebhookEvent,
  messageId: row.message_id,
  bookingId: row.booking_id,
  status: row.status as WebhookDeliveryStatus,
  attempts: row.attempts,
  nextAttemptAt: row.status === 'queued' ? row.next_attempt_at.toISOString() : null,
  lastStatus: row.last_status,
  lastError: row.last_error,
  lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
  deliveredAt: row.delivered_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
});

const route: FastifyPluginAsyncTypebox = async (app) => {
  const settings = app.config.webhooks;

  app.get(
    '/webhooks',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'listWebhookEndpoints',
        summary: 'The webhook endpoints (without their secrets)',
        description: OWNER_ONLY,
        tags: ['staff'],
        response: { 200: WebhookEndpointListSchema, ...staffErrorResponses },
      },
    },
    async () => ({ data: (await listEndpoints(app.db)).map(toEndpointDto) }),
  );

  app.post(
    '/webhooks',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint; its signing secret is answered this once',
        description: `${OWNER_ONLY} Each delivery is signed as the Standard Webhooks specification says (webhook-id, webhook-timestamp, webhook-signature v1). The URL must be https in production, and its host must resolve to public addresses only (400 otherwise).`,
        tags: ['staff'],
        body: CreateWebhookEndpointBody,
        response: { 201: WebhookSecretSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await createEndpoint(app.db, request.body, settings);
      request.log.info({ endpointId: endpoint.id, events: endpoint.events }, 'webhook endpoint registered');
      return reply.code(201).send({ ...toEndpointDto(endpoint), secret, message: WEBHOOK_MESSAGES.created });
    },
  );

  app.patch(
    '/webhooks/:id',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'updateWebhookEndpoint',
        summary: "Change an endpoint's events or description, or turn it off or on",
        description: `${OWNER_ONLY} Turned on again, its failing spell starts afresh; deliveries queued while it was off are sent.`,
        tags: ['staff'],
        params: IdParams,
        body: UpdateWebhookEndpointBody,
        response: { 200: WebhookEndpointSchema, 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const endpoint = await changeEndpoint(app.db, request.params.id, request.body, app.now());
      request.log.info({ endpointId: endpoint.id, enabled: endpoint.enabled }, 'webhook endpoint changed');
      return toEndpointDto(endpoint);
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete an endpoint and its deliveries',
        description: OWNER_ONLY,
        tags: ['staff'],
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      await removeEndpoint(app.db, request.params.id);
      request.log.info({ endpointId: request.params.id }, 'webhook endpoint deleted');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/secret',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: "Rotate an endpoint's signing secret; the new one is answered this once",
        description: `${OWNER_ONLY} Deliveries from now on, retries included, are signed with the new secret.`,
        tags: ['staff'],
        params: IdParams,
        response: { 200: WebhookSecretSchema, 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const { endpoint, secret } = await rotateSecret(app.db, request.params.id, app.now());
      request.log.info({ endpointId: endpoint.id }, 'webhook secret rotated');
      return { ...toEndpointDto(endpoint), secret, message: WEBHOOK_MESSAGES.rotated };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "An endpoint's latest deliveries: status, attempts, the last answer",
        description: OWNER_ONLY,
        tags: ['staff'],
        params: IdParams,
        response: { 200: WebhookDeliveryListSchema, 404: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => ({ data: (await deliveriesOf(app.db, request.params.id)).map(toDeliveryDto) }),
  );

  app.post(
    '/webhooks/deliveries/:id/resend',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'resendWebhookDelivery',
        summary: 'Send a delivered or failed delivery again (the same webhook-id and payload)',
        description: `${OWNER_ONLY} 409 while it is still queued.`,
        tags: ['staff'],
        params: IdParams,
        response: { 200: WebhookDeliverySchema, 404: ErrorSchema, 409: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const delivery = await resendDelivery(app.db, request.params.id, app.now());
      request.log.info({ deliveryId: delivery.id }, 'webhook delivery resent');
      void app.webhooks.sendDue();
      return toDeliveryDto(delivery);
    },
  );
};

export default route;
