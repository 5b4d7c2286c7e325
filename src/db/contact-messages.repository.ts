/** Data access for messages sent through the contact form. */
import type { Kysely } from 'kysely';
import type { ContactMessage, Database, NewContactMessage } from './database.ts';

export async function insertContactMessage(db: Kysely<Database>, message: NewContactMessage): Promise<ContactMessage> {
  return db.insertInto('contact_messages').values(message).returningAll().executeTakeFirstOrThrow();
}
