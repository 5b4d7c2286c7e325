/**
 * Step 1, 'Your vehicles' (issue 41): for each vehicle an accordion of packages, each header a
 * radio, so the choice posts without JavaScript (CSS opens the checked card); the open card has
 * the coating term, the sizes and the add-ons that fit it; below, the optional make, model,
 * colour and plate. "Add another vehicle" and "Remove" are submit buttons the server answers
 * without JavaScript, and act in the browser once hydrated. Once hydrated, clicking the selected
 * package again deselects it, as in the original.
 */
import { addOnsFor, type AddOn } from '#domain/add-ons.ts';
import { vehicleErrorField, vehicleFormName, vehicleTypeForSize } from '#domain/booking-rules.ts';
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
  isVehicleType,
  lowestPrice,
  type ServicePackage,
} from '#domain/catalogue.ts';
import { MAX_VEHICLES, VEHICLE_TEXT_LIMITS, emptyVehicle, type VehicleChoice } from '#domain/job.ts';
import { formatNzd } from '#domain/pricing.ts';
import type { MouseEvent } from 'react';
import { errorFor } from '../field-errors.ts';
import { CheckList } from '../CheckList.tsx';
import { Icon } from '../Icon.tsx';
import { ID, type StepProps } from './types.ts';
import './VehiclesStep.css';

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

/** What an add-on adds for the size chosen ('+$45.00, +30 min'), from the small car's before a size is. */
function addOnCost(addOn: AddOn, size: string): string {
  const known = isVehicleType(size);
  const type = known ? size : 'sm';
  return `${known ? '' : 'from '}+${formatNzd(addOn.prices[type])}, +${addOn.minutes[type]} min`;
}

function FieldMessage({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {message}
    </p>
  );
}

interface VehicleProps {
  index: number;
  vehicle: VehicleChoice;
  errors: StepProps['errors'];
  change(change: Partial<VehicleChoice>): void;
}

/** A vehicle's error message, and the id of the element showing it. */
const errorOf = ({ index, errors }: Pick<VehicleProps, 'index' | 'errors'>, field: string) => errorFor(errors, vehicleErrorField(index, field));
const errorId = (index: number, field: string) => (index === 0 ? `${ID}-${field}-error` : `${ID}-v${index}-${field}-error`);

function PackageOption({ pkg, ...props }: VehicleProps & { pkg: ServicePackage }) {
  const { index, vehicle, change } = props;
  const name = (field: string) => vehicleFormName(index, field);
  const id = index === 0 ? `service-${pkg.id}` : `v${index}-service-${pkg.id}`;
  const selected = vehicle.service === pkg.name;
  const sizes = sizesFor(pkg, vehicle.coatingType);
  const addOns = addOnsFor(pkg.name);
  const select = () => {
    const keepSize = sizes.some((size) => size.key === vehicle.selectedVehicleType);
    change({
      service: pkg.name,
      coatingType: pkg.coatingPrices ? vehicle.coatingType || DEFAULT_COATING : '',
      selectedVehicleType: keepSize ? vehicle.selectedVehicleType : '',
      addOns: vehicle.addOns.filter((chosen) => addOns.some((addOn) => addOn.id === chosen)),
    });
  };
  const sizeError = errorOf(props, 'vehicleType') ?? errorOf(props, 'selectedVehicleType');
  const coatingError = errorOf(props, 'coatingType');
  return (
    <li className={selected ? 'package-option open' : 'package-option'}>
      <input
        type="radio"
        className="package-radio"
        id={id}
        name={name('service')}
        value={pkg.name}
        checked={selected}
        required
        onChange={select}
        onClick={() => {
          if (selected) change({ service: '', coatingType: '', selectedVehicleType: '', addOns: [] });
        }}
        aria-describedby={errorOf(props, 'service') ? errorId(index, 'service') : undefined}
      />
      <label className="package-head" htmlFor={id}>
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
          <fieldset className="choice-group" aria-describedby={selected && coatingError ? `${id}-coating-error` : undefined}>
            <legend>Coating type</legend>
            <div className="choices">
              {COATING_TYPES.map((coating) => (
                <label key={coating} className="choice">
                  <input type="radio" name={name('coatingType')} value={coating} checked={selected && vehicle.coatingType === coating} onChange={() => change({ coatingType: coating })} />
                  <span className="choice-label">
                    {COATING_LABELS[coating]}
                    {coating === BEST_VALUE_COATING && <span className="badge">BEST VALUE</span>}
                  </span>
                  <span className="choice-price">from ${Math.min(...Object.values(pkg.coatingPrices![coating]))}</span>
                  <span className="choice-note">{durationText(Math.min(...Object.values(pkg.coatingDurations![coating])))}</span>
                </label>
              ))}
            </div>
            {selected && <FieldMessage id={`${id}-coating-error`} message={coatingError} />}
          </fieldset>
        )}
        <fieldset className="choice-group" aria-describedby={selected && sizeError ? `${id}-size-error` : undefined}>
          <legend>Vehicle size</legend>
          <div className="choices">
            {sizes.map((size) => (
              <label key={size.key} className="choice">
                <input
                  type="radio"
                  name={name('selectedVehicleType')}
                  value={size.key}
                  checked={selected && vehicle.selectedVehicleType === size.key}
                  onChange={() => change({ selectedVehicleType: size.key })}
                />
                <span className="choice-label">{size.label}</span>
                <span className="choice-price">${size.price}</span>
                <span className="choice-note">{durationText(size.minutes)}</span>
              </label>
            ))}
          </div>
          {selected && <FieldMessage id={`${id}-size-error`} message={sizeError} />}
        </fieldset>
        {addOns.length > 0 && (
          <fieldset className="choice-group">
            <legend>Add-ons (optional)</legend>
            <div className="choices add-ons">
              {addOns.map((addOn) => (
                <label key={addOn.id} className="choice">
                  <input
                    type="checkbox"
                    name={name('addOns')}
                    value={addOn.id}
                    checked={selected && vehicle.addOns.includes(addOn.id)}
                    onChange={(event) => change({ addOns: event.target.checked ? [...vehicle.addOns, addOn.id] : vehicle.addOns.filter((chosen) => chosen !== addOn.id) })}
                  />
                  <span className="choice-label">{addOn.name}</span>
                  <span className="choice-price">{addOnCost(addOn, vehicleTypeForSize(vehicle.selectedVehicleType))}</span>
                  <span className="choice-note add-on-note">{addOn.description}</span>
                </label>
              ))}
            </div>
          </fieldset>
        )}
        <p className="includes-title">Service Includes</p>
        <CheckList items={pkg.features} />
      </div>
    </li>
  );
}

const DETAILS = [
  ['make', 'Make', 'Toyota'],
  ['model', 'Model', 'Corolla'],
  ['colour', 'Colour', 'Silver'],
  ['plate', 'Plate', 'ABC123'],
] as const;

/** Make, model, colour and plate: optional, so that the team finds the right car in a car park. */
function VehicleDetails(props: VehicleProps) {
  const { index, vehicle, change } = props;
  return (
    <fieldset className="choice-group vehicle-details">
      <legend>Vehicle details (optional)</legend>
      {DETAILS.map(([field, label, example]) => {
        const id = index === 0 ? `${ID}-${field}` : `${ID}-vehicles[${index}].${field}`;
        const error = errorOf(props, field);
        return (
          <div key={field} className={error ? 'field has-error' : 'field'}>
            <label htmlFor={id}>{label}</label>
            <input
              id={id}
              name={vehicleFormName(index, field)}
              value={vehicle[field]}
              placeholder={`e.g. ${example}`}
              maxLength={VEHICLE_TEXT_LIMITS[field]}
              autoCapitalize={field === 'plate' ? 'characters' : undefined}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => change({ [field]: event.target.value })}
            />
            <FieldMessage id={`${id}-error`} message={error} />
          </div>
        );
      })}
    </fieldset>
  );
}

export function VehiclesStep({ values, errors, update }: StepProps) {
  const { vehicles } = values;
  const set = (next: VehicleChoice[]) => update({ vehicles: next });
  /** The buttons post their action without JavaScript; once hydrated they act here. */
  const act = (event: MouseEvent, next: VehicleChoice[]) => {
    event.preventDefault();
    set(next);
  };
  return (
    <>
      {vehicles.map((vehicle, index) => {
        const props: VehicleProps = { index, vehicle, errors, change: (change) => set(vehicles.map((v, i) => (i === index ? { ...v, ...change } : v))) };
        return (
          <fieldset key={index} className="step-fieldset vehicle">
            <legend>{`Vehicle ${index + 1}`}</legend>
            {index > 0 && (
              <button
                type="submit"
                name="action"
                value={`remove-${index}`}
                formNoValidate
                className="button button-ghost vehicle-remove"
                aria-label={`Remove vehicle ${index + 1}`}
                onClick={(event) => act(event, vehicles.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            )}
            <FieldMessage id={errorId(index, 'service')} message={errorOf(props, 'service')} />
            <ul className="package-list">
              {PACKAGES.map((pkg) => (
                <PackageOption key={pkg.id} pkg={pkg} {...props} />
              ))}
            </ul>
            <VehicleDetails {...props} />
          </fieldset>
        );
      })}
      {vehicles.length < MAX_VEHICLES && (
        <button type="submit" name="action" value="add-vehicle" formNoValidate className="button button-ghost add-vehicle" onClick={(event) => act(event, [...vehicles, emptyVehicle()])}>
          <Icon name="car" size={18} /> Add another vehicle
        </button>
      )}
    </>
  );
}
