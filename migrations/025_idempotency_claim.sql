-- Idempotent submissions (issue 24): a request's key is claimed by inserting its row first, in
-- the statement that used to be two (the key's advisory lock, then the read of its answer). A
-- second request with the same key waits on the unique index for the first to commit, then finds
-- its answer; if the first rolled back, the second's insert goes through and it is processed.
--
-- So the row exists, unanswered, inside the transaction that claimed the key, until that
-- transaction writes its answer. It is never committed unanswered: a deferred constraint trigger
-- checks at commit that every key claimed in the transaction holds its answer. (The WHEN clause
-- of a constraint trigger is evaluated as the row is written, so only a claim queues a check.)
ALTER TABLE idempotency_keys
  ALTER COLUMN response_status DROP NOT NULL,
  ALTER COLUMN response_body DROP NOT NULL,
  ADD CONSTRAINT idempotency_keys_answer_whole CHECK ((response_status IS NULL) = (response_body IS NULL));

CREATE FUNCTION idempotency_keys_answered() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM idempotency_keys WHERE scope = NEW.scope AND key = NEW.key AND response_status IS NULL) THEN
    RAISE EXCEPTION 'idempotency key % of % claimed but not answered', NEW.key, NEW.scope
      USING ERRCODE = 'check_violation', CONSTRAINT = 'idempotency_keys_answered';
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER idempotency_keys_answered
  AFTER INSERT OR UPDATE ON idempotency_keys
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW
  WHEN (NEW.response_status IS NULL)
  EXECUTE FUNCTION idempotency_keys_answered();
