/**
 * The owner's Insights (issue 44): the TypeBox schema of GET /v1/insights, and its static type for
 * the dashboard's Insights view (which imports the type only). Weeks are ISO weeks in Auckland,
 * named by their Monday (YYYY-MM-DD); money is in cents, GST inclusive.
 */
import { Type, type Static } from 'typebox';
import { PAYMENT_METHODS } from '../domain/completion.ts';

const Cents = Type.Integer({ description: 'Cents, GST inclusive' });
const Week = Type.String({ format: 'date', description: "The ISO week's Monday (Auckland)" });

const ByMethod = Type.Object(Object.fromEntries(PAYMENT_METHODS.map((m) => [m, Type.Integer()])) as Record<(typeof PAYMENT_METHODS)[number], ReturnType<typeof Type.Integer>>);

const Money = Type.Object({ totalCents: Cents, gstCents: Type.Integer({ description: 'The GST in totalCents' }), byMethod: ByMethod });

const Work = Type.Object({
  code: Type.String({ description: 'The package name, or the add-on id' }),
  name: Type.String(),
  count: Type.Integer({ minimum: 0, description: 'How many were done (an add-on taken twice counts twice)' }),
  jobs: Type.Integer({ minimum: 0, description: 'In how many jobs' }),
  amountCents: Type.Integer({ minimum: 0, description: "Their lines' amount at list price" }),
});

const Use = Type.Object({ heldMinutes: Type.Integer({ minimum: 0 }), openMinutes: Type.Integer({ minimum: 0 }) });

const Lost = Type.Object({ count: Type.Integer({ minimum: 0 }), amountCents: Cents });

export const INSIGHTS_LEAD_BUCKETS = [
  { label: '0–1', min: 0, max: 1 },
  { label: '2–3', min: 2, max: 3 },
  { label: '4–7', min: 4, max: 7 },
  { label: '8–14', min: 8, max: 14 },
  { label: '15–30', min: 15, max: 30 },
  { label: '31+', min: 31, max: null },
] as const;

/** The heat map's hours: job starts from 07:00 to 20:59, Auckland wall time, one column an hour. */
export const INSIGHTS_FIRST_HOUR = 7;
export const INSIGHTS_HOURS = 14;

export const InsightsSchema = Type.Object({
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  weeks: Type.Array(Week, { description: 'The ISO weeks the range touches, oldest first' }),
  revenue: Type.Object(
    { ...Money.properties, weeks: Type.Array(Type.Object({ week: Week, ...Money.properties })) },
    { description: 'What was taken: the jobs completed in the range (and still completed) that are paid, by the week they were completed in, by payment method (as GET /v1/takings adds them up)' },
  ),
  work: Type.Object(
    { byPackage: Type.Array(Work), byAddOn: Type.Array(Work) },
    { description: 'The packages and add-ons of the jobs completed in the range, the largest amount first' },
  ),
  utilisation: Type.Object(
    {
      ...Use.properties,
      resources: Type.Array(
        Type.Object({
          id: Type.String({ format: 'uuid' }),
          name: Type.String(),
          kind: Type.String({ description: "'onsite' (a van) or 'dropoff' (a bay)" }),
          ...Use.properties,
          weeks: Type.Array(Type.Object({ week: Week, ...Use.properties })),
        }),
      ),
    },
    {
      description:
        "Each active van and bay, week by week: the minutes its jobs (pending, confirmed, completed, no-show; travel buffer included) hold inside its hours open (the kind's working hours of each day of the range, less closures of the day, the kind or the resource)",
    },
  ),
  customers: Type.Object(
    {
      new: Type.Integer({ minimum: 0 }),
      returning: Type.Integer({ minimum: 0 }),
      weeks: Type.Array(Type.Object({ week: Week, new: Type.Integer({ minimum: 0 }), returning: Type.Integer({ minimum: 0 }) })),
    },
    {
      description:
        "The customers with a job (a booking pending, confirmed, completed or a no-show) starting in the range: new in the week their first job ever starts, when that is in the range, else returning; so the weeks' new customers add up to the range's. An erased customer is no longer counted",
    },
  ),
  losses: Type.Object(
    { bookings: Type.Integer({ minimum: 0, description: 'Every booking starting in the range (offers excepted)' }), cancelled: Lost, noShow: Lost, lapsed: Lost },
    { description: 'The bookings starting in the range that were cancelled (lapsed ones apart), were no-shows, or lapsed unconfirmed, and their totals' },
  ),
  leadTime: Type.Object(
    {
      count: Type.Integer({ minimum: 0 }),
      medianDays: Type.Union([Type.Number(), Type.Null()]),
      buckets: Type.Array(Type.Object({ label: Type.String(), min: Type.Integer(), max: Type.Union([Type.Integer(), Type.Null()]), count: Type.Integer({ minimum: 0 }) })),
    },
    { description: 'Days from booking to appointment (Auckland dates) of the bookings (not cancelled) starting in the range' },
  ),
  previous: Type.Object(
    {
      from: Type.String({ format: 'date' }),
      to: Type.String({ format: 'date' }),
      revenue: Type.Object({ totalCents: Cents, gstCents: Type.Integer() }),
      work: Type.Object({ amountCents: Type.Integer({ minimum: 0, description: "The completed jobs' lines at list price" }) }),
      utilisation: Use,
      customers: Type.Object({ new: Type.Integer({ minimum: 0 }), returning: Type.Integer({ minimum: 0 }) }),
      losses: Type.Object({ bookings: Type.Integer({ minimum: 0 }), cancelled: Lost, noShow: Lost, lapsed: Lost }),
      leadTime: Type.Object({ count: Type.Integer({ minimum: 0 }), medianDays: Type.Union([Type.Number(), Type.Null()]) }),
    },
    {
      description:
        "The same totals, counted the same way, for as many days just before the range (April's 30 days: 2 to 31 March), for the summaries' \"up from\": revenue, the work's amount, utilisation, customers, losses and lead time",
    },
  ),
  heatMap: Type.Object(
    {
      firstHour: Type.Integer(),
      counts: Type.Array(Type.Array(Type.Integer({ minimum: 0 })), { description: 'Seven rows, Monday first, of fourteen hours from firstHour: the jobs (not cancelled) starting then' }),
      outside: Type.Integer({ minimum: 0, description: 'Job starts outside those hours' }),
    },
    { description: 'Job starts by weekday and hour, Auckland wall time' },
  ),
});
export type InsightsDto = Static<typeof InsightsSchema>;
