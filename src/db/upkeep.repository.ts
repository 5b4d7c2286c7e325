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
    ), judged as (
      select relname as "table",
             n_dead_tup > least(vacuum_base + vacuum_scale * tuples, vacuum_cap)
               or n_ins_since_vacuum > insert_base + insert_scale * tuples as vacuum,
             n_mod_since_analyze > analyze_base + analyze_scale * tuples as analyze
        from counted, setting
    )
    select "table", vacuum, "analyze" from judged where vacuum or "analyze" order by "table"`.execute(db);
  return rows;
}

/**
 * VACUUM and ANALYZE this table, whichever is due. ANALYZE at the table's statistics targets: it
 * holds a sample of 300 × the largest of them (its columns' and its index expressions') as whole
 * rows in memory while it works, and PGlite's WebAssembly memory never shrinks. The outbox's rows
 * are wide, and each analysis of it grew that memory as the table grew (14 MB over the booking
 * benchmark, read from /proc around each step of this upkeep): it is analysed from 3,000 rows
 * (migrations/031), and the memory stays where it is after the first thousands of e-mails: RSS
 * 191 MB after the benchmark's 4,100 e-mails against 200–202 MB before (2026-11-28). The other
 * tables keep PostgreSQL's default target: a target of 10 everywhere took only 2–3 MB more off,
 * and without a histogram of 100 bounds the planner misjudged the staff's customer search, which
 * went from 5 to 18 ms (p50) on PGlite with 100,000 bookings.
 */
export async function upkeepTable(db: Kysely<Database>, { table, vacuum, analyze }: TableUpkeep): Promise<void> {
  if (vacuum) await sql`vacuum ${sql.table(table)}`.execute(db);
  if (analyze) await sql`analyze ${sql.table(table)}`.execute(db);
}
