/** Data access for calendar feeds (migrations/039). */
import type { Kysely } from 'kysely';
import type { Booking, CalendarFeed, Database } from './database.ts';

type Db = Kysely<Database>;

/**
 * A new feed for a van (and person), in the caller's transaction: the live one for the same van
 * and person, if any, is revoked first (rotation), so the partial unique indexes hold.
 */
export async function insertFeed(trx: Db, feed: { resourceId: string; staffMemberId: string | null; tokenHash: string; createdBy: string }, now: Date): Promise<CalendarFeed> {
  let previous = trx.updateTable('calendar_feeds').set({ revoked_at: now }).where('resource_id', '=', feed.resourceId).where('revoked_at', 'is', null);
  previous = feed.staffMemberId === null ? previous.where('staff_member_id', 'is', null) : previous.where('staff_member_id', '=', feed.staffMemberId);
  await previous.execute();
  return trx
    .insertInto('calendar_feeds')
    .values({ resource_id: feed.resourceId, staff_member_id: feed.staffMemberId, token_hash: feed.tokenHash, created_by: feed.createdBy })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The live feeds, with their van's or bay's name and their person's, by van then person. */
export async function liveFeeds(db: Db) {
  return db
    .selectFrom('calendar_feeds as f')
    .innerJoin('resources as r', 'r.id', 'f.resource_id')
    .leftJoin('staff_members as m', 'm.id', 'f.staff_member_id')
    .select(['f.id', 'f.resource_id', 'r.name as resource_name', 'f.staff_member_id', 'm.name as member_name', 'f.created_by', 'f.created_at'])
    .where('f.revoked_at', 'is', null)
    .orderBy('r.position')
    .orderBy('m.name')
    .execute();
}

export async function revokeFeed(db: Db, id: string, now: Date): Promise<boolean> {
  const result = await db.updateTable('calendar_feeds').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The live feed a token's hash opens, with its van's name and its person (disabled or not). */
export async function feedByTokenHash(db: Db, tokenHash: string) {
  return db
    .selectFrom('calendar_feeds as f')
    .innerJoin('resources as r', 'r.id', 'f.resource_id')
    .leftJoin('staff_members as m', 'm.id', 'f.staff_member_id')
    .select(['f.id', 'f.resource_id', 'r.name as resource_name', 'f.staff_member_id', 'm.name as member_name', 'm.disabled_at'])
    .where('f.token_hash', '=', tokenHash)
    .where('f.revoked_at', 'is', null)
    .executeTakeFirst();
}

/**
 * A van's or bay's jobs on dates from `from` to `to` (both included): those holding their place,
 * and those cancelled whose date has not passed (`today` on), for the calendar to strike out.
 */
export async function jobsOfResource(db: Db, resourceId: string, from: string, to: string, today: string): Promise<Booking[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('resource_id', '=', resourceId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .where((eb) => eb.or([eb('status', 'in', ['pending', 'confirmed', 'completed', 'no-show']), eb.and([eb('status', '=', 'cancelled'), eb('date', '>=', today)])]))
    .orderBy('starts_at')
    .orderBy('id')
    .execute();
}
