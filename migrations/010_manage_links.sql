-- The customer's manage page (issue 11): /booking/manage/{token}, where a customer sees, cancels or
-- moves their booking.
--
-- The token is base64url(HMAC-SHA256(key, id || ':' || manage_nonce)): 256 bits, never stored. The
-- key is kept in settings (made once, shared by every instance); the nonce is 16 random bytes of
-- the booking's own, so the server can make the same link again for each later e-mail (reminder,
-- moved, confirmed) without keeping the token. Only SHA-256 of the token is stored, for the lookup:
-- someone who reads the bookings table alone cannot open anyone's page (the key is elsewhere).
--
-- Bookings from before this migration get their nonce and hash from the application the first time
-- a link is needed (the hash needs the key, which SQL does not have).

ALTER TABLE bookings
  ADD COLUMN manage_nonce text,
  ADD COLUMN manage_token_hash text,
  ADD CONSTRAINT bookings_manage_nonce_format CHECK (manage_nonce ~ '^[A-Za-z0-9_-]{22}$'),
  ADD CONSTRAINT bookings_manage_token_hash_format CHECK (manage_token_hash ~ '^[0-9a-f]{64}$'),
  ADD CONSTRAINT bookings_manage_link_whole CHECK ((manage_nonce IS NULL) = (manage_token_hash IS NULL));

CREATE UNIQUE INDEX bookings_manage_token_hash_key ON bookings (manage_token_hash);

-- A move is recorded in the same append-only history as a status change, so that staff see who
-- moved the booking, when, and from which time to which: the status stays what it was.
ALTER TABLE booking_status_changes
  ADD COLUMN from_date date,
  ADD COLUMN from_time text,
  ADD COLUMN to_date date,
  ADD COLUMN to_time text,
  ADD CONSTRAINT booking_status_changes_move_whole CHECK (
    (from_date IS NULL AND from_time IS NULL AND to_date IS NULL AND to_time IS NULL)
    OR (from_date IS NOT NULL AND from_time IS NOT NULL AND to_date IS NOT NULL AND to_time IS NOT NULL AND from_status = to_status)
  );
