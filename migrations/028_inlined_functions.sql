-- The functions a booking's statements call, rewritten so that the planner inlines them (issue 24).
--
-- canonical_email and canonical_phone (migrations/013) each took about 0.13 ms a call inside a
-- booking's transaction, which calls them seven times (the customer's locks, the facts read, the
-- insert's generated columns): about a quarter of PostgreSQL's time for a booking. A SQL function
-- whose body is a SELECT with a FROM is not inlined; it is run by the SQL-function executor,
-- which plans its body again in every statement that calls it. A body that is one expression is
-- inlined into the calling statement (and into the generated column's expression) and planned
-- with it, once for a prepared statement. The rule is the same, step for step; each step that
-- names a value twice is a function of its own, so that no expression is written twice, and each
-- is inlined in turn. canonical_email and canonical_phone are no longer STRICT: a strict
-- function is inlined only when its body is strict too, and a CASE is not; a NULL argument still
-- gives NULL, through every step.
--
-- valet_add_minutes (migrations/011, the end of a booking's held range) was not inlined either:
-- timestamptz + interval is only stable (a day added depends on the time zone), so an immutable
-- function that uses it cannot be. Minutes added in UTC are the same instant whatever the zone,
-- and every step of that is immutable.
--
-- Bodies are SQL-standard (parsed here, the functions they call bound now), as before: a restore
-- that recomputes the generated columns with an empty search_path gives the same values.

-- An e-mail address's local part without its "+tag", and its domain: gmail.com's dots removed.
CREATE FUNCTION canonical_email_joined(untagged text, mail_domain text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (CASE WHEN mail_domain IN ('gmail.com', 'googlemail.com') THEN replace(untagged, '.', '') ELSE untagged END)
    || '@' || (CASE WHEN mail_domain = 'googlemail.com' THEN 'gmail.com' ELSE mail_domain END);

-- A trimmed, lower-case address: NULL when empty, as it is without an "@", else its two parts joined.
CREATE FUNCTION canonical_email_trimmed(address text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE
    WHEN address = '' THEN NULL
    WHEN strpos(address, '@') = 0 THEN address
    ELSE canonical_email_joined(
      regexp_replace(substring(address FROM '^(.*)@[^@]*$'), '^(.[^+]*)\+.*$', '\1'),
      substring(address FROM '@([^@]*)$'))
  END;

CREATE OR REPLACE FUNCTION canonical_email(address text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN canonical_email_trimmed(lower(btrim(address, E' \t\n\r\f\v')));

-- A phone number's digits in national form (the country code as a leading 0); NULL under 7 digits.
CREATE FUNCTION canonical_phone_digits(digits text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN substring(
    CASE
      WHEN digits LIKE '0064%' THEN '0' || ltrim(substr(digits, 5), '0')
      WHEN digits LIKE '64%' AND length(digits) >= 10 THEN '0' || ltrim(substr(digits, 3), '0')
      ELSE digits
    END
    FROM '^[0-9]{7,}$');

CREATE OR REPLACE FUNCTION canonical_phone(phone text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN canonical_phone_digits(regexp_replace(phone, '[^0-9]', '', 'g'));

CREATE OR REPLACE FUNCTION valet_add_minutes(instant timestamptz, minutes integer) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN (instant AT TIME ZONE 'UTC' + make_interval(mins => minutes)) AT TIME ZONE 'UTC';
