/**
 * Step 1, 'Select Your Service Package': an accordion of packages. Each header is a radio, so the
 * choice posts as `service` without JavaScript (CSS opens the checked card); once hydrated,
 * clicking the selected package again deselects it, as in the original.
 */
import {
  BEST_VALUE_COATING,
  CERAMIC_SIZES,
  COATING_LABELS,
  COATING_TYPES,
  DEFAULT_COATING,
  PACKAGES,
  VEHICLE_LABELS,
  VEHICLE_TYPES,
  durationText,
  isCoatingType,
  lowestPrice,
  type ServicePackage,
} from '#domain/catalogue.ts';
import { errorFor } from '../field-errors.ts';
import { CheckList } from '../CheckList.tsx';
import { Icon } from '../Icon.tsx';
import type { StepProps } from './types.ts';
import './ServiceStep.css';

interface SizeChoice {
  key: string;
  label: string;
  price: number;
  /** How long the job takes for this size, in minutes. */
  minutes: number;
}

/**
 * The sizes a package offers: vehicle types, or for Ceramic Coating the body styles at the chosen
 * coating's price and duration.
 */
export function sizesFor(pkg: ServicePackage, coatingType: string): SizeChoice[] {
  if (pkg.coatingPrices && pkg.coatingDurations) {
    const coating = isCoatingType(coatingType) ? coatingType : DEFAULT_COATING;
    return CERAMIC_SIZES.map((size) => ({ key: size.key, label: size.key, price: pkg.coatingPrices![coating][size.vehicleType], minutes: pkg.coatingDurations![coating][size.vehicleType] }));
  }
  return VEHICLE_TYPES.map((size) => ({ key: size, label: VEHICLE_LABELS[size], price: pkg.prices[size], minutes: pkg.durations[size] }));
}

function FieldMessage({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {message}
    </p>
  );
}

function PackageOption({ pkg, values, errors, update }: StepProps & { pkg: ServicePackage }) {
  const selected = values.service === pkg.name;
  const sizes = sizesFor(pkg, values.coatingType);
  const select = () => {
    const keepSize = sizes.some((size) => size.key === values.selectedVehicleType);
    update({
      service: pkg.name,
      coatingType: pkg.coatingPrices ? values.coatingType || DEFAULT_COATING : '',
      selectedVehicleType: keepSize ? values.selectedVehicleType : '',
    });
  };
  const sizeError = errorFor(errors, 'vehicleType') ?? errorFor(errors, 'selectedVehicleType');
  const coatingError = errorFor(errors, 'coatingType');
  return (
    <li className={selected ? 'package-option open' : 'package-option'}>
      <input
        type="radio"
        className="package-radio"
        id={`service-${pkg.id}`}
        name="service"
        value={pkg.name}
        checked={selected}
        required
        onChange={select}
        onClick={() => {
          if (selected) update({ service: '', coatingType: '', selectedVehicleType: '' });
        }}
        aria-describedby={errorFor(errors, 'service') ? 'booking-service-error' : undefined}
      />
      <label className="package-head" htmlFor={`service-${pkg.id}`}>
        <span className="package-name">
          <strong>{pkg.name}</strong>
          <span className="tagline">{pkg.tagline}</span>
        </span>
        <span className="package-from">
          Starting from <strong>${lowestPrice(pkg)}</strong>
        </span>
        <Icon name="chevron" size={20} />
      </label>
      <div className="package-body">
        {pkg.coatingPrices && (
          <fieldset className="choice-group" aria-describedby={coatingError ? `coating-${pkg.id}-error` : undefined}>
            <legend>Coating type</legend>
            <div className="choices">
              {COATING_TYPES.map((coating) => (
                <label key={coating} className="choice">
                  <input type="radio" name="coatingType" value={coating} checked={selected && values.coatingType === coating} onChange={() => update({ coatingType: coating })} />
                  <span className="choice-label">
                    {COATING_LABELS[coating]}
                    {coating === BEST_VALUE_COATING && <span className="badge">BEST VALUE</span>}
                  </span>
                  <span className="choice-price">from ${Math.min(...Object.values(pkg.coatingPrices![coating]))}</span>
                  <span className="choice-note">{durationText(Math.min(...Object.values(pkg.coatingDurations![coating])))}</span>
                </label>
              ))}
            </div>
            {selected && <FieldMessage id={`coating-${pkg.id}-error`} message={coatingError} />}
          </fieldset>
        )}
        <fieldset className="choice-group" aria-describedby={selected && sizeError ? `size-${pkg.id}-error` : undefined}>
          <legend>Vehicle size</legend>
          <div className="choices">
            {sizes.map((size) => (
              <label key={size.key} className="choice">
                <input
                  type="radio"
                  name="selectedVehicleType"
                  value={size.key}
                  checked={selected && values.selectedVehicleType === size.key}
                  onChange={() => update({ selectedVehicleType: size.key })}
                />
                <span className="choice-label">{size.label}</span>
                <span className="choice-price">${size.price}</span>
                <span className="choice-note">{durationText(size.minutes)}</span>
              </label>
            ))}
          </div>
          {selected && <FieldMessage id={`size-${pkg.id}-error`} message={sizeError} />}
        </fieldset>
        <p className="includes-title">Service Includes</p>
        <CheckList items={pkg.features} />
      </div>
    </li>
  );
}

export function ServiceStep(props: StepProps) {
  return (
    <fieldset className="step-fieldset">
      <legend className="visually-hidden">Service package</legend>
      <FieldMessage id="booking-service-error" message={errorFor(props.errors, 'service')} />
      <ul className="package-list">
        {PACKAGES.map((pkg) => (
          <PackageOption key={pkg.id} pkg={pkg} {...props} />
        ))}
      </ul>
    </fieldset>
  );
}
