/**
 * Insights (issue 44), the owner's: for this week, month, quarter or a range of days, one chart per
 * measure of GET /v1/insights. Each chart is hand-drawn SVG (a few bars and a grid need no scale
 * library, and the view stays one small lazy chunk), scaled to its box so it reads at 390 px, with
 * its title, a one-line summary, the same numbers as a table in a <details>, and its CSV made in
 * the browser from those rows. Loaded when its tab is first opened.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { InsightsDto } from '#api/insights-schemas.ts';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '#domain/completion.ts';
import { formatNzd } from '#domain/pricing.ts';
import { aucklandToday } from '../lib/auckland-today.ts';
import { ApiError, call } from '../lib/staff-api.ts';

/**
 * The view's few rules as style properties, not a stylesheet: a stylesheet of its own would add its
 * name to the dashboard's first chunk (Vite's list of each lazy part's CSS), which is at its budget.
 * React sets them through the CSSOM, which the Content-Security-Policy allows.
 */
const STYLE = {
  range: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 'var(--space-2)', marginBottom: 'var(--space-3)' },
  charts: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 26rem), 1fr))', gap: 'var(--space-4)' },
  chart: { margin: 0, minWidth: 0 },
  title: { margin: '0 0 var(--space-1)' },
  summary: { margin: '0 0 var(--space-2)' },
  svg: { display: 'block', width: '100%', height: 'auto' },
  details: { margin: 'var(--space-2) 0', overflowX: 'auto' },
  table: { borderCollapse: 'collapse' },
  cell: { padding: 'var(--space-1) var(--space-2)', borderBottom: '1px solid var(--color-tint)', textAlign: 'left' },
} satisfies Record<string, React.CSSProperties>;

type Cell = string | number;
interface Table {
  head: string[];
  rows: Cell[][];
}
interface Series {
  name: string;
  values: number[];
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const COLOURS = ['#1d4e89', '#e07a1f', '#2a9d8f', '#9b5de5'];
const WIDTH = 360;

const dollars = (cents: number) => (cents / 100).toFixed(2);
const percent = (held: number, open: number) => (open === 0 ? 0 : Math.round((held / open) * 100));
const hour = (h: number) => `${String(h).padStart(2, '0')}:00`;
const shortWeek = (week: string) => new Date(`${week}T00:00:00Z`).toLocaleDateString('en-NZ', { day: 'numeric', month: 'short', timeZone: 'UTC' });

const day = (date: Date) => date.toISOString().slice(0, 10);

/** This week (Monday to Sunday), month or quarter of an Auckland day. */
export function rangeOf(kind: 'week' | 'month' | 'quarter', today: string): { from: string; to: string } {
  const date = new Date(`${today}T00:00:00Z`);
  if (kind === 'week') {
    const monday = new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * 86_400_000);
    return { from: day(monday), to: day(new Date(monday.getTime() + 6 * 86_400_000)) };
  }
  const months = kind === 'month' ? 1 : 3;
  const first = kind === 'month' ? date.getUTCMonth() : date.getUTCMonth() - (date.getUTCMonth() % 3);
  return { from: day(new Date(Date.UTC(date.getUTCFullYear(), first, 1))), to: day(new Date(Date.UTC(date.getUTCFullYear(), first + months, 0))) };
}

function csvOf(table: Table): string {
  const quote = (cell: Cell) => {
    const text = String(cell);
    return /[\u0022,\n]|^[=+\-@]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [table.head, ...table.rows].map((row) => row.map(quote).join(',')).join('\r\n') + '\r\n';
}

function download(name: string, table: Table) {
  const url = URL.createObjectURL(new Blob(['\uFEFF', csvOf(table)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A chart's frame: title, summary, the drawing, its numbers as a table, and their CSV. */
function Chart({ id, title, summary, table, file, children }: { id: string; title: string; summary: string; table: Table; file: string; children: React.ReactNode }) {
  return (
    <figure className="insights-chart" style={STYLE.chart} aria-labelledby={`${id}-title`} data-chart={id}>
      <h3 id={`${id}-title`} style={STYLE.title}>{title}</h3>
      <p className="insights-summary" id={`${id}-summary`} style={STYLE.summary}>
        {summary}
      </p>
      <div>{children}</div>
      <details style={STYLE.details}>
        <summary>{title}: the numbers</summary>
        <table className="insights-table" style={STYLE.table}>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              {table.head.map((h) => (
                <th key={h} scope="col" style={STYLE.cell}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, i) => (
              <tr key={i}>
                {row.map((cell, j) => (j === 0 ? <th key={j} scope="row" style={STYLE.cell}>{cell}</th> : <td key={j} style={STYLE.cell}>{cell}</td>))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <button type="button" className="button button-small" onClick={() => download(file, table)}>
        Download CSV<span className="visually-hidden"> of {title}</span>
      </button>
    </figure>
  );
}

/** Bars, one a category, stacked by series; horizontal so that long names and many weeks fit a phone. */
function Bars({ label, categories, series, format = String }: { label: string; categories: string[]; series: Series[]; format?: (n: number) => string }) {
  const totals = categories.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const row = 26;
  const left = 96;
  const right = 64;
  const legend = series.length > 1 ? 22 : 0;
  const height = legend + categories.length * row + 4;
  const scale = (WIDTH - left - right) / max;
  return (
    <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={label} style={STYLE.svg} fill="currentColor">
      {series.length > 1 &&
        series.map((s, k) => (
          <g key={s.name} transform={`translate(${k * 88}, 4)`}>
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
          <g key={category}>
            <text x={left - 6} y={y + 16} fontSize="12" textAnchor="end">
              {category}
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
    <svg viewBox={`0 0 ${WIDTH} ${7 * cell + 16}`} role="img" aria-label={label} style={STYLE.svg} fill="currentColor">
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
  const range = `${data.from}-to-${data.to}`;
  const { revenue, utilisation, customers, losses, leadTime, heatMap } = data;

  const work = [...data.work.byPackage, ...data.work.byAddOn];
  const topWork = work[0];

  const busiest = heatMap.counts.flatMap((row, d) => row.map((count, h) => ({ d, h, count }))).sort((a, b) => b.count - a.count)[0];
  const lost = losses.cancelled.amountCents + losses.noShow.amountCents + losses.lapsed.amountCents;

  return (
    <div className="insights-charts" style={STYLE.charts}>
      <Chart
        id="insights-revenue"
        title="Revenue taken by week"
        summary={`Taken ${formatNzd(revenue.totalCents)}, GST ${formatNzd(revenue.gstCents)} of it, over ${data.weeks.length} week${data.weeks.length === 1 ? '' : 's'}.`}
        file={`insights-revenue-${range}.csv`}
        table={{
          head: ['Week', ...PAYMENT_METHODS.map((m) => `${PAYMENT_METHOD_LABELS[m]} (NZD)`), 'Total (NZD)', 'GST (NZD)'],
          rows: revenue.weeks.map((w) => [w.week, ...PAYMENT_METHODS.map((m) => dollars(w.byMethod[m])), dollars(w.totalCents), dollars(w.gstCents)]),
        }}
      >
        <Bars
          label="Revenue taken by week, stacked by payment method"
          categories={weeks}
          series={PAYMENT_METHODS.map((m) => ({ name: PAYMENT_METHOD_LABELS[m], values: revenue.weeks.map((w) => w.byMethod[m]) }))}
          format={formatNzd}
        />
      </Chart>

      <Chart
        id="insights-work"
        title="Packages and add-ons"
        summary={topWork ? `${topWork.name} brought the most: ${formatNzd(topWork.amountCents)} from ${topWork.count} done.` : 'No jobs completed in this range.'}
        file={`insights-work-${range}.csv`}
        table={{ head: ['Name', 'Kind', 'Done', 'Jobs', 'Amount (NZD)'], rows: [...data.work.byPackage.map((w) => [w.name, 'package', w.count, w.jobs, dollars(w.amountCents)]), ...data.work.byAddOn.map((w) => [w.name, 'add-on', w.count, w.jobs, dollars(w.amountCents)])] }}
      >
        <Bars label="Amount by package and add-on" categories={work.map((w) => w.name)} series={[{ name: 'Amount', values: work.map((w) => w.amountCents) }]} format={formatNzd} />
      </Chart>

      <Chart
        id="insights-utilisation"
        title="Utilisation of vans and bays"
        summary={`Utilisation ${percent(utilisation.heldMinutes, utilisation.openMinutes)}%: ${Math.round(utilisation.heldMinutes / 60)} of ${Math.round(utilisation.openMinutes / 60)} hours open held by jobs.`}
        file={`insights-utilisation-${range}.csv`}
        table={{
          head: ['Van or bay', 'Week', 'Hours held', 'Hours open', 'Utilisation (%)'],
          rows: utilisation.resources.flatMap((r) => r.weeks.map((w) => [r.name, w.week, (w.heldMinutes / 60).toFixed(1), (w.openMinutes / 60).toFixed(1), percent(w.heldMinutes, w.openMinutes)])),
        }}
      >
        <Bars label="Utilisation of each van and bay over the range, in per cent" categories={utilisation.resources.map((r) => r.name)} series={[{ name: 'Utilisation', values: utilisation.resources.map((r) => percent(r.heldMinutes, r.openMinutes)) }]} format={(n) => `${n}%`} />
      </Chart>

      <Chart
        id="insights-customers"
        title="New and returning customers by week"
        summary={`${customers.new} new and ${customers.returning} returning customer${customers.new + customers.returning === 1 ? '' : 's'}.`}
        file={`insights-customers-${range}.csv`}
        table={{ head: ['Week', 'New', 'Returning'], rows: customers.weeks.map((w) => [w.week, w.new, w.returning]) }}
      >
        <Bars
          label="New and returning customers by week"
          categories={weeks}
          series={[
            { name: 'New', values: customers.weeks.map((w) => w.new) },
            { name: 'Returning', values: customers.weeks.map((w) => w.returning) },
          ]}
        />
      </Chart>

      <Chart
        id="insights-losses"
        title="Cancellations, no-shows and lapsed bookings"
        summary={`${losses.cancelled.count + losses.noShow.count + losses.lapsed.count} of ${losses.bookings} bookings lost, worth ${formatNzd(lost)}.`}
        file={`insights-losses-${range}.csv`}
        table={{
          head: ['Kind', 'Bookings', 'Amount (NZD)'],
          rows: [
            ['Cancelled', losses.cancelled.count, dollars(losses.cancelled.amountCents)],
            ['No-show', losses.noShow.count, dollars(losses.noShow.amountCents)],
            ['Lapsed', losses.lapsed.count, dollars(losses.lapsed.amountCents)],
          ],
        }}
      >
        <Bars
          label="Amount lost to cancellations, no-shows and lapsed bookings"
          categories={['Cancelled', 'No-show', 'Lapsed']}
          series={[{ name: 'Amount', values: [losses.cancelled.amountCents, losses.noShow.amountCents, losses.lapsed.amountCents] }]}
          format={formatNzd}
        />
      </Chart>

      <Chart
        id="insights-lead-time"
        title="Lead time"
        summary={leadTime.medianDays === null ? 'No bookings in this range.' : `Median ${leadTime.medianDays} day${leadTime.medianDays === 1 ? '' : 's'} from booking to appointment, over ${leadTime.count} bookings.`}
        file={`insights-lead-time-${range}.csv`}
        table={{ head: ['Days ahead', 'Bookings'], rows: leadTime.buckets.map((b) => [b.label, b.count]) }}
      >
        <Bars label="Bookings by days from booking to appointment" categories={leadTime.buckets.map((b) => `${b.label} days`)} series={[{ name: 'Bookings', values: leadTime.buckets.map((b) => b.count) }]} />
      </Chart>

      <Chart
        id="insights-heat-map"
        title="Busiest weekdays and hours"
        summary={busiest && busiest.count > 0 ? `Busiest: ${WEEKDAYS[busiest.d]} at ${hour(heatMap.firstHour + busiest.h)}, ${busiest.count} job${busiest.count === 1 ? '' : 's'} started.` : 'No jobs started in this range.'}
        file={`insights-busiest-${range}.csv`}
        table={{ head: ['Weekday', ...heatMap.counts[0]!.map((_, h) => hour(heatMap.firstHour + h))], rows: heatMap.counts.map((row, d) => [WEEKDAYS[d]!, ...row]) }}
      >
        <HeatMap label="Job starts by weekday and hour, darker for more" heatMap={heatMap} />
      </Chart>
    </div>
  );
}

type Choice = 'week' | 'month' | 'quarter' | 'range';

export default function InsightsView({ onSignedOut }: { onSignedOut(): void }) {
  const today = aucklandToday();
  const [choice, setChoice] = useState<Choice>('month');
  const [range, setRange] = useState(rangeOf('month', today));
  const [data, setData] = useState<InsightsDto | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (from: string, to: string) => {
      setError(null);
      try {
        setData(await call<InsightsDto>(`/v1/insights?from=${from}&to=${to}`));
      } catch (caught) {
        if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
        setError(caught instanceof ApiError ? caught.message : 'The insights could not be loaded. Check the connection and try again.');
      }
    },
    [onSignedOut],
  );
  useEffect(() => {
    const first = rangeOf('month', today);
    void load(first.from, first.to);
  }, [load, today]);

  const choose = (next: Choice) => {
    setChoice(next);
    if (next === 'range') return;
    const chosen = rangeOf(next, today);
    setRange(chosen);
    void load(chosen.from, chosen.to);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void load(range.from, range.to);
  };

  return (
    <section className="insights" aria-labelledby="insights-title">
      <h2 id="insights-title">Insights</h2>
      <form className="insights-range" style={STYLE.range} onSubmit={submit}>
        <label htmlFor="insights-choice">Range</label>
        <select id="insights-choice" value={choice} onChange={(e) => choose(e.target.value as Choice)}>
          <option value="week">This week</option>
          <option value="month">This month</option>
          <option value="quarter">This quarter</option>
          <option value="range">From – to</option>
        </select>
        {choice === 'range' && (
          <>
            <label htmlFor="insights-from">From</label>
            <input id="insights-from" type="date" value={range.from} onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))} />
            <label htmlFor="insights-to">To</label>
            <input id="insights-to" type="date" value={range.to} onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))} />
            <button type="submit" className="button button-small">
              Show
            </button>
          </>
        )}
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
    </section>
  );
}
