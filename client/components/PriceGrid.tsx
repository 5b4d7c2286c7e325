/** A package's price for each vehicle size, as a small definition list. */
import { VEHICLE_TYPES, type Prices } from '#domain/catalogue.ts';
import './PriceGrid.css';

export function PriceGrid({ prices, labels, caption }: { prices: Prices; labels: Record<string, string>; caption?: string }) {
  return (
    <dl className="price-grid" aria-label={caption}>
      {VEHICLE_TYPES.map((size) => (
        <div key={size} className={`size-${size}`}>
          <dt>{labels[size]}</dt>
          <dd>${prices[size]}</dd>
        </div>
      ))}
    </dl>
  );
}
