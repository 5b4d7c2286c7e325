/** Receiving a message from the contact form, and telling staff by e-mail. */
import type { Kysely } from 'kysely';
import { validateContact, type ContactInput } from '../domain/contact-rules.ts';
import type { ContactMessage, Database } from '../db/database.ts';
import { insertContactMessage } from '../db/contact-messages.repository.ts';
import { validationFailed } from '../errors.ts';
import { inTransaction } from '../db/transaction.ts';
import { queueContactMail } from '../mail/booking-mail.ts';
import type { MailContext } from '../mail/mail-context.ts';

export async function receiveContactMessage(db: Kysely<Database>, raw: ContactInput, mail: MailContext): Promise<ContactMessage> {
  const input: ContactInput = {
    name: raw.name.trim(),
    email: raw.email.trim(),
    phone: raw.phone.trim(),
    message: raw.message.trim(),
  };
  const errors = validateContact(input);
  if (errors.length > 0) throw validationFailed(errors);
  // The staff notification is written with the message, or neither is.
  return inTransaction(db, async (trx) => {
    const saved = await insertContactMessage(trx, input);
    await queueContactMail(trx, saved, mail);
    return saved;
  });
}
