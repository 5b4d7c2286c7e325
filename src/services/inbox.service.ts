/** The contact-form inbox: messages newest first, a page at a time, marked read or unread. */
import type { Kysely } from 'kysely';
import type { ContactMessage, Database } from '../db/database.ts';
import { countUnread, listContactMessages, setRead } from '../db/contact-messages.repository.ts';
import { notFound, validationFailed } from '../errors.ts';

export interface InboxPage {
  messages: ContactMessage[];
  unread: number;
  nextCursor: string | null;
}

function decode(value: string): { createdAt: string; id: string } {
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (typeof parsed?.createdAt === 'string' && typeof parsed?.id === 'string' && /^[0-9a-f-]{36}$/.test(parsed.id) && /^\d{4}-\d{2}-\d{2} [\d:.]+[+-][\d:]+$/.test(parsed.createdAt)) {
      return { createdAt: parsed.createdAt, id: parsed.id };
    }
  } catch {
    // falls through to the 400 below
  }
  throw validationFailed([{ field: 'cursor', message: 'This page link is no longer valid; start from the first page' }]);
}

export async function inboxPage(db: Kysely<Database>, options: { unreadOnly: boolean; limit: number; cursor?: string }): Promise<InboxPage> {
  const rows = await listContactMessages(db, { unreadOnly: options.unreadOnly, limit: options.limit, cursor: options.cursor ? decode(options.cursor) : undefined });
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    messages: page.map(({ created_at_exact: _exact, ...message }) => message),
    unread: await countUnread(db),
    nextCursor: rows.length > options.limit && last ? Buffer.from(JSON.stringify({ createdAt: last.created_at_exact, id: last.id })).toString('base64url') : null,
  };
}

export async function markMessage(db: Kysely<Database>, id: string, read: boolean): Promise<ContactMessage> {
  const message = await setRead(db, id, read);
  if (!message) throw notFound('No such message');
  return message;
}
