/**
 * The running summary beside the wizard: what is being booked (the package and size of one
 * vehicle, or line by line with several vehicles or add-ons), how long it takes, for when, the
 * travel fee on site, and the total.
 */
import type { WizardInput } from '#domain/booking-rules.ts';
import { COATING_LABELS, VEHICLE_LABELS, durationText, isCoatingType, isVehicleType } from '#domain/catalogue.ts';
import { formatNzd, TRAVEL_FEE_LABEL, type Quote } from '#domain/pricing.ts';
import './BookingSummary.css';

const NOT_CHOSEN = 'Not chosen yet';

export function BookingSummary({ values, quote }: { values: WizardInput; quote: Quote | undefined }) {
  const { vehicles } = values;
  const first = vehicles[0]!;
  const rows: [string, string][] =
    vehicles.length > 1 || first.addOns.length > 0
      ? [['Vehicles', `${vehicles.length} vehicle${vehicles.length > 1 ? 's' : ''}`], ...(quote?.lines ?? []).map((line): [string, string] => [line.description, formatNzd(line.totalCents)])]
      : [
          ['Package', first.service || NOT_CHOSEN],
          ...(isCoatingType(first.coatingType) ? [['Coating', COATING_LABELS[first.coatingType]] as [string, string]] : []),
          ['Vehicle', first.selectedVehicleType ? (isVehicleType(first.selectedVehicleType) ? VEHICLE_LABELS[first.selectedVehicleType] : first.selectedVehicleType) : NOT_CHOSEN],
        ];
  if (quote?.durationMinutes) rows.push(['Time', durationText(quote.durationMinutes)]);
  rows.push(['When', values.date ? `${values.date}${values.time ? ` at ${values.time}` : ''}` : NOT_CHOSEN], ['Where', values.serviceType === 'dropoff' ? 'Drop-off at our service centre' : 'On-site, at your address']);
  if (quote?.travelFeeCents) rows.push([TRAVEL_FEE_LABEL, formatNzd(quote.travelFeeCents)]);
  return (
    <aside className="card booking-summary" aria-labelledby="summary-title">
      <h2 id="summary-title">Your booking</h2>
      <dl>
        {rows.map(([label, value], i) => (
          <div key={i}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="summary-price">
        <span>Total</span> <strong>{quote ? formatNzd(quote.totalCents) : '—'}</strong>
      </p>
      <p className="summary-note">Pay on completion. Free cancellation with 24 hours' notice.</p>
    </aside>
  );
}
