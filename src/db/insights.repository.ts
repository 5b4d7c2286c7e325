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

/**
 * The payments of the range, and the bookings still completed among theirs: found by their ids
 * (`= ANY` of the payments' own, so by the primary key) rather than by status, which a third of all
 * bookings share and the planner would read whole.
 */
const completedInRange = (range: InsightsRange) => sql`
  p AS MATERIALIZED (
    SELECT booking_id, completed_at, payment_method, amount_cents, gst_cents FROM booking_payments
    WHERE completed_at >= ${range.from} AND completed_at < ${range.to}
  ), done AS MATERIALIZED (
    SELECT p.*, b.lines FROM p JOIN bookings b ON b.id = p.booking_id
    WHERE b.id = ANY(ARRAY(SELECT booking_id FROM p)) AND b.status = 'completed'
  )`;

type RevenueRow = { week: string; method: string; total_cents: number; gst_cents: number };
type WorkRow = { kind: 'package' | 'add-on'; code: string; description: string; quantity: number; total_cents: number; jobs: number };

/** JSON aggregates come back parsed from pg, as text from PGlite's driver. */
const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/**
 * The jobs completed in the range, read once: paid ones by week and payment method (the takings'
 * own rule: still completed, a known method), and all their lines added up by kind and code.
 */
export async function completedWork(db: Db, range: InsightsRange): Promise<{ revenue: RevenueRow[]; work: WorkRow[] }> {
  const { rows } = await sql<{ revenue: unknown; work: unknown }>`
    WITH ${completedInRange(range)}, revenue AS (
      SELECT ${dayText(sql.ref('week'))} AS week, method, total_cents, gst_cents FROM (
        SELECT ${weekOf(sql.ref('completed_at'))} AS week, payment_method AS method,
          sum(amount_cents)::int AS total_cents, sum(gst_cents)::int AS gst_cents
        FROM done WHERE payment_method IN (${sql.join([...PAYMENT_METHODS])})
        GROUP BY 1, 2
      ) AS w
    ), work AS (
      SELECT l->>'kind' AS kind, l->>'code' AS code, min(l->>'description') AS description,
        sum((l->>'quantity')::int)::int AS quantity, sum((l->>'totalCents')::int)::int AS total_cents, count(DISTINCT done.booking_id)::int AS jobs
      FROM done CROSS JOIN LATERAL jsonb_array_elements(done.lines) AS l
      GROUP BY 1, 2
    )
    SELECT (SELECT coalesce(json_agg(revenue), '[]') FROM revenue) AS revenue, (SELECT coalesce(json_agg(work), '[]') FROM work) AS work`.execute(db);
  return { revenue: parsed<RevenueRow[]>(rows[0]!.revenue), work: parsed<WorkRow[]>(rows[0]!.work) };
}

/**
 * Each active van and bay by week: the minutes open (its kind's working hours on each day of the
 * range, less the closures of the day, its kind or itself, as multiranges so overlapping closures
 * count once) and the minutes of those its jobs hold (the union of their `held` ranges, so inside
 * the hours open only).
 */
export async function utilisationByWeek(db: Db, range: InsightsRange) {
  const { rows } = await sql<{ id: string; name: string; kind: string; week: string; open_minutes: number; held_minutes: number }>`
    WITH days AS (
      SELECT d::date AS day FROM generate_series(${range.fromDay}::date, ${range.toDay}::date, interval '1 day') AS d
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
      WHERE b.starts_at >= ${range.from}::timestamptz - interval '1 day' AND b.starts_at < ${range.to}
        AND b.resource_id IS NOT NULL AND b.status IN (${sql.join(JOB_STATUSES)})
      GROUP BY 1, 2
    ), per_day AS (
      SELECT o.id, o.name, o.kind, o.position, date_trunc('week', o.day)::date AS week,
        (SELECT coalesce(sum(extract(epoch FROM upper(x) - lower(x))), 0) FROM unnest(o.hours) AS x) AS open_seconds,
        (SELECT coalesce(sum(extract(epoch FROM upper(x) - lower(x))), 0) FROM unnest(o.hours * h.held) AS x) AS held_seconds
      FROM open o LEFT JOIN held h ON h.resource_id = o.id AND h.day = o.day
    )
    SELECT r.id, r.name, r.kind, to_char(w.week, 'YYYY-MM-DD') AS week,
      coalesce(round(sum(p.open_seconds) / 60), 0)::int AS open_minutes, coalesce(round(sum(p.held_seconds) / 60), 0)::int AS held_minutes
    FROM resources r
    CROSS JOIN (SELECT DISTINCT date_trunc('week', day)::date AS week FROM days) AS w
    LEFT JOIN per_day p ON p.id = r.id AND p.week = w.week
    WHERE r.active
    GROUP BY r.id, r.name, r.kind, r.position, w.week
    ORDER BY r.position, r.name, r.id, w.week`.execute(db);
  return rows;
}

/**
 * The customers with a booking (not cancelled) starting in the range, by week: new when their
 * first such booking ever starts in that week, else returning; and the range's distinct customers
 * (week null) new or returning by whether their first booking starts before the range.
 */
export async function customersByWeek(db: Db, range: InsightsRange) {
  const { rows } = await sql<{ week: string | null; new: number; returning: number }>`
    WITH seen AS (
      SELECT DISTINCT b.customer_key, ${weekOf(sql.ref('b.starts_at'))} AS week
      FROM bookings b
      WHERE b.starts_at >= ${range.from} AND b.starts_at < ${range.to} AND b.status IN (${sql.join(JOB_STATUSES)}) AND b.customer_key IS NOT NULL
    ), firsts AS (
      SELECT k.customer_key, f.first, ${weekOf(sql.ref('f.first'))} AS first_week
      FROM (SELECT DISTINCT customer_key FROM seen) AS k
      CROSS JOIN LATERAL (SELECT min(f.starts_at) AS first FROM bookings f WHERE f.customer_key = k.customer_key AND f.status IN (${sql.join(JOB_STATUSES)})) AS f
    )
    SELECT ${dayText(sql.ref('s.week'))} AS week, count(*) FILTER (WHERE f.first_week = s.week)::int AS new, count(*) FILTER (WHERE f.first_week < s.week)::int AS returning
    FROM seen s JOIN firsts f USING (customer_key)
    GROUP BY s.week
    UNION ALL
    SELECT NULL, count(*) FILTER (WHERE f.first >= ${range.from})::int, count(*) FILTER (WHERE f.first < ${range.from})::int
    FROM firsts f`.execute(db);
  return rows;
}

const LEAD_DAYS = sql`b.lead`;

/**
 * The bookings starting in the range, read once: the lost ones and their totals, the lead times of
 * the others (Auckland dates: each converted once), and their starts by ISO weekday and hour.
 */
export async function bookingsStarting(db: Db, range: InsightsRange, buckets: readonly { min: number; max: number | null }[]) {
  const { rows } = await sql<Record<string, unknown>>`
    WITH b AS MATERIALIZED (
      SELECT status, lapsed_at, total_cents, local,
        local::date - (created_at AT TIME ZONE 'Pacific/Auckland')::date AS lead
      FROM (SELECT *, starts_at AT TIME ZONE 'Pacific/Auckland' AS local FROM bookings
            WHERE starts_at >= ${range.from} AND starts_at < ${range.to} AND status <> 'offered') AS s
    ), starts AS (
      SELECT extract(isodow FROM local)::int AS weekday, extract(hour FROM local)::int AS hour, count(*)::int AS count
      FROM b WHERE status <> 'cancelled' GROUP BY 1, 2
    )
    SELECT count(*)::int AS bookings,
      count(*) FILTER (WHERE b.status = 'cancelled' AND b.lapsed_at IS NULL)::int AS cancelled,
      coalesce(sum(b.total_cents) FILTER (WHERE b.status = 'cancelled' AND b.lapsed_at IS NULL), 0)::int AS cancelled_cents,
      count(*) FILTER (WHERE b.status = 'no-show')::int AS no_show,
      coalesce(sum(b.total_cents) FILTER (WHERE b.status = 'no-show'), 0)::int AS no_show_cents,
      count(*) FILTER (WHERE b.status = 'cancelled' AND b.lapsed_at IS NOT NULL)::int AS lapsed,
      coalesce(sum(b.total_cents) FILTER (WHERE b.status = 'cancelled' AND b.lapsed_at IS NOT NULL), 0)::int AS lapsed_cents,
      count(*) FILTER (WHERE b.status <> 'cancelled')::int AS lead_count,
      (percentile_cont(0.5) WITHIN GROUP (ORDER BY ${LEAD_DAYS}) FILTER (WHERE b.status <> 'cancelled'))::float8 AS lead_median,
      ${sql.join(
        buckets.map(
          (bucket, i) =>
            sql`count(*) FILTER (WHERE b.status <> 'cancelled' AND ${LEAD_DAYS} >= ${bucket.min}${bucket.max === null ? sql`` : sql` AND ${LEAD_DAYS} <= ${bucket.max}`})::int AS ${sql.ref(`bucket_${i}`)},`,
        ),
        sql``,
      )}
      (SELECT coalesce(json_agg(starts), '[]') FROM starts) AS starts
    FROM b`.execute(db);
  const row = rows[0]!;
  const starts = parsed<{ weekday: number; hour: number; count: number }[]>(row.starts);
  return { lost: row as Record<string, number | null>, starts };
}
