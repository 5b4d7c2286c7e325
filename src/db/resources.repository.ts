/** Data access for the vans and bays (resources) and their working hours. */
import { sql, type Kysely } from 'kysely';
import type { Database, NewResource, Resource, WorkingHoursRow } from './database.ts';

type Db = Kysely<Database>;

/** Every resource, active or not, in the order staff set (then by creation). */
export async function listResources(db: Db): Promise<Resource[]> {
  return db.selectFrom('resources').selectAll().orderBy('position').orderBy('created_at').orderBy('id').execute();
}

export async function findResource(db: Db, id: string): Promise<Resource | undefined> {
  return db.selectFrom('resources').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countResources(db: Db): Promise<number> {
  const row = await db.selectFrom('resources').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Stores a resource unless its name is taken (any case): undefined then. */
export async function insertResourceUnlessNameTaken(db: Db, resource: NewResource): Promise<Resource | undefined> {
  return db
    .insertInto('resources')
    .values(resource)
    .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function updateResource(db: Db, id: string, changes: Partial<Pick<Resource, 'name' | 'active' | 'position'>>): Promise<Resource | undefined> {
  return db.updateTable('resources').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/** The next position at the end of the list. */
export async function nextPosition(db: Db): Promise<number> {
  const row = await db.selectFrom('resources').select(sql<number>`coalesce(max(position) + 1, 0)`.as('next')).executeTakeFirstOrThrow();
  return Number(row.next);
}

export async function listWorkingHours(db: Db): Promise<WorkingHoursRow[]> {
  return db.selectFrom('working_hours').selectAll().orderBy('kind').orderBy('weekday').execute();
}

/** Replaces one kind's week of hours with `rows` (a weekday absent is closed). */
export async function replaceWorkingHours(db: Db, kind: string, rows: readonly WorkingHoursRow[]): Promise<void> {
  await db.deleteFrom('working_hours').where('kind', '=', kind).execute();
  if (rows.length > 0) await db.insertInto('working_hours').values([...rows]).execute();
}
