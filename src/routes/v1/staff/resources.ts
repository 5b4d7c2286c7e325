/**
 * GET /v1/resources, POST /v1/resources, PATCH /v1/resources/{id}: the vans (on-site) and bays
 * (drop-off) jobs are placed on. Staff add, rename, reorder, deactivate and reactivate them.
 * Deactivating one that holds upcoming jobs is refused (409) with those jobs, until they are moved.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { addResource, changeResource, RESOURCE_MESSAGES, resources, ResourceHoldsJobsError } from '../../../services/resources.service.ts';
import { BookingSchema, ErrorSchema, ResourceSchema } from '#api/schemas.ts';
import { IdParams, staffErrorResponses, toBookingDto, toResourceDto } from '../schemas.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/resources',
    {
      schema: {
        operationId: 'listResources',
        summary: 'The vans and bays, active or not, in schedule order',
        tags: ['staff'],
        response: { 200: Type.Object({ data: Type.Array(ResourceSchema) }), ...staffErrorResponses },
      },
    },
    async () => ({ data: (await resources(app.db)).map(toResourceDto) }),
  );

  app.post(
    '/resources',
    {
      schema: {
        operationId: 'createResource',
        summary: 'Add a van (onsite) or a bay (dropoff), at the end of the order',
        tags: ['staff'],
        body: Type.Object(
          {
            name: Type.String({ maxLength: 200, description: '1 to 40 characters, unique in any case' }),
            kind: Type.String({ maxLength: 20, description: 'onsite or dropoff' }),
          },
          { additionalProperties: false },
        ),
        response: { 201: ResourceSchema, 409: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const resource = await addResource(app.db, request.body);
      request.log.info({ resourceId: resource.id, kind: resource.kind }, 'resource added');
      return reply.code(201).send(toResourceDto(resource));
    },
  );

  app.patch(
    '/resources/:id',
    {
      schema: {
        operationId: 'updateResource',
        summary: 'Rename, reorder, deactivate or reactivate a van or bay',
        description: 'Deactivating one that holds jobs from today on is refused (409) with those jobs in `bookings`; move them first.',
        tags: ['staff'],
        params: IdParams,
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ maxLength: 200 })),
            active: Type.Optional(Type.Boolean()),
            position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: ResourceSchema,
          404: ErrorSchema,
          409: Type.Object({ message: Type.String(), errors: ErrorSchema.properties.errors, bookings: Type.Optional(Type.Array(BookingSchema)) }),
          ...staffErrorResponses,
        },
      },
    },
    async (request, reply) => {
      try {
        const resource = await changeResource(app.db, request.params.id, request.body, app.now());
        request.log.info({ resourceId: resource.id, changes: Object.keys(request.body) }, 'resource changed');
        return toResourceDto(resource);
      } catch (error) {
        if (!(error instanceof ResourceHoldsJobsError)) throw error;
        request.log.info({ resourceId: request.params.id, jobs: error.bookings.length }, 'resource deactivation refused: it holds jobs');
        return reply.code(409).send({
          message: error.message,
          errors: [{ field: 'active', message: RESOURCE_MESSAGES.holdsJobs }],
          bookings: error.bookings.map(toBookingDto),
        });
      }
    },
  );
};

export default route;
