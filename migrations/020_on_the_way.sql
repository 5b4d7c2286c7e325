-- The Today view (issue 21): a detailer tells the customer they are on the way (once, with the
-- time they expect to arrive) and marks the job started.
ALTER TABLE bookings ADD COLUMN on_the_way_at timestamptz;
ALTER TABLE bookings ADD COLUMN arriving_at timestamptz;
ALTER TABLE bookings ADD COLUMN started_at timestamptz;
ALTER TABLE bookings ADD CONSTRAINT bookings_arrival_with_on_the_way CHECK ((on_the_way_at IS NULL) = (arriving_at IS NULL));
ALTER TABLE bookings ADD CONSTRAINT bookings_on_the_way_onsite CHECK (on_the_way_at IS NULL OR service_type = 'onsite');

-- "On the way" reaches the customer once: the database refuses a second one.
CREATE UNIQUE INDEX outbox_emails_one_on_the_way ON outbox_emails (booking_id) WHERE kind = 'booking-on-the-way';
