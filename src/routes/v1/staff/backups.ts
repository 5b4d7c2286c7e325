/**
 * Backups (issue 42), for the owner only: GET /v1/backups lists them, POST /v1/backups takes one
 * now, GET /v1/backups/{name} downloads one. A name must be a backup's exact name (the schema's
 * pattern), so no path can reach outside BACKUP_DIR.
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BackupListSchema, BackupSchema, type BackupDto } from '#api/backup-schemas.ts';
import { ErrorSchema } from '#api/schemas.ts';
import { AppError } from '../../../errors.ts';
import { backupsOff } from '../../../plugins/app/backups.ts';
import { BACKUP_NAME_PATTERN, type BackupFile } from '../../../services/backups.service.ts';
import { staffErrorResponses } from '../schemas.ts';

const OWNER_ONLY = 'Only the owner may call this: 403 for a member whose role is staff.';

const toDto = (file: BackupFile): BackupDto => ({ name: file.name, takenAt: file.takenAt.toISOString(), sizeBytes: file.sizeBytes, schemaVersion: file.schemaVersion });

const NameParams = Type.Object(
  { name: Type.String({ pattern: BACKUP_NAME_PATTERN, maxLength: 100, description: "A backup's name, as GET /v1/backups lists it" }) },
  { additionalProperties: false },
);

const noSuchBackup = () => new AppError(404, 'NOT_FOUND', 'No such backup');

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/backups',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'listBackups',
        summary: 'The backups in BACKUP_DIR, newest first, with the schedule',
        description: OWNER_ONLY,
        tags: ['staff'],
        response: { 200: BackupListSchema, ...staffErrorResponses },
      },
    },
    async () => ({
      backups: (await app.backups.list()).map(toDto),
      enabled: app.backups.dir !== undefined,
      everyHours: app.config.backup.everyMs / 3_600_000,
      keep: app.config.backup.keep,
    }),
  );

  app.post(
    '/backups',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'takeBackup',
        summary: 'Take a backup now',
        description: `${OWNER_ONLY} The whole database in one snapshot, while the site serves; then the oldest beyond BACKUP_KEEP are removed. 409 when backups are off (no BACKUP_DIR) or another instance is taking one.`,
        tags: ['staff'],
        response: { 201: BackupSchema, 409: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const file = await app.backups.takeNow();
      request.log.info({ backup: file.name, by: request.staff?.name }, 'backup taken on request');
      return reply.code(201).send(toDto(file));
    },
  );

  app.get(
    '/backups/:name',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'downloadBackup',
        summary: 'Download a backup file',
        description: `${OWNER_ONLY} The gzip file as it is in BACKUP_DIR (restore it with npm run restore). Each download is logged with who asked.`,
        tags: ['staff'],
        params: NameParams,
        produces: ['application/gzip'],
        response: { 200: { type: 'string', format: 'binary', description: 'The backup file' }, 404: ErrorSchema, 409: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const { dir } = app.backups;
      if (!dir) throw backupsOff();
      const file = (await app.backups.list()).find((f) => f.name === request.params.name);
      if (!file) throw noSuchBackup();
      request.log.info({ backup: file.name, by: request.staff?.name, memberId: request.staff?.memberId ?? null }, 'backup downloaded');
      // The 200's schema is a string for OpenAPI; Fastify sends the stream as the file is read.
      return reply
        .type('application/gzip')
        .header('content-length', file.sizeBytes)
        .header('content-disposition', `attachment; filename="${path.basename(file.name)}"`)
        .send(createReadStream(file.path) as never);
    },
  );
};

export default route;
