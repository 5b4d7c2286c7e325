-- A customer found by their phone number however either side wrote it (the Customers view's
-- search, migrations/018). The search text held the number as typed and its digits, so a customer
-- who gave "+64 22 189 2503" was not found by "022 189 2503" or "0221892503", the form a detailer
-- reads off a missed call, nor one who gave "022 189 2503" by "+64 22 189 2503". It now also holds
-- the number in NZ national form (canonical_phone, migrations/013 and 028: the form that tells one
-- customer from another for the discount), and the search (src/db/customers.repository.ts) also
-- looks for the typed number's national form.
ALTER TABLE customers DROP COLUMN search_text;
ALTER TABLE customers ADD COLUMN search_text text GENERATED ALWAYS AS (
  lower(name || ' ' || email || ' ' || phone) || ' ' || regexp_replace(phone, '[^0-9]', '', 'g')
    || ' ' || coalesce(canonical_phone(phone), '')
) STORED;
CREATE INDEX customers_search_idx ON customers USING gin (search_text gin_trgm_ops);
