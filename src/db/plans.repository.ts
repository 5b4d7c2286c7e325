/** Data access for maintenance plans (migrations/037): plain functions over a Kysely instance or transaction. */
import { sql, type Kysely } from 'kysely';
import type { Booking, Database, Plan, PlanVisit } from './database.ts';
import type { Start } from '../domain/plans.ts';

type Db = Kysely<Database>;

export async function insertPlan(db: Db, plan: { booking_id: string; interval_weeks: number; anchor_date: string; start_time: string; created_by: string }): Promise<Plan> {
  return db
    .insertInto('plans')
    .values({ ...plan, booked_through: plan.anchor_date })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The plan a booking belongs to: the one made from it, or the one that booked it as a visit. */
export async function findPlanOfBooking(db: Db, bookingId: string): Promise<Plan | undefined> {
  return db
    .selectFrom('plans')
    .selectAll()
    .where((eb) => eb.or([eb('booking_id', '=', bookingId), eb('id', 'in', eb.selectFrom('plan_visits').select('plan_id').where('booking_id', '=', bookingId))]))
    .executeTakeFirst();
}

export async function findPlan(db: Db, id: string): Promise<Plan | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The plan's row, locked until the end of the transaction: its writers (the extension, the customer, staff) take turns. */
export async function lockPlanRow(trx: Db, id: string): Promise<Plan | undefined> {
  return trx.selectFrom('plans').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updatePlan(trx: Db, id: string, set: Partial<Pick<Plan, 'status' | 'interval_weeks' | 'anchor_date' | 'booked_through' | 'stopped_at'>>): Promise<Plan> {
  return trx
    .updateTable('plans')
    .set((eb) => ({ ...set, updated_at: new Date(), version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Records a due date's visit; false when the date has one already (another instance got there first). */
export async function insertVisit(
  trx: Db,
  visit: { plan_id: string; due_date: string; state: 'booked' | 'needs-time' | 'skipped'; booking_id?: string | null; offered?: readonly Start[] | null },
): Promise<boolean> {
  const inserted = await trx
    .insertInto('plan_visits')
    .values({ ...visit, booking_id: visit.booking_id ?? null, offered: visit.offered ? JSON.stringify(visit.offered) : null })
    .onConflict((oc) => oc.columns(['plan_id', 'due_date']).doNothing())
    .returning('due_date')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findVisit(db: Db, planId: string, dueDate: string): Promise<PlanVisit | undefined> {
  return db.selectFrom('plan_visits').selectAll().where('plan_id', '=', planId).where('due_date', '=', dueDate).executeTakeFirst();
}

/** The visit a booking is (its plan's row naming it), or undefined when it is none. */
export async function findVisitOfBooking(db: Db, bookingId: string): Promise<PlanVisit | undefined> {
  return db.selectFrom('plan_visits').selectAll().where('booking_id', '=', bookingId).executeTakeFirst();
}

export async function setVisit(trx: Db, planId: string, dueDate: string, set: { state: 'booked' | 'needs-time' | 'skipped'; booking_id?: string | null; offered?: readonly Start[] | null; kept_at?: Date | null }): Promise<void> {
  const { offered, ...rest } = set;
  await trx
    .updateTable('plan_visits')
    .set({ ...rest, ...(offered !== undefined ? { offered: offered ? JSON.stringify(offered) : null } : {}) })
    .where('plan_id', '=', planId)
    .where('due_date', '=', dueDate)
    .execute();
}

export async function markVisitKept(trx: Db, bookingId: string, at: Date): Promise<boolean> {
  const rows = await trx.updateTable('plan_visits').set({ kept_at: at }).where('booking_id', '=', bookingId).where('state', '=', 'booked').executeTakeFirst();
  return Number(rows.numUpdatedRows) > 0;
}

export async function deleteVisitsAfter(trx: Db, planId: string, after: string): Promise<void> {
  await trx.deleteFrom('plan_visits').where('plan_id', '=', planId).where('due_date', '>', after).execute();
}

/** A plan's visit with its booking as it is now (null while it needs a time). */
export type VisitWithBooking = PlanVisit & { booking: Booking | null };

/** The plan's visits in date order, each with its booking. */
export async function visitsOf(db: Db, planId: string): Promise<VisitWithBooking[]> {
  const visits = await db.selectFrom('plan_visits').selectAll().where('plan_id', '=', planId).orderBy('due_date').execute();
  const ids = visits.map((v) => v.booking_id).filter((id): id is string => id !== null);
  const bookings = ids.length === 0 ? [] : await db.selectFrom('bookings').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(bookings.map((b) => [b.id, b]));
  return visits.map((v) => ({ ...v, booking: v.booking_id ? (byId.get(v.booking_id) ?? null) : null }));
}

/** The active plans whose visits are booked only up to before `through`: what the extension books next. */
export async function plansToExtend(db: Db, through: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('plans').select('id').where('status', '=', 'active').where('booked_through', '<', through).orderBy('booked_through').limit(limit).execute();
  return rows.map((r) => r.id);
}

/** Every plan for staff, with its customer, its next visit and how many visits wait for a time. */
export interface PlanListRow {
  id: string;
  status: string;
  interval_weeks: number;
  start_time: string;
  anchor_date: string;
  created_by: string;
  created_at: Date;
  booking_id: string;
  name: string;
  email: string;
  phone: string;
  service_type: string;
  next_date: string | null;
  next_time: string | null;
  needs_time: number;
}

export async function listPlans(db: Db, today: string, filter: { status?: string; customerKey?: string } = {}): Promise<PlanListRow[]> {
  let query = db
    .selectFrom('plans as p')
    .innerJoin('bookings as t', 't.id', 'p.booking_id')
    .select([
      'p.id',
      'p.status',
      'p.interval_weeks',
      'p.start_time',
      'p.anchor_date',
      'p.created_by',
      'p.created_at',
      'p.booking_id',
      't.name',
      't.email',
      't.phone',
      't.service_type',
    ])
    .select((eb) => [
      eb
        .selectFrom('plan_visits as v')
        .innerJoin('bookings as b', 'b.id', 'v.booking_id')
        .select(sql<string>`b.date || ' ' || b.time`.as('next'))
        .whereRef('v.plan_id', '=', 'p.id')
        .where('v.state', '=', 'booked')
        .where('b.status', 'in', ['pending', 'confirmed'])
        .where('b.date', '>=', today)
        .orderBy('b.date')
        .orderBy('b.time')
        .limit(1)
        .as('next'),
      eb
        .selectFrom('plan_visits as w')
        .select(sql<number>`count(*)::integer`.as('n'))
        .whereRef('w.plan_id', '=', 'p.id')
        .where('w.state', '=', 'needs-time')
        .where('w.due_date', '>=', today)
        .as('needs_time'),
    ]);
  if (filter.status) query = query.where('p.status', '=', filter.status);
  if (filter.customerKey) query = query.where(sql<string>`t.customer_key`, '=', filter.customerKey);
  const rows = await query.orderBy('p.created_at', 'desc').execute();
  return rows.map(({ next, ...row }) => {
    const [date, time] = next ? String(next).split(' ') : [null, null];
    return { ...row, next_date: date ?? null, next_time: time ?? null, needs_time: Number(row.needs_time ?? 0) };
  });
}
