/** The contact-form inbox: messages newest first, a page at a time, marked read or unread. */
import type { Kysely } from 'kysely';
import type { ContactMessage, Database } from '../db/database.ts';
import { countUnread, listContactMessages, setRead } from '../db/contact-messages.repository.ts';
import { notFound } from '../errors.ts';
import { decodeCursorObject, encodeCursor, invalidCursor, isTimestampText, isUuid } from './paging-cursor.ts';

export interface InboxPage {
  messages: ContactMessage[];
  unread: number;
  nextCursor: string | null;
}

function decode(value: string): { createdAt: string; id: string } {
  const parsed = decodeCursorObject(value);
  if (!isTimestampText(parsed.createdAt) || !isUuid(parsed.id)) throw invalidCursor();
  return { createdAt: parsed.createdAt, id: parsed.id };
}

export async function inboxPage(db: Kysely<Database>, options: { unreadOnly: boolean; limit: number; cursor?: string }): Promise<InboxPage> {
  const rows = await listContactMessages(db, { unreadOnly: options.unreadOnly, limit: options.limit, cursor: options.cursor ? decode(options.cursor) : undefined });
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    messages: page.map(({ created_at_exact: _exact, ...message }) => message),
    unread: await countUnread(db),
    nextCursor: rows.length > options.limit && last ? encodeCursor({ createdAt: last.created_at_exact, id: last.id }) : null,
  };
}

export async function markMessage(db: Kysely<Database>, id: string, read: boolean): Promise<ContactMessage> {
  const message = await setRead(db, id, read);
  if (!message) throw notFound('No such message');
  return message;
}
