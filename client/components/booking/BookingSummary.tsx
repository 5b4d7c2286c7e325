/** The running summary beside the wizard: what is being booked, for when, the travel fee on site, and the total. */
import type { BookingInput } from '#domain/booking-rules.ts';
import { COATING_LABELS, VEHICLE_LABELS, isCoatingType, isVehicleType } from '#domain/catalogue.ts';
import { formatNzd, TRAVEL_FEE_LABEL, type Quote } from '#domain/pricing.ts';
import './BookingSummary.css';

export function BookingSummary({ values, quote }: { values: BookingInput; quote: Quote | undefined }) {
  const rows: [string, string][] = [
    ['Package', values.service || 'Not chosen yet'],
    ...(isCoatingType(values.coatingType) ? [['Coating', COATING_LABELS[values.coatingType]] as [string, string]] : []),
    ['Vehicle', values.selectedVehicleType ? (isVehicleType(values.selectedVehicleType) ? VEHICLE_LABELS[values.selectedVehicleType] : values.selectedVehicleType) : 'Not chosen yet'],
    ['When', values.date ? `${values.date}${values.time ? ` at ${values.time}` : ''}` : 'Not chosen yet'],
    ['Where', values.serviceType === 'dropoff' ? 'Drop-off at our service centre' : 'On-site, at your address'],
  ];
  if (quote?.travelFeeCents) rows.push([TRAVEL_FEE_LABEL, formatNzd(quote.travelFeeCents)]);
  return (
    <aside className="card booking-summary" aria-labelledby="summary-title">
      <h2 id="summary-title">Your booking</h2>
      <dl>
        {rows.map(([label, value]) => (
          <div key={label}>
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
