-- Issue 24: a booking's transaction composes no e-mail while it holds its locks. It queues each
-- e-mail with a snapshot of what composing it needs (the booking as the transaction wrote it, when
-- the event happened, its manage-link slot, what changed) and the sender composes the text, HTML
-- and invitation from it at send time, writes them into the row with the outcome and clears the
-- snapshot. The kind, recipient, subject and invitation method are written at once, as before.
ALTER TABLE outbox_emails ADD COLUMN snapshot jsonb;
ALTER TABLE outbox_emails ALTER COLUMN text_body DROP NOT NULL;
ALTER TABLE outbox_emails ALTER COLUMN html_body DROP NOT NULL;
-- A row holds its bodies or what they are composed from, a JSON object. (IS NOT NULL first: a
-- CHECK that comes out NULL passes, and jsonb_typeof(NULL) is NULL.)
ALTER TABLE outbox_emails ADD CONSTRAINT outbox_emails_bodies_or_snapshot
  CHECK ((text_body IS NOT NULL AND html_body IS NOT NULL) OR (snapshot IS NOT NULL AND jsonb_typeof(snapshot) = 'object'));
