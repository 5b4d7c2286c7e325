/**
 * An outbox e-mail's manage links: stored as slots (see manageLinkSlotFor), filled in with the
 * live token only as the e-mail is handed to the SMTP server, masked wherever staff read it.
 */
import type { Kysely } from 'kysely';
import type { Database, OutboxEmail } from '../db/database.ts';
import { fillManageSlots, hasManageSlots, liveTokens, maskManageSlots, slotBookingIds, type ManageKeyReader } from '../services/manage-link.ts';
import { fold } from './invitation.ts';

type Bodies = Pick<OutboxEmail, 'text_body' | 'html_body' | 'ics'>;

/**
 * An iCalendar text with `change` applied to its unfolded content lines, folded again: a slot
 * may have been folded across two lines, and the token is not as long as the slot.
 */
function inContentLines(ics: string, change: (line: string) => string): string {
  const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n');
  return lines.map((line) => (line === '' ? line : fold(change(line)))).join('\r\n');
}

function mapBodies<T extends Bodies>(email: T, change: (text: string) => string): T {
  return {
    ...email,
    text_body: change(email.text_body),
    html_body: change(email.html_body),
    ics: email.ics === null ? null : hasManageSlots(email.ics.replace(/\r\n[ \t]/g, '')) ? inContentLines(email.ics, change) : email.ics,
  };
}

/** The e-mail as it is sent: each slot holds its booking's live token. */
export async function withLiveManageLinks<T extends Bodies>(db: Kysely<Database>, email: T, readKey?: ManageKeyReader): Promise<T> {
  const unfoldedIcs = email.ics?.replace(/\r\n[ \t]/g, '') ?? null;
  const ids = slotBookingIds(email.text_body, email.html_body, unfoldedIcs);
  if (ids.length === 0) return email;
  const tokens = await liveTokens(db, ids, readKey);
  return mapBodies(email, (text) => fillManageSlots(text, (id) => tokens.get(id)));
}

/** The e-mail as staff read it: the links masked. */
export function withMaskedManageLinks<T extends Bodies>(email: T): T {
  return mapBodies(email, maskManageSlots);
}
