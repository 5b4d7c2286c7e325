/**
 * Issue 24: each connection prepares its parameterised statements (src/db/prepared-statements.ts),
 * up to DB_PREPARED_STATEMENTS, and never one whose columns come from `*`, so that a column added
 * by another instance's migration cannot break a statement this one keeps. Read from PostgreSQL's
 * own list of the session's prepared statements, on both databases.
 */
import t from 'tap';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../src/db/connect.ts';
import { loadConfig } from '../src/config.ts';
import { mayPrepare, statementName } from '../src/db/prepared-statements.ts';
import { createServerDatabase, forEachBackend } from './helper.ts';

const quiet = { warn: () => {} };

t.test('which statements may be prepared', async (t) => {
  t.ok(mayPrepare('select "id", "name" from "bookings" where "id" = $1', ['x']), 'named columns and a parameter');
  t.notOk(mayPrepare('select 1', []), 'no parameter: a script, perhaps of several commands');
  t.notOk(mayPrepare('select * from "bookings" where "id" = $1', ['x']), 'select *');
  t.notOk(mayPrepare('select "b".* from "bookings" as "b" where "id" = $1', ['x']), 'a table\'s *');
  t.notOk(mayPrepare('insert into "bookings" ("id") values ($1) returning *', ['x']), 'returning *');
  t.ok(mayPrepare('select count(*) as "n" from "bookings" where "status" = $1', ['x']), 'count(*) is one column');
  t.notOk(mayPrepare('select "id" from "customers" where "search_text" like $1 order by "last_booked_at" desc limit $2', ['%x%', 26]), 'a LIKE: planned for its pattern');
  t.notOk(mayPrepare('select "id" from "bookings" where "name" ILIKE $1', ['%x%']), 'an ILIKE too');
  t.ok(mayPrepare('select "liked_at" from "reviews" where "id" = $1', ['x']), 'a name that contains the word is not one');
  t.equal(statementName('select $1'), statementName('select $1'), 'one name for one text');
  t.not(statementName('select $1'), statementName('select $2'));
});

t.test('DB_PREPARED_STATEMENTS: 200 by default, 0 turns it off, no negative', async (t) => {
  t.equal(loadConfig({}).db.preparedStatements, 200);
  t.equal(loadConfig({ DB_PREPARED_STATEMENTS: '0' }).db.preparedStatements, 0);
  t.throws(() => loadConfig({ DB_PREPARED_STATEMENTS: '-1' }));
});

forEachBackend(t, async (t, backend) => {
  const databaseUrl = backend === 'postgres' ? await createServerDatabase(t) : undefined;
  const open = (preparedStatements: number) => openDatabase({ databaseUrl, dataDir: 'memory://', poolMax: 1, connectTimeoutMs: 10_000, preparedStatements }, quiet);

  const handle = await open(2);
  t.teardown(() => handle.close());
  const { db } = handle;
  const prepared = async () =>
    (await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(db)).rows.map((row) => row.name);
  await sql`create table prepared_probe (id int primary key, label text not null)`.execute(db);
  await sql`insert into prepared_probe values (1, 'one'), (2, 'two')`.execute(db);
  t.same(await prepared(), [], 'statements without parameters are not prepared');

  const byId = 'select "id", "label" from "prepared_probe" where "id" = $1';
  const star = 'select * from "prepared_probe" where "id" = $1';
  const run = async (text: string, value: unknown, on: Kysely<unknown> = db as never) => (await on.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, [value]))).rows;
  t.same(await run(byId, 1), [{ id: 1, label: 'one' }]);
  t.same(await run(byId, 2), [{ id: 2, label: 'two' }], 'run again under its name, with other values');
  t.same(await run(star, 1), [{ id: 1, label: 'one' }]);
  t.same(await prepared(), [statementName(byId)], 'the named columns\' statement is prepared once; select * is not');

  // Another instance's migration adds a column: both statements still run.
  await sql`alter table prepared_probe add column extra int`.execute(db);
  t.same(await run(byId, 1), [{ id: 1, label: 'one' }], 'the prepared statement, after the table changed');
  t.same(await run(star, 1), [{ id: 1, label: 'one', extra: null }], 'select * sees the new column');

  // The limit: a second statement is prepared, a third runs unnamed.
  const second = 'select "label" from "prepared_probe" where "id" = $1';
  const third = 'select "id" from "prepared_probe" where "label" = $1';
  t.same(await run(second, 2), [{ label: 'two' }]);
  t.same(await run(third, 'one'), [{ id: 1 }], 'past the limit, still answered');
  t.same(await prepared(), [statementName(byId), statementName(second)].sort(), 'no more than the limit of 2');

  if (databaseUrl) {
    // Why `*` stays unnamed: PostgreSQL refuses a prepared `select *` once its table has changed.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    t.teardown(() => client.end());
    const named = { name: 'star_probe', text: star, values: [1] };
    t.equal((await client.query(named)).rows.length, 1);
    await client.query('alter table prepared_probe add column later int');
    await t.rejects(client.query(named), { code: '0A000', message: /cached plan must not change result type/ }, 'a named select * fails after a column is added');

    // test/helper.ts: the suite's statements run on generic plans from the first run.
    t.same((await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(db)).rows, [{ plan_cache_mode: 'force_generic_plan' }], 'the suite plans generically');
  }

  const off = await open(0);
  t.teardown(() => off.close());
  await sql`create table prepared_off (id int primary key)`.execute(off.db);
  t.same(await run('select "id" from "prepared_off" where "id" = $1', 1, off.db as never), [], 'DB_PREPARED_STATEMENTS=0: the statement runs');
  t.same((await sql<{ name: string }>`select name from pg_prepared_statements`.execute(off.db)).rows, [], 'and nothing is prepared');
});
