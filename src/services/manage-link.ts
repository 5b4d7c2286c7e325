/**
 * The customer's link to manage one booking (issue 11): `/booking/manage/{token}`. Only a hash of
 * the token is stored. Until the manage page lands there is no link.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';

/** The absolute manage URL of a booking, or undefined when the booking has none. */
export async function manageLinkFor(_db: Kysely<Database>, _bookingId: string, _origin: string): Promise<string | undefined> {
  return undefined;
}
