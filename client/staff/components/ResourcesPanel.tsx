/**
 * The vans and bays (issue 20), in the Schedule view: add one, rename it, move it up or down the
 * order, deactivate or reactivate it. Deactivating one that holds upcoming jobs is refused by the
 * server with those jobs, listed here until they are moved.
 */
import { useState, type FormEvent } from 'react';
import type { FieldError } from '#domain/messages.ts';
import { SelectField, TextField, errorFor } from '../../components/Field.tsx';
import { ApiError, staffApi, type BookingDto, type ResourceDto } from '../lib/staff-api.ts';
import { ActionResult, type ActionOutcome } from './ActionResult.tsx';

const KINDS: Record<string, string> = { onsite: 'On-site van', dropoff: 'Drop-off bay' };

export interface ResourcesPanelProps {
  resources: ResourceDto[] | null;
  onChanged(): void;
  failed(caught: unknown, report: (message: string) => void): void;
}

export function ResourcesPanel({ resources, onChanged, failed }: ResourcesPanelProps) {
  const [draft, setDraft] = useState({ name: '', kind: '' });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [editing, setEditing] = useState<{ id: string; name: string; error?: string } | null>(null);
  const [result, setResult] = useState<ActionOutcome | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setResult(null);
    try {
      setResult({ text: await work() });
      onChanged();
    } catch (caught) {
      const bookings = caught instanceof ApiError && Array.isArray(caught.body.bookings) ? (caught.body.bookings as BookingDto[]) : undefined;
      failed(caught, (message) => setResult({ text: message, error: true, bookings }));
    } finally {
      setBusy(false);
    }
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setErrors([]);
    setBusy(true);
    setResult(null);
    try {
      const added = await staffApi.addResource(draft);
      setDraft({ name: '', kind: '' });
      setResult({ text: `Added ${added.name}.` });
      onChanged();
    } catch (caught) {
      const fieldErrors = caught instanceof ApiError && Array.isArray(caught.body.errors) ? (caught.body.errors as FieldError[]) : [];
      setErrors(fieldErrors);
      if (fieldErrors.length === 0) failed(caught, (message) => setResult({ text: message, error: true }));
    } finally {
      setBusy(false);
    }
  };

  /** Moves a resource one place up or down: every position is rewritten as the list's order, so ties cannot stick. */
  const reorder = (index: number, by: -1 | 1) =>
    run(async () => {
      const list = [...(resources ?? [])];
      const [moved] = list.splice(index, 1);
      list.splice(index + by, 0, moved!);
      for (const [position, resource] of list.entries()) {
        if (resource.position !== position) await staffApi.changeResource(resource.id, { position });
      }
      return `${moved!.name} moved ${by < 0 ? 'up' : 'down'}.`;
    });

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    setBusy(true);
    try {
      const renamed = await staffApi.changeResource(editing.id, { name: editing.name });
      setEditing(null);
      setResult({ text: `Renamed to ${renamed.name}.` });
      onChanged();
    } catch (caught) {
      failed(caught, (message) => setEditing((e) => e && { ...e, error: message }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card resources" aria-labelledby="resources-title">
      <h3 id="resources-title">Vans and bays</h3>
      <p className="field-hint">Each job holds one van (on-site) or bay (drop-off) for its whole length. The order here is the order of the day view.</p>
      {resources === null ? (
        <div className="spinner" role="status">
          <span className="visually-hidden">Loading the vans and bays…</span>
        </div>
      ) : (
        <ol className="resource-list">
          {resources.map((resource, index) => (
            <li key={resource.id} className={resource.active ? undefined : 'inactive'}>
              {editing?.id === resource.id ? (
                <form className="resource-rename" onSubmit={rename} noValidate>
                  <TextField idPrefix={`rename-${resource.id}`} name="name" label={`New name for ${resource.name}`} maxLength={40} value={editing.name} error={editing.error} onChange={(name) => setEditing({ ...editing, name, error: undefined })} />
                  <button type="submit" className="button button-primary button-small" disabled={busy}>
                    Save name
                  </button>
                  <button type="button" className="button button-ghost button-small" onClick={() => setEditing(null)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <>
                  <span className="resource-name">
                    <strong>{resource.name}</strong>
                    <small>
                      {KINDS[resource.kind]}
                      {resource.active ? '' : ' · inactive (takes no jobs)'}
                    </small>
                  </span>
                  <span className="resource-actions">
                    <button type="button" className="button button-ghost button-small" disabled={busy || index === 0} onClick={() => reorder(index, -1)}>
                      Up<span className="visually-hidden"> {resource.name}</span>
                    </button>
                    <button type="button" className="button button-ghost button-small" disabled={busy || index === resources.length - 1} onClick={() => reorder(index, 1)}>
                      Down<span className="visually-hidden"> {resource.name}</span>
                    </button>
                    <button type="button" className="button button-ghost button-small" disabled={busy} onClick={() => setEditing({ id: resource.id, name: resource.name })}>
                      Rename<span className="visually-hidden"> {resource.name}</span>
                    </button>
                    <button
                      type="button"
                      className="button button-ghost button-small"
                      disabled={busy}
                      onClick={() =>
                        run(async () => {
                          const changed = await staffApi.changeResource(resource.id, { active: !resource.active });
                          return changed.active ? `${changed.name} takes jobs again.` : `${changed.name} is deactivated: it takes no new jobs.`;
                        })
                      }
                    >
                      {resource.active ? 'Deactivate' : 'Reactivate'}
                      <span className="visually-hidden"> {resource.name}</span>
                    </button>
                  </span>
                </>
              )}
            </li>
          ))}
        </ol>
      )}
      <ActionResult outcome={result} />
      <form className="resource-add" aria-labelledby="resource-add-title" onSubmit={add} noValidate>
        <h4 id="resource-add-title">Add a van or bay</h4>
        <div className="field-row">
          <TextField idPrefix="resource" name="name" label="Name" hint="e.g. Van 3, Bay 3" maxLength={40} value={draft.name} error={errorFor(errors, 'name')} onChange={(name) => setDraft((d) => ({ ...d, name }))} />
          <SelectField
            idPrefix="resource"
            name="kind"
            label="Kind"
            placeholder="Choose…"
            options={['onsite', 'dropoff']}
            labelOf={(kind) => KINDS[kind]!}
            value={draft.kind}
            error={errorFor(errors, 'kind')}
            onChange={(kind) => setDraft((d) => ({ ...d, kind }))}
          />
        </div>
        <button type="submit" className="button button-primary" disabled={busy}>
          Add
        </button>
      </form>
    </section>
  );
}
