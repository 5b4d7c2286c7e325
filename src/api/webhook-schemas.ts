/**
 * Webhooks' data shapes (issue 44): TypeBox schemas for /v1/webhooks, and their static types for
 * the dashboard's Webhooks panel (which imports types only).
 */
import { Type, type Static } from 'typebox';
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_EVENTS, WEBHOOK_URL_MAX } from '../domain/webhooks.ts';

export const WebhookEventSchema = Type.Union(
  [
    Type.Literal('booking.created'),
    Type.Literal('booking.confirmed'),
    Type.Literal('booking.moved'),
    Type.Literal('booking.cancelled'),
    Type.Literal('booking.completed'),
    Type.Literal('payment.recorded'),
    Type.Literal('customer.erased'),
  ],
  { description: 'booking.created, booking.confirmed, booking.moved, booking.cancelled, booking.completed: data.booking as the staff API shows it (moved: data.from too; a lapse: booking.cancelled with data.lapsed); payment.recorded: data.booking and data.payment; customer.erased: data.bookings (ids and references), data.reason, data.erasedAt' },
);

const Events = Type.Array(WebhookEventSchema, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true });
const Description = Type.String({ maxLength: WEBHOOK_DESCRIPTION_MAX });

export const WebhookEndpointSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  description: Type.String(),
  events: Type.Array(WebhookEventSchema),
  enabled: Type.Boolean(),
  disabledReason: Type.Union([Type.String(), Type.Null()], { description: 'Why it is off: by the owner, or after failing WEBHOOK_DISABLE_AFTER_DAYS' }),
  failingSince: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The first failed attempt since the last delivered one' }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type WebhookEndpointDto = Static<typeof WebhookEndpointSchema>;

export const WebhookEndpointListSchema = Type.Object({ data: Type.Array(WebhookEndpointSchema) });

export const CreateWebhookEndpointBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: WEBHOOK_URL_MAX, description: 'https in production; its host must resolve to public addresses only' }),
    events: Events,
    description: Type.Optional(Description),
  },
  { additionalProperties: false },
);
export type CreateWebhookEndpointInput = Static<typeof CreateWebhookEndpointBody>;

export const UpdateWebhookEndpointBody = Type.Object(
  { events: Type.Optional(Events), description: Type.Optional(Description), enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);

export const WebhookSecretSchema = Type.Object({
  ...WebhookEndpointSchema.properties,
  secret: Type.String({ pattern: '^whsec_', description: 'The signing secret (Standard Webhooks): shown this once' }),
  message: Type.String(),
});
export type WebhookSecretDto = Static<typeof WebhookSecretSchema>;

export const WebhookDeliverySchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  endpointId: Type.String({ format: 'uuid' }),
  event: WebhookEventSchema,
  messageId: Type.String({ description: 'The webhook-id header, the same on every attempt and resend' }),
  bookingId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  status: Type.Union([Type.Literal('queued'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer({ minimum: 0 }),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'While queued' }),
  lastStatus: Type.Union([Type.Integer(), Type.Null()], { description: "The last answer's HTTP status; null when none came" }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  lastAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type WebhookDeliveryDto = Static<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = Type.Object({ data: Type.Array(WebhookDeliverySchema, { description: 'The latest 50, newest first' }) });
