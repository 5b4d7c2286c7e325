/**
 * Prepared statements for the `pg` pool (issue 24). Kysely sends each query as an unnamed
 * statement, which PostgreSQL parses and plans again every time; the booking transaction's
 * customer and schedule reads cost more to plan than to run. A connection of this client gives
 * each parameterised statement a name (a hash of its text), so that PostgreSQL parses it once per
 * connection and keeps its plan (`pg` then sends only Bind and Execute). At 5 connections on the
 * 2-core machine, bookings went from 84 to 94–98 a second with it.
 *
 * Left unnamed, as before:
 * - statements without parameters (the migrations' scripts, which may hold several commands);
 * - statements whose columns come from `*` (`select *`, `returning *`, `t.*`): PostgreSQL refuses
 *   to run a prepared statement whose result columns changed ("cached plan must not change result
 *   type"), which is what adding a column would do to them under an instance still running while
 *   another one migrates. Named columns do not change when a table gains one;
 * - statements with a LIKE: the best plan for one depends on its pattern. The staff's searches
 *   find a rare match (a reference, a phone number) through the trigram index and a common one
 *   (a first name) by walking the newest first until the page is full; a plan made once for any
 *   pattern walks the newest first for all of them, through all 25,000 customers for a booking
 *   reference (3 → 24 ms on PostgreSQL, 76 ms at p95 on the embedded database, in the Customers
 *   benchmark). Planned for each call's pattern, as an unnamed statement is;
 * - every statement after the first `limit` this connection named, so that statements whose text
 *   varies (lists of values) cannot fill the server's memory.
 *
 * After a few runs PostgreSQL may plan a prepared statement once for any values (a generic plan),
 * which cannot match a partial index's predicate to a parameter: an ON CONFLICT naming such an
 * index writes the predicate as a literal (insertReviewRequestOnce). The test suite's connections
 * plan every statement generically from its first run (test/helper.ts), so such a statement fails
 * there first.
 *
 * DB_PREPARED_STATEMENTS sets the limit; 0 turns naming off (PgBouncer in transaction mode before
 * 1.21 cannot carry prepared statements across its server connections).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';

/** Columns that come from `*`: a table's change would change the statement's result. */
const STAR_COLUMNS = /\b(?:select|returning)\s+\*|\.\*/i;
/** A pattern match, whose best plan depends on the pattern. */
const PATTERN_MATCH = /\b(?:i?like)\b/i;

/** The name a statement's text is prepared under: the same on every connection. */
export function statementName(text: string): string {
  return `k_${createHash('sha1').update(text).digest('base64url')}`;
}

/** Whether a statement may be prepared (before the per-connection limit). */
export function mayPrepare(text: string, values: unknown): boolean {
  return Array.isArray(values) && values.length > 0 && !STAR_COLUMNS.test(text) && !PATTERN_MATCH.test(text);
}

/** A `pg` client class that names up to `limit` statements per connection (see above). */
export function preparingClient(limit: number): typeof pg.Client {
  if (limit <= 0) return pg.Client;
  // Each connection's prepared statements, text to name: a statement run again is neither
  // checked nor hashed again, and past the limit nothing is hashed at all.
  const prepared = new WeakMap<pg.Client, Map<string, string>>();
  const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  class PreparingClient extends pg.Client {}
  // Only the (text, values) form Kysely uses is changed; every other call goes through as it is.
  PreparingClient.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [text, values] = args;
    if (typeof text === 'string' && Array.isArray(values)) {
      let names = prepared.get(this);
      if (!names) prepared.set(this, (names = new Map()));
      let name = names.get(text);
      if (name === undefined && names.size < limit && mayPrepare(text, values)) names.set(text, (name = statementName(text)));
      if (name !== undefined) return query.call(this, { name, text, values }, ...args.slice(2));
    }
    return query.apply(this, args);
  } as pg.Client['query'];
  return PreparingClient;
}
