/**
 * The service area (issue 40), in the Schedule view: the zones of postcodes with their travel fee
 * and minutes from the centre (add, edit, deactivate, reactivate), the driving minutes between two
 * zones (set or back to the default), and the days where a van's jobs, placed under the zones as
 * they were, now sit closer than the drive between them. Nothing here moves or re-prices a booking.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { FieldError } from '#domain/messages.ts';
import { formatNzd } from '#domain/pricing.ts';
import type { ServiceZoneDto, TravelMatrixDto, TravelShortfallsDto } from '#api/service-area-schemas.ts';
import { SelectField, TextField, errorFor } from '../../components/Field.tsx';
import { ApiError, call, send } from '../lib/staff-api.ts';
import { ActionResult, type ActionOutcome } from './ActionResult.tsx';
import { longDate } from './format.ts';
import './ServiceAreaPanel.css';

// Called here, not in staffApi: the Schedule view is loaded lazily, and so stay these calls.
const zoneApi = {
  travel: () => call<TravelMatrixDto>('/v1/zone-travel'),
  shortfalls: () => call<TravelShortfallsDto>('/v1/schedule/travel-shortfalls'),
  add: (zone: ZonePayload) => send<ServiceZoneDto>('POST', '/v1/service-zones', zone),
  change: (id: string, changes: Partial<ZonePayload & { active: boolean }>) => send<ServiceZoneDto>('PATCH', `/v1/service-zones/${id}`, changes),
  setTravel: (zoneA: string, zoneB: string, minutes: number | null) => send<TravelMatrixDto>('PUT', '/v1/zone-travel', { zoneA, zoneB, minutes }),
};

interface ZonePayload {
  name: string;
  postcodes: string;
  travelFeeCents: number;
  minutesFromCentre: number;
}

/** The zone form as typed: the fee in dollars, the minutes as text. */
interface ZoneDraft {
  name: string;
  postcodes: string;
  fee: string;
  minutes: string;
}

const EMPTY_DRAFT: ZoneDraft = { name: '', postcodes: '', fee: '0', minutes: '' };
const MINUTES_MESSAGE = 'Please give a whole number of minutes from 0 to 240';

const draftOf = (zone: ServiceZoneDto): ZoneDraft => ({
  name: zone.name,
  postcodes: zone.postcodes,
  fee: (zone.travelFeeCents / 100).toFixed(2),
  minutes: String(zone.minutesFromCentre),
});

/**
 * The draft as the API takes it, or the errors of what cannot be a number (the server checks the
 * rest, and its messages are shown by the same fields).
 */
function payloadOf(draft: ZoneDraft): ZonePayload | FieldError[] {
  const errors: FieldError[] = [];
  const fee = draft.fee.trim().replace(/^\$/, '');
  if (!/^\d+(\.\d{1,2})?$/.test(fee)) errors.push({ field: 'travelFeeCents', message: 'Please give the fee in dollars, like 25 or 25.50' });
  if (!/^\d+$/.test(draft.minutes.trim())) errors.push({ field: 'minutesFromCentre', message: MINUTES_MESSAGE });
  if (errors.length > 0) return errors;
  return { name: draft.name, postcodes: draft.postcodes, travelFeeCents: Math.round(Number(fee) * 100), minutesFromCentre: Number(draft.minutes.trim()) };
}

const fieldErrorsOf = (caught: unknown): FieldError[] => (caught instanceof ApiError && Array.isArray(caught.body.errors) ? (caught.body.errors as FieldError[]) : []);

function ZoneFields({ idPrefix, draft, errors, onChange }: { idPrefix: string; draft: ZoneDraft; errors: FieldError[]; onChange(draft: ZoneDraft): void }) {
  return (
    <div className="zone-fields">
      <TextField idPrefix={idPrefix} name="name" label="Name" maxLength={40} value={draft.name} error={errorFor(errors, 'name')} onChange={(name) => onChange({ ...draft, name })} />
      <TextField
        idPrefix={idPrefix}
        name="postcodes"
        label="Postcodes"
        hint="Postcodes and ranges, like 1010-1072, 2010"
        maxLength={400}
        value={draft.postcodes}
        error={errorFor(errors, 'postcodes')}
        onChange={(postcodes) => onChange({ ...draft, postcodes })}
      />
      <TextField idPrefix={idPrefix} name="fee" label="Travel fee ($, GST incl.)" value={draft.fee} error={errorFor(errors, 'travelFeeCents')} onChange={(fee) => onChange({ ...draft, fee })} />
      <TextField idPrefix={idPrefix} name="minutes" label="Minutes from the centre" value={draft.minutes} error={errorFor(errors, 'minutesFromCentre')} onChange={(minutes) => onChange({ ...draft, minutes })} />
    </div>
  );
}

export interface ServiceAreaPanelProps {
  failed(caught: unknown, report: (message: string) => void): void;
}

export function ServiceAreaPanel({ failed }: ServiceAreaPanelProps) {
  const [matrix, setMatrix] = useState<TravelMatrixDto | null>(null);
  const [shortfalls, setShortfalls] = useState<TravelShortfallsDto['days'] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [draft, setDraft] = useState<ZoneDraft>(EMPTY_DRAFT);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [editing, setEditing] = useState<{ id: string; draft: ZoneDraft; errors: FieldError[] } | null>(null);
  const [pair, setPair] = useState({ zoneA: '', zoneB: '', minutes: '' });
  const [pairErrors, setPairErrors] = useState<FieldError[]>([]);
  const [result, setResult] = useState<ActionOutcome | null>(null);
  const [travelResult, setTravelResult] = useState<ActionOutcome | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    Promise.all([zoneApi.travel(), zoneApi.shortfalls()]).then(
      ([travel, days]) => {
        setLoadError(null);
        setMatrix(travel);
        setShortfalls(days.days);
      },
      (caught) => failed(caught, setLoadError),
    );
  }, [failed]);

  useEffect(load, [load]);

  const zones = matrix?.zones ?? [];
  const nameOf = (id: string) => zones.find((z) => z.id === id)?.name ?? '';
  const chosen = matrix?.pairs.find((p) => (p.zoneA === pair.zoneA && p.zoneB === pair.zoneB) || (p.zoneA === pair.zoneB && p.zoneB === pair.zoneA));

  /** Runs a write; its field errors go to `onFieldErrors`, anything else to `report`. */
  const write = async (work: () => Promise<void>, onFieldErrors: (errors: FieldError[]) => void, report: (outcome: ActionOutcome) => void) => {
    setBusy(true);
    try {
      await work();
      load();
    } catch (caught) {
      const fieldErrors = fieldErrorsOf(caught);
      onFieldErrors(fieldErrors);
      if (fieldErrors.length === 0) failed(caught, (message) => report({ text: message, error: true }));
    } finally {
      setBusy(false);
    }
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const payload = payloadOf(draft);
    if (Array.isArray(payload)) return setErrors(payload);
    setErrors([]);
    return write(
      async () => {
        const added = await zoneApi.add(payload);
        setDraft(EMPTY_DRAFT);
        setResult({ text: `Added ${added.name} (${added.postcodes}).` });
      },
      setErrors,
      setResult,
    );
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    setResult(null);
    const payload = payloadOf(editing.draft);
    if (Array.isArray(payload)) return setEditing({ ...editing, errors: payload });
    return write(
      async () => {
        const saved = await zoneApi.change(editing.id, payload);
        setEditing(null);
        setResult({ text: `Saved ${saved.name}. Bookings already taken keep their zone and fee.` });
      },
      (fieldErrors) => setEditing((e) => e && { ...e, errors: fieldErrors }),
      setResult,
    );
  };

  const toggle = (zone: ServiceZoneDto) => {
    setResult(null);
    return write(
      async () => {
        const changed = await zoneApi.change(zone.id, { active: !zone.active });
        setResult({ text: changed.active ? `${changed.name} takes bookings again.` : `${changed.name} is deactivated: no new booking there; those taken keep it.` });
      },
      (fieldErrors) => fieldErrors[0] && setResult({ text: fieldErrors[0].message, error: true }),
      setResult,
    );
  };

  const setTravel = (minutes: number | null) => {
    setTravelResult(null);
    setPairErrors([]);
    return write(
      async () => {
        await zoneApi.setTravel(pair.zoneA, pair.zoneB, minutes);
        setPair((p) => ({ ...p, minutes: '' }));
        const between = pair.zoneA === pair.zoneB ? `within ${nameOf(pair.zoneA)}` : `between ${nameOf(pair.zoneA)} and ${nameOf(pair.zoneB)}`;
        setTravelResult({ text: minutes === null ? `The drive ${between} is back to the default.` : `The drive ${between} is now ${minutes} minutes.` });
      },
      setPairErrors,
      setTravelResult,
    );
  };

  const saveTravel = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d+$/.test(pair.minutes.trim())) return setPairErrors([{ field: 'minutes', message: MINUTES_MESSAGE }]);
    return setTravel(Number(pair.minutes.trim()));
  };

  return (
    <section className="card service-area" aria-labelledby="service-area-title">
      <h3 id="service-area-title">Service area</h3>
      <p className="field-hint">The vans go to the postcodes of the active zones. A change applies to bookings made from now on; those already taken keep their zone, fee and time.</p>
      {loadError && (
        <p className="notice notice-error" role="alert">
          {loadError}
        </p>
      )}
      {matrix === null ? (
        !loadError && (
          <div className="spinner" role="status">
            <span className="visually-hidden">Loading the zones…</span>
          </div>
        )
      ) : (
        <ol className="resource-list zone-list">
          {zones.map((zone) => (
            <li key={zone.id} className={zone.active ? undefined : 'inactive'}>
              {editing?.id === zone.id ? (
                <form className="zone-edit" aria-label={`Edit ${zone.name}`} onSubmit={save} noValidate>
                  <ZoneFields idPrefix={`zone-${zone.id}`} draft={editing.draft} errors={editing.errors} onChange={(next) => setEditing({ ...editing, draft: next, errors: [] })} />
                  <span className="resource-actions">
                    <button type="submit" className="button button-primary button-small" disabled={busy}>
                      Save zone
                    </button>
                    <button type="button" className="button button-ghost button-small" onClick={() => setEditing(null)}>
                      Cancel
                    </button>
                  </span>
                </form>
              ) : (
                <>
                  <span className="resource-name">
                    <strong>{zone.name}</strong>
                    <small>{zone.postcodes}</small>
                    <small>
                      {zone.travelFeeCents === 0 ? 'No travel fee' : `Travel fee ${formatNzd(zone.travelFeeCents)}`} · {zone.minutesFromCentre} min from the centre
                      {zone.active ? '' : ' · inactive (no new bookings)'}
                    </small>
                  </span>
                  <span className="resource-actions">
                    <button type="button" className="button button-ghost button-small" disabled={busy} onClick={() => setEditing({ id: zone.id, draft: draftOf(zone), errors: [] })}>
                      Edit<span className="visually-hidden"> {zone.name}</span>
                    </button>
                    <button type="button" className="button button-ghost button-small" disabled={busy} onClick={() => toggle(zone)}>
                      {zone.active ? 'Deactivate' : 'Reactivate'}
                      <span className="visually-hidden"> {zone.name}</span>
                    </button>
                  </span>
                </>
              )}
            </li>
          ))}
        </ol>
      )}
      <ActionResult outcome={result} />

      <form className="resource-add" aria-labelledby="zone-add-title" onSubmit={add} noValidate>
        <h4 id="zone-add-title">Add a zone</h4>
        <ZoneFields idPrefix="zone-new" draft={draft} errors={errors} onChange={(next) => {
            setDraft(next);
            setErrors([]);
          }} />
        <button type="submit" className="button button-primary" disabled={busy}>
          Add zone
        </button>
      </form>

      <form className="resource-add" aria-labelledby="travel-title" onSubmit={saveTravel} noValidate>
        <h4 id="travel-title">Driving between zones</h4>
        <p className="field-hint">Unless set here: within a zone, half its minutes from the centre (at least 10); between two, the sum of theirs.</p>
        <div className="field-row">
          {(['zoneA', 'zoneB'] as const).map((field, i) => (
            <SelectField
              key={field}
              idPrefix="travel"
              name={field}
              label={i === 0 ? 'From zone' : 'To zone'}
              placeholder="Choose…"
              options={zones.map((z) => z.id)}
              labelOf={(id) => (zones.find((z) => z.id === id)?.active === false ? `${nameOf(id)} (inactive)` : nameOf(id))}
              value={pair[field]}
              error={errorFor(pairErrors, field)}
              onChange={(id) => {
                setPair((p) => ({ ...p, [field]: id }));
                setTravelResult(null);
              }}
            />
          ))}
        </div>
        {chosen && (
          <p className="travel-now" role="status">
            Now: <strong>{chosen.minutes} minutes</strong> {chosen.set ? '(set by staff)' : '(the default)'}
          </p>
        )}
        <TextField idPrefix="travel" name="minutes" label="Driving minutes (0 to 240)" value={pair.minutes} error={errorFor(pairErrors, 'minutes')} onChange={(minutes) => setPair((p) => ({ ...p, minutes }))} />
        <span className="resource-actions">
          <button type="submit" className="button button-primary" disabled={busy || !chosen}>
            Save minutes
          </button>
          <button type="button" className="button button-ghost" disabled={busy || !chosen?.set} onClick={() => setTravel(null)}>
            Reset to default
          </button>
        </span>
        <ActionResult outcome={travelResult} />
      </form>

      <div className="resource-add">
        <h4 id="replan-title">Days to re-plan</h4>
        <p className="field-hint">Two jobs of a van that now sit closer than the drive between their zones (they were booked under earlier zones or travel). Move one of them in the day view.</p>
        {shortfalls === null ? null : shortfalls.length === 0 ? (
          <p>No day needs re-planning.</p>
        ) : (
          <ul className="replan-list" aria-labelledby="replan-title">
            {shortfalls.map((day) => (
              <li key={day.date}>
                <strong>{longDate(day.date)}</strong>
                <ul>
                  {day.shortfalls.map((s) => (
                    <li key={`${s.from.id}-${s.to.id}`}>
                      {s.resourceName}: {s.from.reference} at {s.from.time} ({s.from.zoneName ?? 'no zone'}) then {s.to.reference} at {s.to.time} ({s.to.zoneName ?? 'no zone'}) ·{' '}
                      <strong>
                        {s.gapMinutes} min apart, {s.driveMinutes} min drive
                      </strong>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
