-- The outbox's statistics from a sample of 3,000 rows instead of 30,000 (issue 24). ANALYZE holds
-- its sample of 300 × the largest statistics target of a table's columns as whole rows in memory,
-- and an e-mail's row is wide (its bodies and its snapshot, about 3 KB stored): on the embedded
-- database, whose WebAssembly memory never shrinks, each analysis of outbox_emails was the one
-- step that grew the server's memory (31.8 to 45.7 MB of it over the booking benchmark's 4,000
-- e-mails, read from /proc around each VACUUM and ANALYZE of its upkeep; nothing else grew it). The
-- outbox is read through its indexes (the due e-mails in order, a booking's, the newest), for
-- which ten histogram bounds and ten common values say all the planner uses.
--
-- ANALYZE samples for the largest target among the table's columns and its indexes' expressions
-- too: the index of recipients (lower(btrim(to_address))) is given the same one.
--
-- A column added to outbox_emails later takes the default target again unless it is given this
-- one: test/outbox-snapshot-24.test.ts checks every column and expression.
ALTER TABLE outbox_emails
  ALTER COLUMN id SET STATISTICS 10,
  ALTER COLUMN kind SET STATISTICS 10,
  ALTER COLUMN booking_id SET STATISTICS 10,
  ALTER COLUMN contact_message_id SET STATISTICS 10,
  ALTER COLUMN to_name SET STATISTICS 10,
  ALTER COLUMN to_address SET STATISTICS 10,
  ALTER COLUMN reply_to_name SET STATISTICS 10,
  ALTER COLUMN reply_to_address SET STATISTICS 10,
  ALTER COLUMN subject SET STATISTICS 10,
  ALTER COLUMN text_body SET STATISTICS 10,
  ALTER COLUMN html_body SET STATISTICS 10,
  ALTER COLUMN ics SET STATISTICS 10,
  ALTER COLUMN ics_method SET STATISTICS 10,
  ALTER COLUMN status SET STATISTICS 10,
  ALTER COLUMN attempts SET STATISTICS 10,
  ALTER COLUMN next_attempt_at SET STATISTICS 10,
  ALTER COLUMN last_error SET STATISTICS 10,
  ALTER COLUMN sent_at SET STATISTICS 10,
  ALTER COLUMN created_at SET STATISTICS 10,
  ALTER COLUMN erased_at SET STATISTICS 10,
  ALTER COLUMN snapshot SET STATISTICS 10;
ALTER INDEX outbox_emails_recipient_idx ALTER COLUMN 1 SET STATISTICS 10;
