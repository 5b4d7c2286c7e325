/**
 * Backups' data shapes (issue 42): TypeBox schemas for /v1/backups, and their static types for the
 * dashboard's Backups panel (which imports types only).
 */
import { Type, type Static } from 'typebox';

export const BackupSchema = Type.Object({
  name: Type.String({ description: "The file's name in BACKUP_DIR: when it was taken (UTC) and its schema version" }),
  takenAt: Type.String({ format: 'date-time' }),
  sizeBytes: Type.Integer({ minimum: 0 }),
  schemaVersion: Type.String({ description: 'The last migration applied to the database backed up' }),
});
export type BackupDto = Static<typeof BackupSchema>;

export const BackupListSchema = Type.Object({
  backups: Type.Array(BackupSchema, { description: 'Newest first' }),
  enabled: Type.Boolean({ description: 'false: BACKUP_DIR is not set (a PostgreSQL server), so no backups are taken' }),
  everyHours: Type.Integer({ minimum: 0, description: 'BACKUP_EVERY_HOURS: the schedule (0: off)' }),
  keep: Type.Integer({ minimum: 0, description: 'BACKUP_KEEP: how many are kept (0: all)' }),
});
export type BackupListDto = Static<typeof BackupListSchema>;
