-- Idempotent submissions (issue 10): the first answer given to a request carrying an
-- Idempotency-Key header (or a form's hidden submission token), kept for 24 hours so that a
-- retried or double-posted submission gets that answer again instead of making a second row.
-- A row is written in the same transaction as the booking or message it answers for, so neither
-- can exist without the other.
CREATE TABLE idempotency_keys (
  -- Which route the key was sent to: the same key sent to another route is another key.
  scope text NOT NULL CHECK (char_length(scope) BETWEEN 1 AND 60),
  key text NOT NULL CHECK (key ~ '^[!-~]{1,255}$'),
  -- SHA-256 (hex) of the canonical JSON (RFC 8785) of the validated request body.
  fingerprint text NOT NULL CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
  response_status smallint NOT NULL CHECK (response_status BETWEEN 200 AND 399),
  -- json, not jsonb: the answer is replayed exactly as it was first given, key order included.
  response_body json NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key)
);

-- Expired keys are deleted in one range scan of this index, never by reading the whole table.
CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);
