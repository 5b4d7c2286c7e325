/**
 * The owner's Insights (issue 44): each measure added up by the database in one statement, over
 * the instants [from, to) of a range of Auckland days, so no booking is loaded into the server.
 * Weeks are ISO weeks of Auckland's calendar, named by their Monday; bookings are found by
 * starts_at (migrations/041_insights.sql), payments by completed_at.
 */
import { sql, type Kysely } from 'kysely';
import { PAYMENT_METHODS } from '../domain/completion.ts';
import { PLACE_HOLDING_STATUSES } from './availability.repository.ts';
import type { Database } from './database.ts';

type Db = Kysely<Database>;

/** The range asked for, and as many days just before it (for the summaries' "up from"). */
export interface InsightsPeriods {
  range: InsightsRange;
  before: InsightsRange;
}

export interface InsightsRange {
  /** First and last Auckland day, both included. */
  fromDay: string;
  toDay: string;
  /** [from, to): their instants. */
  from: Date;
  to: Date;
}

/** The Auckland ISO week (its Monday, YYYY-MM-DD) of an instant expression. */
const weekOf = (instant: ReturnType<typeof sql.ref>) => sql<Date>`date_trunc('week', ${instant} AT TIME ZONE 'Pacific/Auckland')::date`;
/** A week's Monday as text: formatted once per group, not once per row. */
const dayText = (week: ReturnType<typeof sql.ref>) => sql<string>`to_char(${week}, 'YYYY-MM-DD')`;

/** The statuses of a job that holds its van or bay: a waitlist offer not yet taken is not one. */
const JOB_STATUSES = PLACE_HOLDING_STATUSES.filter((status) => status !== 'offered');

type RevenueRow = { week: string; method: string; total_cents: number; gst_cents: number };
type WorkRow = { kind: 'package' | 'add-on'; code: string; description: string; quantity: number; total_cents: number; jobs: number };
type BeforeWork = { total_cents: number; gst_cents: number; work_cents: number };

/** JSON aggregates come back parsed from pg, as text from PGlite's driver. */
const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/**
 * The jobs completed in both periods, from their payments alone (each carries its job's lines and
 * whether it is still completed: migrations/042): the range's paid ones by week and payment method
 * (the takings' own rule: still completed, a known method), read from the payments' index alone,
 * and all its lines added up by kind and code; the period before's totals.
 */
export async function completedWork(db: Db, periods: InsightsPeriods): Promise<{ revenue: RevenueRow[]; work: WorkRow[]; before: BeforeWork }> {
  const { range, before } = periods;
  const completed = sql`completed_at >= ${before.from} AND completed_at < ${range.to} AND booking_completed`;
  const { rows } = await sql<{ revenue: unknown; work: unknown; before: unknown }>`
    WITH done AS MATERIALIZED (
      SELECT completed_at >= ${range.from} AS now, completed_at, payment_method, amount_cents, gst_cents
      FROM booking_payments WHERE ${completed} AND payment_method IN (${sql.join([...PAYMENT_METHODS])})
    ), lines AS MATERIALIZED (
      SELECT p.completed_at >= ${range.from} AS now, p.booking_id, l.kind, l.code, l.description, l.quantity, l."totalCents" AS total_cents
      FROM booking_payments p
      CROSS JOIN LATERAL jsonb_to_recordset(p.lines) AS l (kind text, code text, description text, quantity int, "totalCents" int)
      WHERE ${completed}
    ), revenue AS (
      SELECT ${dayText(sql.ref('week'))} AS week, method, total_cents, gst_cents FROM (
        SELECT ${weekOf(sql.ref('completed_at'))} AS week, payment_method AS method,
          sum(amount_cents)::int AS total_cents, sum(gst_cents)::int AS gst_cents
        FROM done WHERE now
        GROUP BY 1, 2
      ) AS w
    ), work AS (
      SELECT kind, code, min(description) AS description, sum(quantity)::int AS quantity, sum(total_cents)::int AS total_cents, count(DISTINCT booking_id)::int AS jobs
      FROM lines WHERE now
      GROUP BY 1, 2
    )
    SELECT (SELECT coalesce(json_agg(revenue), '[]') FROM revenue) AS revenue, (SELECT coalesce(json_agg(work), '[]') FROM work) AS work,
      (SELECT json_build_object('total_cents', coalesce(sum(amount_cents), 0), 'gst_cents', coalesce(sum(gst_cents), 0),
        'work_cents', (SELECT coalesce(sum(total_cents), 0) FROM lines WHERE NOT now))
       FROM done WHERE NOT now) AS before`.execute(db);
  const row = rows[0]!;
  return { revenue: parsed<RevenueRow[]>(row.revenue), work: parsed<WorkRow[]>(row.work), before: parsed<BeforeWork>(row.before) };
}

/**
 * Each active van and bay by week: the minutes open (its kind's working hours on each day of the
 * range, less the closures of the day, its kind or itself, as multiranges so overlapping closures
 * count once) and the minutes of those its jobs hold (the union of their `held` ranges, so inside
 * the hours open only).
 */
export async function utilisationByWeek(db: Db, periods: InsightsPeriods) {
  const { range, before } = periods;
  const { rows } = await sql<{ id: string | null; name: string; kind: string; week: string | null; open_minutes: number; held_minutes: number }>`
    WITH days AS (
      SELECT d::date AS day FROM generate_series(${before.fromDay}::date, ${range.toDay}::date, interval '1 day') AS d
    ), open AS (
      SELECT r.id, r.name, r.kind, r.position, days.day,
        tstzmultirange(tstzrange((days.day + wh.opens::time) AT TIME ZONE 'Pacific/Auckland', (days.day + wh.closes::time) AT TIME ZONE 'Pacific/Auckland'))
          - coalesce((SELECT range_agg(c.during) FROM closures c
                      WHERE c.starts_at < (days.day + wh.closes::time) AT TIME ZONE 'Pacific/Auckland'
                        AND c.ends_at > (days.day + wh.opens::time) AT TIME ZONE 'Pacific/Auckland'
                        AND (c.resource_id = r.id OR c.kind = r.kind OR (c.resource_id IS NULL AND c.kind IS NULL))), '{}'::tstzmultirange) AS hours
      FROM resources r CROSS JOIN days
      JOIN working_hours wh ON wh.kind = r.kind AND wh.weekday = extract(isodow FROM days.day)
      WHERE r.active
    ), held AS (
      SELECT b.resource_id, (b.starts_at AT TIME ZONE 'Pacific/Auckland')::date AS day, range_agg(b.held) AS held
      FROM bookings b
      WHERE b.starts_at >= ${before.from} AND b.starts_at < ${range.to}
        AND b.resource_id IS NOT NULL AND b.status IN (${sql.join(JOB_STATUSES)})
      GROUP BY 1, 2
    ), per_day AS (
      SELECT o.id, o.day >= ${range.fromDay}::date AS now, date_trunc('week', o.day)::date AS week,
        (SELECT coalesce(sum(extract(epoch FROM upper(x) - lower(x))), 0) FROM unnest(o.hours) AS x) AS open_seconds,
        (SELECT coalesce(sum(extract(epoch FROM upper(x) - lower(x))), 0) FROM unnest(o.hours * h.held) AS x) AS held_seconds
      FROM open o LEFT JOIN held h ON h.resource_id = o.id AND h.day = o.day
    )
    SELECT r.id, r.name, r.kind, to_char(w.week, 'YYYY-MM-DD') AS week,
      coalesce(round(sum(p.open_seconds) / 60), 0)::int AS open_minutes, coalesce(round(sum(p.held_seconds) / 60), 0)::int AS held_minutes, r.position
    FROM resources r
    CROSS JOIN (SELECT DISTINCT date_trunc('week', day)::date AS week FROM days WHERE day >= ${range.fromDay}::date) AS w
    LEFT JOIN per_day p ON p.id = r.id AND p.week = w.week AND p.now
    WHERE r.active
    GROUP BY r.id, r.name, r.kind, r.position, w.week
    UNION ALL
    -- The period before: every van and bay together.
    SELECT NULL, '', '', NULL, coalesce(round(sum(open_seconds) / 60), 0)::int, coalesce(round(sum(held_seconds) / 60), 0)::int, NULL
    FROM per_day WHERE NOT now
    ORDER BY position NULLS FIRST, name, id, week`.execute(db);
  return rows;
}

/**
 * The customers with a job (a booking in a status that holds its place, an offer aside) starting
 * in either period: by week of the range, and over each period (`week` null, `period` saying which).
 * A customer is new where their first job ever starts (customers.first_job_at: migrations/042), so
 * each new customer counts in one week of one period, and the weeks add up to the range; the rest
 * are returning. An erased booking belongs to no customer (its key is 'p:').
 */
export async function customersByWeek(db: Db, periods: InsightsPeriods) {
  const { range, before } = periods;
  const { rows } = await sql<{ week: string | null; period: 'range' | 'before'; new: number; returning: number }>`
    WITH seen AS MATERIALIZED (
      SELECT DISTINCT customer_key, ${weekOf(sql.ref('starts_at'))} AS week, starts_at >= ${range.from} AS now
      FROM bookings
      WHERE starts_at >= ${before.from} AND starts_at < ${range.to} AND status IN (${sql.join(JOB_STATUSES)}) AND customer_key <> 'p:'
    ), firsts AS MATERIALIZED (
      SELECT ${weekOf(sql.ref('first_job_at'))} AS week, first_job_at >= ${range.from} AS now
      FROM customers WHERE first_job_at >= ${before.from} AND first_job_at < ${range.to}
    ), weeks AS (
      SELECT week, count(*) AS seen, (SELECT count(*) FROM firsts f WHERE f.now AND f.week = s.week) AS new
      FROM seen s WHERE now GROUP BY week
    )
    SELECT ${dayText(sql.ref('week'))} AS week, 'range' AS period, new::int, (seen - new)::int AS returning FROM weeks
    UNION ALL
    SELECT NULL, CASE WHEN p.now THEN 'range' ELSE 'before' END,
      (SELECT count(*) FROM firsts f WHERE f.now = p.now)::int,
      ((SELECT count(DISTINCT customer_key) FROM seen s WHERE s.now = p.now) - (SELECT count(*) FROM firsts f WHERE f.now = p.now))::int
    FROM (VALUES (true), (false)) AS p (now)`.execute(db);
  return rows;
}

const LEAD_DAYS = sql`b.lead`;

/** The losses and lead times of one period's bookings (`prefix` names its columns), as aggregates of `b`. */
function lossesAndLeads(now: boolean, prefix: string, buckets: readonly { min: number; max: number | null }[]) {
  const of = (condition: ReturnType<typeof sql>) => sql`FILTER (WHERE b.now = ${sql.lit(now)} AND ${condition})`;
  const column = (name: string) => sql.ref(`${prefix}${name}`);
  const cancelled = sql`b.status = 'cancelled' AND b.lapsed_at IS NULL`;
  const noShow = sql`b.status = 'no-show'`;
  const lapsed = sql`b.status = 'cancelled' AND b.lapsed_at IS NOT NULL`;
  const kept = sql`b.status <> 'cancelled'`;
  return sql.join([
    sql`count(*) ${of(sql`true`)}::int AS ${column('bookings')}`,
    ...[['cancelled', cancelled], ['no_show', noShow], ['lapsed', lapsed]].flatMap(([name, condition]) => [
      sql`count(*) ${of(condition as ReturnType<typeof sql>)}::int AS ${column(name as string)}`,
      sql`coalesce(sum(b.total_cents) ${of(condition as ReturnType<typeof sql>)}, 0)::int AS ${column(`${name}_cents`)}`,
    ]),
    sql`count(*) ${of(kept)}::int AS ${column('lead_count')}`,
    sql`(percentile_cont(0.5) WITHIN GROUP (ORDER BY ${LEAD_DAYS}) ${of(kept)})::float8 AS ${column('lead_median')}`,
    ...buckets.map(
      (bucket, i) =>
        sql`count(*) ${of(sql`${kept} AND ${LEAD_DAYS} >= ${bucket.min}${bucket.max === null ? sql`` : sql` AND ${LEAD_DAYS} <= ${bucket.max}`}`)}::int AS ${column(`bucket_${i}`)}`,
    ),
  ]);
}

export type LostRow = Record<string, number | null>;

/**
 * The bookings starting in either period, read once (offers aside): the lost ones and their
 * totals, the lead times of the others (Auckland dates: each converted once), and, in the range,
 * their starts by ISO weekday and hour. The period before's columns are named `before_…`.
 */
export async function bookingsStarting(db: Db, periods: InsightsPeriods, buckets: readonly { min: number; max: number | null }[]) {
  const { range, before } = periods;
  const { rows } = await sql<Record<string, unknown>>`
    WITH b AS MATERIALIZED (
      SELECT status, lapsed_at, total_cents, local, starts_at >= ${range.from} AS now,
        local::date - (created_at AT TIME ZONE 'Pacific/Auckland')::date AS lead
      FROM (SELECT *, starts_at AT TIME ZONE 'Pacific/Auckland' AS local FROM bookings
            WHERE starts_at >= ${before.from} AND starts_at < ${range.to} AND status <> 'offered') AS s
    ), starts AS (
      SELECT extract(isodow FROM local)::int AS weekday, extract(hour FROM local)::int AS hour, count(*)::int AS count
      FROM b WHERE now AND status <> 'cancelled' GROUP BY 1, 2
    )
    SELECT ${lossesAndLeads(true, '', buckets)}, ${lossesAndLeads(false, 'before_', [])},
      (SELECT coalesce(json_agg(starts), '[]') FROM starts) AS starts
    FROM b`.execute(db);
  const row = rows[0]!;
  const starts = parsed<{ weekday: number; hour: number; count: number }[]>(row.starts);
  const before_ = Object.fromEntries(Object.entries(row).filter(([key]) => key.startsWith('before_')).map(([key, value]) => [key.slice('before_'.length), value]));
  return { lost: row as LostRow, before: before_ as LostRow, starts };
}
