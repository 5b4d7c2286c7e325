/** Transactions that compose: a service given a transaction runs in it, otherwise in its own. */
import type { Kysely } from 'kysely';
import type { Database } from './database.ts';

/**
 * Runs `work` inside `db` when it already is a transaction (the caller commits or rolls back the
 * whole), else inside a new transaction of its own.
 */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
