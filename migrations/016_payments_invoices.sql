-- Completion, payment and receipt (issue 21).
--
-- A completed job's record: the final amount (the booking's total unless staff changed it, then
-- with a reason), how and when it was paid (both null while unpaid), and, when the business is
-- GST-registered (GST_NUMBER), the GST number it was issued under, the GST amount (3/23 of the
-- GST-inclusive amount, rounded to the cent) and a tax-invoice number. One row per booking: a
-- booking completed again after being reopened keeps its invoice number.
CREATE TABLE booking_payments (
  booking_id uuid PRIMARY KEY REFERENCES bookings (id) ON DELETE CASCADE,
  -- The booking's total when it was completed, and what was charged.
  quoted_cents integer NOT NULL CHECK (quoted_cents >= 0),
  amount_cents integer NOT NULL CHECK (amount_cents >= 0 AND amount_cents <= 100000000),
  amount_reason text CHECK (amount_reason IS NULL OR char_length(amount_reason) BETWEEN 1 AND 200),
  payment_method text CHECK (payment_method IN ('cash', 'bank-transfer', 'card', 'other')),
  paid_at timestamptz,
  gst_number text CHECK (gst_number IS NULL OR gst_number ~ '^([0-9]{3}-[0-9]{3}-[0-9]{3}|[0-9]{8,9})$'),
  gst_cents integer NOT NULL,
  invoice_number integer UNIQUE CHECK (invoice_number > 0),
  completed_at timestamptz NOT NULL,
  completed_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- Paid: a method and a moment; unpaid: neither.
  CONSTRAINT booking_payments_paid_iff_method CHECK ((payment_method IS NULL) = (paid_at IS NULL)),
  -- An amount other than the booking's total says why.
  CONSTRAINT booking_payments_reason_when_changed CHECK (amount_cents = quoted_cents OR amount_reason IS NOT NULL),
  -- A tax invoice has a number and the GST number it was issued under; a receipt has neither.
  CONSTRAINT booking_payments_invoice_iff_gst CHECK ((invoice_number IS NULL) = (gst_number IS NULL)),
  -- GST is three twenty-thirds of the GST-inclusive amount, rounded to the cent (never a tie:
  -- 3 × amount / 23 cannot end in exactly .5); none without a GST registration.
  CONSTRAINT booking_payments_gst_amount CHECK (
    gst_cents = CASE WHEN gst_number IS NULL THEN 0 ELSE round(amount_cents * 3 / 23.0)::integer END
  )
);

-- The takings summary reads a range of completions.
CREATE INDEX booking_payments_completed_at_idx ON booking_payments (completed_at);

-- Tax-invoice numbers without gaps: one row, incremented in the completing transaction
-- (UPDATE ... SET last = last + 1 RETURNING last). Its row lock makes concurrent completions take
-- turns, and a transaction that rolls back takes its number back with it (a SEQUENCE would not).
CREATE TABLE invoice_counter (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  last integer NOT NULL DEFAULT 0 CHECK (last >= 0)
);
INSERT INTO invoice_counter DEFAULT VALUES;

-- At most one review request per booking, ever (REVIEW_URL): a second completion of a reopened
-- booking finds the first one and queues nothing.
CREATE UNIQUE INDEX outbox_emails_one_review_request_idx ON outbox_emails (booking_id) WHERE kind = 'review-request';
