/**
 * What PostgreSQL's autovacuum does, for the embedded database, which has none: PGlite is one
 * backend in single-user mode, with no launcher to start autovacuum's workers. Without it the
 * planner's statistics stay those of the empty tables the migrations made, a plan chosen for an
 * empty table reads every row of a full one, and the dead versions of updated and deleted rows are
 * never reclaimed. The customers' summary, refreshed with each booking, read every booking to find
 * one customer's: a booking through the API took 14.5 ms (p50) at 500 bookings and 26.7 ms at
 * 10,500, and 12.6 ms once the tables were analysed (test app on PGlite, 2026-11-28).
 *
 * The decision is PostgreSQL's own: its statistics counters, its autovacuum settings and the
 * formulas of its documentation ("The Autovacuum Daemon"), and the work is its VACUUM and ANALYZE.
 * Only the timer is the app's (src/plugins/app/embedded-upkeep.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './database.ts';

export interface TableUpkeep {
  table: string;
  /** Dead rows (or rows inserted since the last vacuum) past autovacuum's threshold: VACUUM. */
  vacuum: boolean;
  /** Rows changed since the last analysis past autovacuum's threshold: ANALYZE. */
  analyze: boolean;
}

/**
 * The tables of the current schema that autovacuum would vacuum or analyse now. The counters are
 * flushed first: a backend reports them only from time to time, and PGlite's only when asked.
 */
export async function tablesDueForUpkeep(db: Kysely<Database>): Promise<TableUpkeep[]> {
  await sql`select pg_stat_force_next_flush()`.execute(db);
  const { rows } = await sql<TableUpkeep>`
    with setting as (
      select current_setting('autovacuum_vacuum_threshold')::float8 as vacuum_base,
             current_setting('autovacuum_vacuum_scale_factor')::float8 as vacuum_scale,
             -- PostgreSQL 18 caps the dead rows' threshold; older servers have no cap.
             coalesce(current_setting('autovacuum_vacuum_max_threshold', true)::float8, 'infinity') as vacuum_cap,
             current_setting('autovacuum_vacuum_insert_threshold')::float8 as insert_base,
             current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as insert_scale,
             current_setting('autovacuum_analyze_threshold')::float8 as analyze_base,
             current_setting('autovacuum_analyze_scale_factor')::float8 as analyze_scale
    ), counted as (
      -- reltuples is -1 until a table's first VACUUM or ANALYZE: counted as empty, as autovacuum does.
      select s.relname, s.n_dead_tup, s.n_ins_since_vacuum, s.n_mod_since_analyze, greatest(c.reltuples, 0) as tuples
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
       where s.schemaname = current_schema()
    )
    select relname as "table",
           n_dead_tup > least(vacuum_base + vacuum_scale * tuples, vacuum_cap)
             or n_ins_since_vacuum > insert_base + insert_scale * tuples as vacuum,
           n_mod_since_analyze > analyze_base + analyze_scale * tuples as analyze
      from counted, setting
     where n_dead_tup > least(vacuum_base + vacuum_scale * tuples, vacuum_cap)
        or n_ins_since_vacuum > insert_base + insert_scale * tuples
        or n_mod_since_analyze > analyze_base + analyze_scale * tuples
     order by relname`.execute(db);
  return rows;
}

/**
 * The statistics target of the upkeep's ANALYZE (PostgreSQL's default is 100). ANALYZE holds a
 * sample of 300 × this many whole rows in memory while it works, and PGlite's WebAssembly memory
 * never shrinks: at 100, a large table's sample of 30,000 bookings or sent e-mails (one to a few
 * kilobytes each) would stay in the server's RSS for good. At 10 the sample is 3,000 rows, a few
 * megabytes, and still gives the row counts and most common values the plans here turn on.
 * Measured after the booking benchmark (about 2,700 bookings and 8,000 e-mails, the upkeep every
 * second): PGlite's WebAssembly memory held 47 MB, against 40 MB without the upkeep.
 */
export const UPKEEP_STATISTICS_TARGET = 10;

/** VACUUM and ANALYZE (with the upkeep's statistics target) this table, whichever is due. */
export async function upkeepTable(db: Kysely<Database>, { table, vacuum, analyze }: TableUpkeep): Promise<void> {
  // VACUUM cannot run inside a transaction block; ANALYZE can, with its target set for it alone.
  if (vacuum) await sql`vacuum ${sql.table(table)}`.execute(db);
  if (!analyze) return;
  await db.transaction().execute(async (trx) => {
    await sql`select set_config('default_statistics_target', ${String(UPKEEP_STATISTICS_TARGET)}, true)`.execute(trx);
    await sql`analyze ${sql.table(table)}`.execute(trx);
  });
}
