-- A staff session belongs to the password it was signed in with (issue 12): each session records
-- a fingerprint (SHA-256) of the admin password hash in force at sign-in, and is honoured only
-- while that hash is still the one in force. Sessions from before this migration have none and
-- end, once.
ALTER TABLE staff_sessions ADD COLUMN password_fingerprint text NOT NULL DEFAULT '';

-- The cap on upcoming bookings per e-mail address counts them by address.
CREATE INDEX bookings_active_email_idx ON bookings (lower(email), "date") WHERE status IN ('pending', 'confirmed');
