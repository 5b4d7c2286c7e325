/**
 * Issue 24: the embedded database has no autovacuum (PGlite is one backend in single-user mode),
 * so the app vacuums and analyses its tables where autovacuum would (src/db/upkeep.repository.ts,
 * src/plugins/app/embedded-upkeep.ts). Read from PostgreSQL's own statistics views and plans.
 */
import t from 'tap';
import { sql, type Kysely } from 'kysely';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { backends, buildTestApp } from './helper.ts';
import { until } from './support/smtp.ts';

interface TableStats {
  n_dead_tup: number;
  n_mod_since_analyze: number;
  analyzed: boolean;
  vacuumed: boolean;
}

async function statsOf(db: Kysely<Database>, table: string): Promise<TableStats> {
  await sql`select pg_stat_force_next_flush()`.execute(db);
  const { rows } = await sql<TableStats>`
    select n_dead_tup::int, n_mod_since_analyze::int, last_analyze is not null as analyzed, last_vacuum is not null as vacuumed
      from pg_stat_user_tables where relname = ${table}`.execute(db);
  return rows[0]!;
}

/** The planner's idea of a table's rows, as EXPLAIN gives it. */
async function estimatedRows(db: Kysely<Database>, table: string): Promise<number> {
  const { rows } = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>`explain (format json) select * from ${sql.table(table)}`.execute(db);
  return rows[0]!['QUERY PLAN'][0].Plan['Plan Rows'];
}

t.test('EMBEDDED_UPKEEP_SECONDS: 60 by default, 0 turns it off, no negative', async (t) => {
  t.equal(loadConfig({}).db.embeddedUpkeepMs, 60_000);
  t.equal(loadConfig({ EMBEDDED_UPKEEP_SECONDS: '0' }).db.embeddedUpkeepMs, 0);
  t.throws(() => loadConfig({ EMBEDDED_UPKEEP_SECONDS: '-1' }));
});

t.test('the embedded database keeps 8 MB of shared buffers and lock tables for 10 sessions in its WebAssembly memory (src/db/connect.ts)', async (t) => {
  const app = await buildTestApp(t, { backend: 'pglite', env: { EMBEDDED_UPKEEP_SECONDS: '0' } });
  const { rows } = await sql<{ shared_buffers: string; max_connections: string; max_locks_per_transaction: string }>`
    select current_setting('shared_buffers') as shared_buffers, current_setting('max_connections') as max_connections,
           current_setting('max_locks_per_transaction') as max_locks_per_transaction`.execute(app.db);
  t.same(rows[0], { shared_buffers: '8MB', max_connections: '10', max_locks_per_transaction: '256' });
});

t.test('the embedded database: analysed and vacuumed where autovacuum would, and only there', async (t) => {
  const app = await buildTestApp(t, { backend: 'pglite', env: { EMBEDDED_UPKEEP_SECONDS: '0' } });
  const { db } = app;
  // Whatever the migrations left due is done first.
  await app.upkeepEmbeddedDatabase();
  t.same(await app.upkeepEmbeddedDatabase(), [], 'nothing is due twice');

  const insertKeys = (from: number, to: number) =>
    sql`insert into idempotency_keys (scope, key, fingerprint, response_status, response_body)
        select 'probe', 'key-' || g, repeat('a', 64), 200, '{}' from generate_series(${from}::int, ${to}::int) g`.execute(db);
  // 40 new rows: under autovacuum's analyse threshold (50 + 10 %).
  await insertKeys(1, 40);
  t.same(await app.upkeepEmbeddedDatabase(), [], '40 new rows: not yet');
  t.equal((await statsOf(db, 'idempotency_keys')).analyzed, false);

  // 200 in all: past it, so the table is analysed (not vacuumed: 200 inserts are under 1,000).
  await insertKeys(41, 200);
  t.same(await app.upkeepEmbeddedDatabase(), [{ table: 'idempotency_keys', vacuum: false, analyze: true }]);
  let stats = await statsOf(db, 'idempotency_keys');
  t.ok(stats.analyzed, 'ANALYZE ran');
  t.equal(stats.n_mod_since_analyze, 0);
  t.equal(await estimatedRows(db, 'idempotency_keys'), 200, 'the planner now counts the 200 rows');

  // 150 of them deleted: dead rows past the vacuum threshold (50 + 20 % of 200).
  await sql`delete from idempotency_keys where key <> all (select 'key-' || g from generate_series(1, 50) g)`.execute(db);
  t.same(await app.upkeepEmbeddedDatabase(), [{ table: 'idempotency_keys', vacuum: true, analyze: true }]);
  stats = await statsOf(db, 'idempotency_keys');
  t.ok(stats.vacuumed, 'VACUUM ran');
  t.equal(stats.n_dead_tup, 0, 'the dead rows are reclaimed');
  t.equal(await estimatedRows(db, 'idempotency_keys'), 50, 'and the planner counts the 50 left');
  t.same(await app.upkeepEmbeddedDatabase(), [], 'nothing is due after it');

  // 1,500 rows inserted and analysed since: past the inserts' vacuum threshold (1,000 + 20 % of 1,550), with
  // nothing left to analyse, so the table is vacuumed only.
  await insertKeys(1001, 2500);
  // The inserts' counts reach the shared counters first, else they would land after the ANALYZE.
  await sql`select pg_stat_force_next_flush()`.execute(db);
  await sql`analyze idempotency_keys`.execute(db);
  const counts = async () =>
    (await sql<{ vacuums: number; analyses: number }>`select vacuum_count::int as vacuums, analyze_count::int as analyses from pg_stat_user_tables where relname = 'idempotency_keys'`.execute(db)).rows[0]!;
  const before = await counts();
  t.same(await app.upkeepEmbeddedDatabase(), [{ table: 'idempotency_keys', vacuum: true, analyze: false }]);
  await sql`select pg_stat_force_next_flush()`.execute(db);
  t.same(await counts(), { vacuums: before.vacuums + 1, analyses: before.analyses }, 'one VACUUM, no ANALYZE');
});

t.test('the timer does it by itself', async (t) => {
  const app = await buildTestApp(t, { backend: 'pglite', env: { EMBEDDED_UPKEEP_SECONDS: '1' } });
  await sql`insert into idempotency_keys (scope, key, fingerprint, response_status, response_body)
      select 'probe', 'key-' || g, repeat('a', 64), 200, '{}' from generate_series(1, 100) g`.execute(app.db);
  await until(async () => (await statsOf(app.db, 'idempotency_keys')).analyzed, 'the table to be analysed', 15_000);
  t.pass('analysed within the interval');
});

t.test('on a PostgreSQL server its own autovacuum does it: nothing to do', { skip: !backends().includes('postgres') && 'no PostgreSQL server configured' }, async (t) => {
  const app = await buildTestApp(t, { backend: 'postgres' });
  t.equal(await app.upkeepEmbeddedDatabase(), null);
});
