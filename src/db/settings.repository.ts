/** Key/value settings kept in the database (the stored admin password hash, the weekly closed days). */
import type { Kysely } from 'kysely';
import type { Database } from './database.ts';

type Db = Kysely<Database>;

export const ADMIN_PASSWORD_HASH_KEY = 'admin_password_hash';
/** The hash of ADMIN_PASSWORD made at an earlier start, reused while it still matches. */
export const ENV_PASSWORD_HASH_KEY = 'admin_password_env_hash';

/** A JSON array of weekday names (see src/domain/availability.ts); absent means open every day. */
export const WEEKLY_CLOSED_DAYS_KEY = 'weekly_closed_days';

/** The least gap between two jobs of one van, in minutes (issue 40: travel itself comes from the zones); absent: the default. */
export const MIN_GAP_KEY = 'min_gap_minutes';

export async function getSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Stores the value unless the key already has one; true when this call stored it. */
export async function insertSettingIfAbsent(db: Db, key: string, value: string): Promise<boolean> {
  const result = await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function putSetting(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: new Date() }))
    .execute();
}
