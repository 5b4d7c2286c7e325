/** Data access for messages sent through the contact form. */
import { sql, type Kysely } from 'kysely';
import type { ContactMessage, Database, NewContactMessage } from './database.ts';

export async function insertContactMessage(db: Kysely<Database>, message: NewContactMessage): Promise<ContactMessage> {
  return db.insertInto('contact_messages').values(message).returningAll().executeTakeFirstOrThrow();
}

export type ContactMessageRow = ContactMessage & { created_at_exact: string };

/** One page of messages, newest first (keyset paging), optionally only the unread ones. */
export async function listContactMessages(
  db: Kysely<Database>,
  options: { unreadOnly: boolean; limit: number; cursor?: { createdAt: string; id: string } },
): Promise<ContactMessageRow[]> {
  let query = db.selectFrom('contact_messages').selectAll().select(sql<string>`created_at::text`.as('created_at_exact'));
  if (options.unreadOnly) query = query.where('read_at', 'is', null);
  if (options.cursor) query = query.where(sql<boolean>`(created_at, id) < (${options.cursor.createdAt}::timestamptz, ${options.cursor.id}::uuid)`);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit + 1).execute();
}

export async function countUnread(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('contact_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('read_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setRead(db: Kysely<Database>, id: string, read: boolean): Promise<ContactMessage | undefined> {
  return db
    .updateTable('contact_messages')
    .set({ read_at: read ? sql<Date>`coalesce(read_at, now())` : null })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
