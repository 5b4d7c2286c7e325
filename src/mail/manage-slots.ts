/**
 * An outbox e-mail's manage links: stored as slots (see manageLinkSlotFor), filled in with the
 * live token only as the e-mail is handed to the SMTP server, masked wherever staff read it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { liveTokens, type ManageKeyReader } from '../db/manage-link.repository.ts';
import { fillManageSlots, hasManageSlots, maskManageSlots, slotBookingIds } from '../domain/manage-link.ts';
import { fold } from './invitation.ts';

/** An e-mail's bodies once composed (see composeQueued in booking-mail.ts). */
type Bodies = { text_body: string; html_body: string; ics: string | null };

/** An iCalendar text's content lines joined back (RFC 5545 §3.1): a slot may have been folded across two. */
const unfold = (ics: string) => ics.replace(/\r\n[ \t]/g, '');

/** The e-mail with `change` applied to its text, its HTML and, unfolded and folded again (the token is not as long as the slot), its invitation. */
function mapBodies<T extends Bodies>(email: T, change: (text: string) => string): T {
  const ics = email.ics === null ? null : unfold(email.ics);
  return {
    ...email,
    text_body: change(email.text_body),
    html_body: change(email.html_body),
    ics: ics === null || !hasManageSlots(ics) ? email.ics : ics.split('\r\n').map((line) => (line === '' ? line : fold(change(line)))).join('\r\n'),
  };
}

/** The e-mail as it is sent: each slot holds its booking's live token. */
export async function withLiveManageLinks<T extends Bodies>(db: Kysely<Database>, email: T, readKey?: ManageKeyReader): Promise<T> {
  const ids = slotBookingIds(email.text_body, email.html_body, email.ics === null ? null : unfold(email.ics));
  if (ids.length === 0) return email;
  const tokens = await liveTokens(db, ids, readKey);
  return mapBodies(email, (text) => fillManageSlots(text, (id) => tokens.get(id)));
}

/** The e-mail as staff read it: the links masked. */
export function withMaskedManageLinks<T extends Bodies>(email: T): T {
  return mapBodies(email, maskManageSlots);
}
