/**
 * The backup file (issue 42): one gzip file holding the whole database as lines of text, taken in
 * one snapshot and restored by the app itself, on either kind of database.
 *
 *   #backup {"format":"auckland-valet-backup","formatVersion":1,"schemaVersion":"034_…","takenAt":"…","source":"pglite"}
 *   #table {"name":"resources","columns":["id","kind",…]}
 *   {"id":"…","kind":"van",…}                    one row a line: PostgreSQL's own row_to_json
 *   #sequence {"name":"booking_notes_id_seq","value":"12"}
 *   #end {"rows":{"resources":2,…},"sha256":"…"}  a SHA-256 of every byte above this line
 *
 * Why not pg_dump: the Docker image has no pg_dump, and one must be at least the server's
 * version; PGlite's (PostgreSQL 17) writes `SET transaction_timeout`, which a 15 or 16 server
 * refuses, so its dumps would not restore on the other kind of database. Rows here are
 * PostgreSQL's JSON of each row, read back with json_populate_recordset into the schema that the
 * app's own migrations build up to the backup's version: the exclusion constraint, triggers and
 * functions are exactly what a fresh install has, an older backup migrates forward like any
 * database, and no statement from the file is ever executed. The last line's hash and gzip's CRC
 * find a cut-short or changed file before anything is written.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { sql, type Kysely } from 'kysely';
import { migrateTo, migrateToLatest, migrationNames } from './migrator.ts';

export const BACKUP_FORMAT = 'auckland-valet-backup';
const FORMAT_VERSION = 1;

/** Rows sent to the database in one statement while restoring, and at most this many characters of them. */
const LOAD_BATCH_ROWS = 1000;
const LOAD_BATCH_CHARS = 4_000_000;
/** Rows read per round trip while backing up. */
const DUMP_FETCH_ROWS = 1000;

/** Kysely's own bookkeeping: the restore's migrations write it. */
const MIGRATOR_TABLES = ['kysely_migration', 'kysely_migration_lock'];

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  /** The name of the last migration applied to the database backed up. */
  schemaVersion: string;
  takenAt: string;
  source: 'pglite' | 'postgres';
}

interface TableLine {
  name: string;
  columns: string[];
}

interface SequenceLine {
  name: string;
  /** last_value as text (bigint), or null for a sequence never used. */
  value: string | null;
}

interface Trailer {
  rows: Record<string, number>;
  sha256: string;
}

/** A file that is not a whole, unchanged backup of this app, or one this version cannot restore: nothing was written. */
export class BackupFileError extends Error {
  override name = 'BackupFileError';
}

/** The session settings both the dump and the restore run under, so that every value's text is read back as it was written. */
async function setTextSettings(db: Kysely<any>): Promise<void> {
  await sql`SELECT set_config('TimeZone', 'UTC', true), set_config('DateStyle', 'ISO, YMD', true), set_config('IntervalStyle', 'postgres', true), set_config('extra_float_digits', '1', true)`.execute(db);
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The current schema's tables, each after the tables its foreign keys point to. */
async function tablesInLoadOrder(db: Kysely<any>): Promise<TableLine[]> {
  const { rows: tables } = await sql<{ name: string; columns: string[] }>`
    SELECT c.relname AS name,
           array(SELECT a.attname::text FROM pg_attribute a
                 WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
                 ORDER BY a.attnum) AS columns
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind = 'r' AND NOT c.relispartition
    ORDER BY c.relname`.execute(db);
  const { rows: references } = await sql<{ child: string; parent: string }>`
    SELECT ch.relname AS child, pa.relname AS parent
    FROM pg_constraint k JOIN pg_class ch ON ch.oid = k.conrelid JOIN pg_class pa ON pa.oid = k.confrelid
    JOIN pg_namespace n ON n.oid = ch.relnamespace
    WHERE k.contype = 'f' AND n.nspname = current_schema() AND ch.oid <> pa.oid`.execute(db);
  const ordered: TableLine[] = [];
  const placed = new Set<string>();
  const visit = (table: TableLine, path: Set<string>) => {
    if (placed.has(table.name) || path.has(table.name)) return;
    path.add(table.name);
    for (const ref of references) {
      if (ref.child !== table.name) continue;
      const parent = tables.find((t) => t.name === ref.parent);
      if (parent) visit(parent, path);
    }
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) if (!MIGRATOR_TABLES.includes(table.name)) visit(table, new Set());
  return ordered;
}

export async function schemaVersionOf(db: Kysely<any>): Promise<string | undefined> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(db);
  return rows[0]?.name;
}

export interface DumpOptions {
  source: BackupHeader['source'];
  takenAt: Date;
  /**
   * Runs first in the snapshot's transaction: false skips the backup (another instance is taking
   * one). The schedule takes its advisory lock here, so the lock lasts as long as the backup.
   */
  claim?: (trx: Kysely<any>) => Promise<boolean>;
  /** Receives every line, in order, newline included; waits as the file's writer needs. */
  write: (line: string) => Promise<void>;
  /** Runs once the last line is written, still in the snapshot's transaction (the file is renamed here). */
  finish?: (header: BackupHeader) => Promise<void>;
}

/** Dumps the whole database in one snapshot (REPEATABLE READ, read only): its header, or null when `claim` declined. */
export async function dumpDatabase(db: Kysely<any>, options: DumpOptions): Promise<BackupHeader | null> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      if (options.claim && !(await options.claim(trx))) return null;
      await setTextSettings(trx);
      const schemaVersion = await schemaVersionOf(trx);
      if (!schemaVersion) throw new Error('The database has no schema yet: nothing to back up');
      const hash = createHash('sha256');
      const emit = async (line: string) => {
        const text = `${line}\n`;
        hash.update(text);
        await options.write(text);
      };
      const header: BackupHeader = { format: BACKUP_FORMAT, formatVersion: FORMAT_VERSION, schemaVersion, takenAt: options.takenAt.toISOString(), source: options.source };
      await emit(`#backup ${JSON.stringify(header)}`);
      const counts: Record<string, number> = {};
      for (const table of await tablesInLoadOrder(trx)) {
        await emit(`#table ${JSON.stringify(table)}`);
        const select = `SELECT row_to_json(r)::text AS row FROM (SELECT ${table.columns.map(quoteIdent).join(', ')} FROM ${quoteIdent(table.name)}) r`;
        await sql.raw(`DECLARE backup_rows NO SCROLL CURSOR FOR ${select}`).execute(trx);
        let count = 0;
        for (;;) {
          const { rows } = await sql.raw<{ row: string }>(`FETCH ${DUMP_FETCH_ROWS} FROM backup_rows`).execute(trx);
          for (const { row } of rows) await emit(row);
          count += rows.length;
          if (rows.length < DUMP_FETCH_ROWS) break;
        }
        await sql`CLOSE backup_rows`.execute(trx);
        counts[table.name] = count;
      }
      const { rows: sequences } = await sql<SequenceLine>`
        SELECT sequencename::text AS name, last_value::text AS value FROM pg_sequences WHERE schemaname = current_schema() ORDER BY sequencename`.execute(trx);
      for (const sequence of sequences) await emit(`#sequence ${JSON.stringify(sequence)}`);
      await options.write(`#end ${JSON.stringify({ rows: counts, sha256: hash.digest('hex') } satisfies Trailer)}\n`);
      await options.finish?.(header);
      return header;
    });
}

type Line = { kind: 'table'; table: TableLine } | { kind: 'row'; text: string } | { kind: 'sequence'; sequence: SequenceLine };

function parseJson<T>(text: string, what: string, fault = (message: string) => new BackupFileError(message)): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw fault(`${what} is not valid`);
  }
}

/**
 * A line after a valid header that is not one this app writes: the file was changed or damaged
 * (a flipped bit in the gzip data can come out as such a line before gzip's own check fails).
 */
const damagedLine = (why: string) => new BackupFileError(`the file was changed or damaged (${why})`);

/**
 * Reads a backup file from start to end, handing each line after the header to `onLine`, and
 * checks it whole: the header, gzip's CRC, the final line and the hash of everything above it.
 * Any fault throws a BackupFileError; with `onLine` given, after some lines were handed over.
 */
export async function readBackupFile(file: string, onLine?: (line: Line) => Promise<void>): Promise<{ header: BackupHeader; trailer: Trailer }> {
  const input = createReadStream(file);
  const gunzip = createGunzip();
  let streamError: Error | undefined;
  input.on('error', (error) => gunzip.destroy(error));
  gunzip.on('error', (error) => (streamError = error));
  input.pipe(gunzip);
  const lines = createInterface({ input: gunzip, crlfDelay: Infinity });
  const hash = createHash('sha256');
  let header: BackupHeader | undefined;
  let pending: string | undefined;
  let seenTable = false;
  const take = async (line: string) => {
    hash.update(`${line}\n`);
    if (line.startsWith('{')) {
      if (!seenTable) throw damagedLine('a row comes before any table');
      await onLine?.({ kind: 'row', text: line });
    } else if (line.startsWith('#table ')) {
      const table = parseJson<TableLine>(line.slice(7), 'a table line', damagedLine);
      if (typeof table.name !== 'string' || !Array.isArray(table.columns) || table.columns.some((c) => typeof c !== 'string')) throw damagedLine('a table line is not valid');
      seenTable = true;
      await onLine?.({ kind: 'table', table });
    } else if (line.startsWith('#sequence ')) {
      const sequence = parseJson<SequenceLine>(line.slice(10), 'a sequence line', damagedLine);
      if (typeof sequence.name !== 'string' || (sequence.value !== null && !/^-?\d+$/.test(String(sequence.value)))) throw damagedLine('a sequence line is not valid');
      await onLine?.({ kind: 'sequence', sequence });
    } else {
      throw damagedLine('a line is neither a table, a row nor a sequence');
    }
  };
  try {
    for await (const line of lines) {
      if (header === undefined) {
        if (!line.startsWith('#backup ')) throw new BackupFileError(`not a backup of this app (it does not begin with its ${BACKUP_FORMAT} header)`);
        header = parseJson<BackupHeader>(line.slice(8), 'the header');
        if (header.format !== BACKUP_FORMAT) throw new BackupFileError(`not a backup of this app (format ${JSON.stringify(header.format)})`);
        if (header.formatVersion !== FORMAT_VERSION) throw new BackupFileError(`backup format version ${header.formatVersion} is not one this app reads (${FORMAT_VERSION})`);
        if (typeof header.schemaVersion !== 'string' || !/^\d{3}_[a-z0-9_]+$/.test(header.schemaVersion)) throw new BackupFileError('the header names no schema version');
        hash.update(`${line}\n`);
        continue;
      }
      if (pending !== undefined) await take(pending);
      pending = line;
    }
  } catch (error) {
    if (error instanceof BackupFileError) throw error;
    throw new BackupFileError(describeReadError(error as NodeJS.ErrnoException));
  } finally {
    // Left early, the line reader would still pass on gzip's error (its check at the end of a
    // damaged file) with no one listening for it: an uncaught exception after the clear refusal.
    lines.close();
    gunzip.destroy();
    input.destroy();
  }
  if (streamError) throw new BackupFileError(describeReadError(streamError as NodeJS.ErrnoException));
  if (header === undefined) throw new BackupFileError('the file is empty');
  if (pending === undefined || !pending.startsWith('#end ')) throw new BackupFileError('the file is cut short (its final line is missing)');
  const trailer = parseJson<Trailer>(pending.slice(5), 'the final line');
  if (trailer.sha256 !== hash.digest('hex')) throw new BackupFileError('the file was changed or damaged (its SHA-256 does not match)');
  return { header, trailer };
}

function describeReadError(error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return 'no such file';
  if (error.code === 'Z_BUF_ERROR') return 'the file is cut short (gzip data ends early)';
  if (error.code === 'Z_DATA_ERROR') return error.message.includes('header') ? 'not a gzip file, so not a backup of this app' : 'the file was changed or damaged (gzip data is corrupt)';
  return error.message;
}

/** Checks a backup file whole without writing anything, and that this version of the app can restore it. */
export async function verifyBackupFile(file: string): Promise<{ header: BackupHeader; trailer: Trailer }> {
  const result = await readBackupFile(file);
  const known = await migrationNames();
  if (!known.includes(result.header.schemaVersion)) {
    const latest = known.at(-1);
    if (latest !== undefined && result.header.schemaVersion > latest) {
      throw new BackupFileError(`the backup is of schema version ${result.header.schemaVersion}, newer than this app's ${latest}: restore it with the version of the app that made it`);
    }
    throw new BackupFileError(`the backup's schema version ${result.header.schemaVersion} is not one of this app's migrations`);
  }
  return result;
}

/** True when the current schema holds no table: a database a restore may fill. */
export async function isEmptyDatabase(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'S')`.execute(db);
  return rows[0]!.n === 0;
}

export interface RestoreResult {
  header: BackupHeader;
  rows: Record<string, number>;
  /** Migrations applied after the rows, for a backup of an older schema version. */
  migratedForward: string[];
}

/**
 * Restores a verified backup file into an empty database: in one transaction, the migrations up to
 * the backup's schema version, every row (the tables' own triggers off, as the rows already are
 * what they made), the sequences, then the migrations since. A failure undoes all of it.
 */
export async function loadBackupFile(db: Kysely<any>, file: string): Promise<RestoreResult> {
  const { header } = await verifyBackupFile(file);
  return db.connection().execute(async (conn) => {
    await sql`BEGIN`.execute(conn);
    try {
      await setTextSettings(conn);
      await migrateTo(conn, header.schemaVersion, { inCallersTransaction: true });
      const tables = await tablesInLoadOrder(conn);
      // The migrations' own seed rows give way to the backup's.
      if (tables.length > 0) await sql.raw(`TRUNCATE ${tables.map((t) => quoteIdent(t.name)).join(', ')}`).execute(conn);
      const known = new Map(tables.map((t) => [t.name, t]));
      const loaded: Record<string, number> = {};
      let current: TableLine | undefined;
      let batch: string[] = [];
      let batchChars = 0;
      const flush = async () => {
        if (!current || batch.length === 0) return;
        const columns = current.columns.map(quoteIdent).join(', ');
        const table = quoteIdent(current.name);
        await sql`${sql.raw(`INSERT INTO ${table} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM json_populate_recordset(NULL::${table}, `)}${`[${batch.join(',')}]`}::json)`.execute(conn);
        loaded[current.name] = (loaded[current.name] ?? 0) + batch.length;
        batch = [];
        batchChars = 0;
      };
      const { trailer } = await readBackupFile(file, async (line) => {
        if (line.kind === 'table') {
          await flush();
          const table = known.get(line.table.name);
          if (!table) throw new BackupFileError(`the backup has a table ${line.table.name} that schema version ${header.schemaVersion} does not`);
          const missing = line.table.columns.filter((c) => !table.columns.includes(c));
          if (missing.length > 0) throw new BackupFileError(`the backup's table ${table.name} has columns ${missing.join(', ')} that schema version ${header.schemaVersion} does not`);
          current = line.table;
          loaded[current.name] = 0;
          await sql.raw(`ALTER TABLE ${quoteIdent(table.name)} DISABLE TRIGGER USER`).execute(conn);
        } else if (line.kind === 'row') {
          batch.push(line.text);
          batchChars += line.text.length;
          if (batch.length >= LOAD_BATCH_ROWS || batchChars >= LOAD_BATCH_CHARS) await flush();
        } else {
          await flush();
          const { name, value } = line.sequence;
          if (value === null) await sql.raw(`ALTER SEQUENCE ${quoteIdent(name)} RESTART`).execute(conn);
          else await sql`SELECT setval(${quoteIdent(name)}::regclass, ${value}::bigint, true)`.execute(conn);
        }
      });
      await flush();
      for (const name of Object.keys(loaded)) await sql.raw(`ALTER TABLE ${quoteIdent(name)} ENABLE TRIGGER USER`).execute(conn);
      for (const [name, count] of Object.entries(trailer.rows)) {
        if (loaded[name] !== count) throw new BackupFileError(`the backup's final line counts ${count} rows in ${name}, but ${loaded[name] ?? 0} were read`);
      }
      const migratedForward = await migrateToLatest(conn, { inCallersTransaction: true });
      await sql`COMMIT`.execute(conn);
      return { header, rows: loaded, migratedForward };
    } catch (error) {
      await sql`ROLLBACK`.execute(conn).catch(() => {});
      throw error;
    }
  });
}
