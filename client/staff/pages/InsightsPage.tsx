/**
 * /dashboard/insights (issue 44): the owner's Insights for this week, month, quarter or a range of
 * days, rendered by the server and hydrated. One chart per measure of GET /v1/insights, each
 * hand-drawn SVG (a few bars and a grid need no scale library, and the page stays one small chunk)
 * scaled to its box so it reads at 390 px, with its title, a sentence comparing it with the days
 * before (insights-words.ts), the same numbers as a table (insights-tables.ts) and a link to them as
 * CSV. The range form is a plain GET form, so it works without JavaScript; with it, a change
 * fetches the figures and updates the charts and the address without a reload.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { InsightsDto } from '#api/insights-schemas.ts';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '#domain/completion.ts';
import { formatNzd } from '#domain/pricing.ts';
import { INSIGHTS_PAGE_PATH } from '#domain/site-paths.ts';
import { WEEKDAYS, insightsCsvPath, insightsTables, percent, rangeOf, type InsightsChart, type InsightsRange, type InsightsTable } from '../lib/insights-tables.ts';
import { insightsSummaries } from '../lib/insights-words.ts';
import { StaffBar } from '../components/StaffBar.tsx';
import type { PageProps } from '../../page-props.ts';
import type { InsightsState } from '../../page-state.ts';
import './DashboardPage.css';
import './InsightsPage.css';

interface Series {
  name: string;
  values: number[];
}

const COLOURS = ['#1d4e89', '#e07a1f', '#2a9d8f', '#9b5de5'];
const WIDTH = 360;
/** About the width of a character at the charts' font sizes, in the drawing's units: a label's room. */
const CHAR_WIDTH = 7;
/** The longest category name drawn whole beside its bar; longer ones end in '…' (the table has them whole). */
const LABEL_CHARS = 17;

const shortWeek = (week: string) => new Date(`${week}T00:00:00Z`).toLocaleDateString('en-NZ', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const shortLabel = (label: string) => (label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1).trimEnd()}…` : label);

/** A chart's frame: title, summary, the drawing, its numbers as a table, and the link to their CSV. */
function Chart({ chart, title, summary, table, from, to, children }: { chart: InsightsChart; title: string; summary: string; table: InsightsTable; from: string; to: string; children: ReactNode }) {
  const id = `insights-${chart}`;
  return (
    <figure className="insights-chart" aria-labelledby={`${id}-title`} data-chart={chart}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="insights-summary" id={`${id}-summary`}>
        {summary}
      </p>
      {children}
      <details>
        <summary>{title}: the numbers</summary>
        <div className="insights-table-box" role="region" aria-label={`${title}: the numbers`} tabIndex={0}>
          <table className="insights-table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                {table.head.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, i) => (
                <tr key={i}>{row.map((cell, j) => (j === 0 ? <th key={j} scope="row">{cell}</th> : <td key={j}>{cell}</td>))}</tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
      <a className="button button-ghost button-small" href={insightsCsvPath(chart, from, to)} download>
        Download CSV<span className="visually-hidden"> of {title}</span>
      </a>
    </figure>
  );
}

/** Bars, one a category, stacked by series; horizontal so that long names and many weeks fit a phone. */
function Bars({ label, categories, series, format = String, scale: full }: { label: string; categories: string[]; series: Series[]; format?: (n: number) => string; scale?: number }) {
  const totals = categories.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  // A full bar is `scale` (100 for per cents), else the largest total.
  const max = full ?? Math.max(1, ...totals);
  const row = 26;
  const left = 116;
  // Room for the longest total beside its bar ('$77,400.00'), so that none runs off the drawing.
  const right = 8 + CHAR_WIDTH * Math.max(3, ...totals.map((total) => format(total).length));
  const legend = series.length > 1 ? 22 : 0;
  // Each legend entry as wide as its name.
  const keys = series.map((s, k) => 28 * k + CHAR_WIDTH * series.slice(0, k).reduce((sum, before) => sum + before.name.length, 0));
  const height = legend + categories.length * row + 4;
  const scale = (WIDTH - left - right) / max;
  return (
    <svg className="insights-svg" viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={label} fill="currentColor">
      {series.length > 1 &&
        series.map((s, k) => (
          <g key={s.name} transform={`translate(${keys[k]}, 4)`}>
            <rect width="12" height="12" fill={COLOURS[k % COLOURS.length]} />
            <text x="16" y="11" fontSize="11">
              {s.name}
            </text>
          </g>
        ))}
      {categories.map((category, i) => {
        let x = left;
        const y = legend + i * row;
        return (
          <g key={`${i}-${category}`}>
            <text x={left - 6} y={y + 16} fontSize="12" textAnchor="end">
              {shortLabel(category)}
            </text>
            {series.map((s, k) => {
              const width = (s.values[i] ?? 0) * scale;
              const rect = <rect key={s.name} x={x} y={y + 4} width={width} height={row - 8} fill={COLOURS[k % COLOURS.length]} />;
              x += width;
              return rect;
            })}
            <text x={x + 4} y={y + 16} fontSize="12">
              {format(totals[i]!)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** Job starts by weekday and hour: a 7 × 14 grid, darker for more. */
function HeatMap({ label, heatMap }: { label: string; heatMap: InsightsDto['heatMap'] }) {
  const max = Math.max(1, ...heatMap.counts.flat());
  const left = 34;
  const cell = (WIDTH - left) / 14;
  return (
    <svg className="insights-svg" viewBox={`0 0 ${WIDTH} ${7 * cell + 16}`} role="img" aria-label={label} fill="currentColor">
      {heatMap.counts.map((row, d) => (
        <g key={d}>
          <text x={left - 4} y={d * cell + cell / 2 + 4} fontSize="11" textAnchor="end">
            {WEEKDAYS[d]!.slice(0, 3)}
          </text>
          {row.map((count, h) => (
            <rect key={h} x={left + h * cell} y={d * cell} width={cell - 2} height={cell - 2} fill="#1d4e89" fillOpacity={count === 0 ? 0.06 : 0.15 + (0.85 * count) / max} />
          ))}
        </g>
      ))}
      {[0, 3, 6, 9, 12].map((h) => (
        <text key={h} x={left + h * cell} y={7 * cell + 12} fontSize="11">
          {heatMap.firstHour + h}
        </text>
      ))}
    </svg>
  );
}

function Charts({ data }: { data: InsightsDto }) {
  const weeks = data.weeks.map(shortWeek);
  const tables = insightsTables(data);
  const summaries = insightsSummaries(data);
  const { revenue, utilisation, customers, losses, leadTime, heatMap } = data;
  const work = [...data.work.byPackage, ...data.work.byAddOn];
  const frame = (chart: InsightsChart, title: string) => ({ chart, title, summary: summaries[chart], table: tables[chart], from: data.from, to: data.to });

  return (
    <div className="insights-charts">
      <Chart {...frame('revenue', 'Revenue taken by week')}>
        <Bars
          label="Revenue taken by week, stacked by payment method"
          categories={weeks}
          series={PAYMENT_METHODS.map((m) => ({ name: PAYMENT_METHOD_LABELS[m], values: revenue.weeks.map((w) => w.byMethod[m]) }))}
          format={formatNzd}
        />
      </Chart>

      <Chart {...frame('work', 'Packages and add-ons')}>
        <Bars label="Amount by package and add-on" categories={work.map((w) => w.name)} series={[{ name: 'Amount', values: work.map((w) => w.amountCents) }]} format={formatNzd} />
      </Chart>

      <Chart {...frame('utilisation', 'Utilisation of vans and bays')}>
        <Bars
          label="Utilisation of each van and bay over the range, in per cent"
          categories={utilisation.resources.map((r) => r.name)}
          series={[{ name: 'Utilisation', values: utilisation.resources.map((r) => percent(r.heldMinutes, r.openMinutes) ?? 0) }]}
          scale={100}
          format={(n) => `${n}%`}
        />
      </Chart>

      <Chart {...frame('customers', 'New and returning customers by week')}>
        <Bars
          label="New and returning customers by week"
          categories={weeks}
          series={[
            { name: 'New', values: customers.weeks.map((w) => w.new) },
            { name: 'Returning', values: customers.weeks.map((w) => w.returning) },
          ]}
        />
      </Chart>

      <Chart {...frame('losses', 'Cancellations, no-shows and lapsed bookings')}>
        <Bars
          label="Amount lost to cancellations, no-shows and lapsed bookings"
          categories={['Cancelled', 'No-show', 'Lapsed']}
          series={[{ name: 'Amount', values: [losses.cancelled.amountCents, losses.noShow.amountCents, losses.lapsed.amountCents] }]}
          format={formatNzd}
        />
      </Chart>

      <Chart {...frame('lead-time', 'Lead time')}>
        <Bars label="Bookings by days from booking to appointment" categories={leadTime.buckets.map((b) => `${b.label} days`)} series={[{ name: 'Bookings', values: leadTime.buckets.map((b) => b.count) }]} />
      </Chart>

      <Chart {...frame('busiest', 'Busiest weekdays and hours')}>
        <HeatMap label="Job starts by weekday and hour, darker for more" heatMap={heatMap} />
      </Chart>
    </div>
  );
}

const RANGE_LABELS: Record<InsightsRange, string> = { week: 'This week', month: 'This month', quarter: 'This quarter', custom: 'From – to' };

/** The page's own address for a range: a preset by name, two dates as they are. */
const addressOf = (range: InsightsRange, from: string, to: string) => `${INSIGHTS_PAGE_PATH}?${new URLSearchParams(range === 'custom' ? { range, from, to } : { range })}`;

function Forbidden() {
  return (
    <>
      <h1>Insights</h1>
      <p className="notice notice-error" role="alert">
        Only the owner sees the Insights.
      </p>
    </>
  );
}

function Insights({ state }: { state: InsightsState }) {
  // False in the server's page and while hydrating: the dates stay in the form until then.
  // useHydrated's two lines (client/lib/use-hydrated.ts), not the import: sharing that module
  // regroups the booking wizard's chunks, 96 bytes more gzip on a page at the edge of its budget.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [range, setRange] = useState(state.range);
  const [dates, setDates] = useState({ from: state.from, to: state.to });
  const [data, setData] = useState(state.insights);
  const [error, setError] = useState(state.error);
  const [busy, setBusy] = useState(false);

  async function show(chosen: InsightsRange, from: string, to: string) {
    setError(null);
    setBusy(true);
    try {
      // A plain fetch: the staff API's client would bring its 1 KB to this page.
      const response = await fetch(`/v1/insights?${new URLSearchParams({ from, to })}`, { headers: { accept: 'application/json' } });
      const body = await response.json().catch(() => ({}));
      if (response.status === 401) return window.location.assign('/dashboard');
      if (!response.ok) return setError(typeof body.message === 'string' ? body.message : `The insights could not be loaded (${response.status}).`);
      setData(body as InsightsDto);
      window.history.replaceState(null, '', addressOf(chosen, from, to));
    } catch {
      setError('The insights could not be loaded. Check the connection and try again.');
    } finally {
      setBusy(false);
    }
  }

  const choose = (next: InsightsRange) => {
    setRange(next);
    if (next === 'custom') return;
    const chosen = rangeOf(next, state.today);
    setDates(chosen);
    void show(next, chosen.from, chosen.to);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = range === 'custom' ? dates : rangeOf(range, state.today);
    setDates(chosen);
    void show(range, chosen.from, chosen.to);
  };

  return (
    <>
      <h1 id="insights-title">Insights</h1>
      {/* A GET form to this page: without JavaScript the server answers it with the range's page. */}
      <form className="insights-range" method="get" action={INSIGHTS_PAGE_PATH} onSubmit={submit} aria-labelledby="insights-title">
        <label htmlFor="insights-choice">Range</label>
        <select id="insights-choice" name="range" value={range} onChange={(e) => choose(e.target.value as InsightsRange)}>
          {Object.entries(RANGE_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        {/* Always in the server's page (a form without JavaScript needs them); hidden once hydrated unless "From – to" is chosen. */}
        <span className="insights-dates" hidden={hydrated && range !== 'custom'}>
          <label htmlFor="insights-from">From</label>
          <input id="insights-from" name="from" type="date" value={dates.from} onChange={(e) => setDates((d) => ({ ...d, from: e.target.value }))} />
          <label htmlFor="insights-to">To</label>
          <input id="insights-to" name="to" type="date" value={dates.to} onChange={(e) => setDates((d) => ({ ...d, to: e.target.value }))} />
        </span>
        <button type="submit" className="button button-small" aria-busy={busy}>
          Show
        </button>
      </form>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      {data && (
        <>
          <p className="insights-range-text" aria-live="polite">
            {data.from} to {data.to}
          </p>
          <Charts data={data} />
        </>
      )}
    </>
  );
}

export default function InsightsPage({ state, business }: PageProps<InsightsState>) {
  return (
    <>
      <StaffBar businessName={business.name} />
      <section className="section insights">
        <div className="container">
          <p className="insights-back">
            <a href="/dashboard">Back to the dashboard</a>
          </p>
          {state.view === 'forbidden' ? <Forbidden /> : <Insights state={state} />}
        </div>
      </section>
    </>
  );
}
