-- The brake on online bookings by new customers (issue 23): each booking records whether its
-- customer had no completed booking (same e-mail, trimmed, any case) when it was made, and the
-- hourly count of those is one probe of a small partial index.
ALTER TABLE bookings ADD COLUMN new_customer boolean NOT NULL DEFAULT false;
CREATE INDEX bookings_new_customer_created_idx ON bookings (created_at) WHERE new_customer;

-- "Release as spam" (issue 23): the history row of a release carries the staff member's reason.
ALTER TABLE booking_status_changes ADD COLUMN note text CHECK (note IS NULL OR char_length(note) BETWEEN 1 AND 200);
