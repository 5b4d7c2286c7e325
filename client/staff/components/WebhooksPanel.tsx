/**
 * Webhooks (issue 44), the owner's alone: the endpoints (URL, events, on or off), one added with
 * its signing secret shown once, a secret rotated, an endpoint turned off, on or deleted, and each
 * endpoint's latest deliveries with "Resend". Loaded when its tab is first opened. No stylesheet of
 * its own (the dashboard links every part's CSS with the page): the Backups table's, and a few inline rules.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { WebhookDeliveryDto, WebhookEndpointDto, WebhookSecretDto } from '#api/webhook-schemas.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from '#domain/webhooks.ts';
import { ApiError, call, send } from '../lib/staff-api.ts';
import { dateTime } from './format.ts';

const WRAP = { overflowWrap: 'anywhere' } as const;

const STATUS_TEXT: Record<WebhookDeliveryDto['status'], string> = { queued: 'Queued', delivered: 'Delivered', failed: 'Failed' };

function Deliveries({ endpoint, onError }: { endpoint: WebhookEndpointDto; onError(caught: unknown): void }) {
  const [rows, setRows] = useState<WebhookDeliveryDto[] | null>(null);
  const load = useCallback(async () => {
    try {
      setRows((await call<{ data: WebhookDeliveryDto[] }>(`/v1/webhooks/${endpoint.id}/deliveries`)).data);
    } catch (caught) {
      onError(caught);
    }
  }, [endpoint.id, onError]);
  useEffect(() => void load(), [load]);
  const resend = async (id: string) => {
    try {
      await call(`/v1/webhooks/deliveries/${id}/resend`, { method: 'POST' });
      await load();
    } catch (caught) {
      onError(caught);
    }
  };
  if (!rows) return <p>Loading deliveries…</p>;
  if (rows.length === 0) return <p>No deliveries yet.</p>;
  return (
    <table className="backups-table" style={WRAP}>
      <caption className="visually-hidden">Latest deliveries to {endpoint.url}, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Last answer</th>
          <th scope="col">
            <span className="visually-hidden">Resend</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((d) => (
          <tr key={d.id}>
            <td>
              {d.event}
              <br />
              <small>{dateTime(d.createdAt)}</small>
            </td>
            <td>
              {STATUS_TEXT[d.status]}, {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
            </td>
            <td>
              {d.lastAttemptAt ? `${d.lastStatus ?? 'no answer'} at ${dateTime(d.lastAttemptAt)}` : '–'}
              {d.lastError && d.status !== 'delivered' && (
                <>
                  <br />
                  <small>{d.lastError}</small>
                </>
              )}
            </td>
            <td>
              {d.status !== 'queued' && (
                <button type="button" className="button button-ghost button-small" onClick={() => void resend(d.id)}>
                  Resend<span className="visually-hidden"> the {d.event} of {dateTime(d.createdAt)}</span>
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function WebhooksPanel({ onSignedOut }: { onSignedOut(): void }) {
  const [endpoints, setEndpoints] = useState<WebhookEndpointDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<WebhookSecretDto | null>(null);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([...WEBHOOK_EVENTS]);
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState<string | null>(null);

  const failed = useCallback(
    (caught: unknown) => {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      const fields = caught instanceof ApiError ? (caught.body.errors as { message: string }[] | undefined) : undefined;
      setError(fields?.[0]?.message ?? (caught instanceof ApiError ? caught.message : 'That did not work. Check the connection and try again.'));
    },
    [onSignedOut],
  );
  const load = useCallback(async () => {
    try {
      setEndpoints((await call<{ data: WebhookEndpointDto[] }>('/v1/webhooks')).data);
    } catch (caught) {
      failed(caught);
    }
  }, [failed]);
  useEffect(() => void load(), [load]);

  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      await load();
    } catch (caught) {
      failed(caught);
    } finally {
      setBusy(false);
    }
  };
  const add = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      setSecret(await send<WebhookSecretDto>('POST', '/v1/webhooks', { url, events, ...(description.trim() ? { description } : {}) }));
      setUrl('');
      setDescription('');
    });
  };
  const toggle = (e: WebhookEvent) => setEvents((now) => (now.includes(e) ? now.filter((x) => x !== e) : WEBHOOK_EVENTS.filter((x) => x === e || now.includes(x))));

  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p>Each change is posted to these addresses, signed as Standard Webhooks says: verify it with the endpoint’s secret.</p>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      <div role="status">
        {secret && (
          <div className="notice" style={WRAP}>
            <p>{secret.message}</p>
            <p>
              Secret for {secret.url}: <code>{secret.secret}</code>
            </p>
            <button type="button" className="button button-ghost button-small" onClick={() => setSecret(null)}>
              I have copied it
            </button>
          </div>
        )}
      </div>
      {endpoints && endpoints.length === 0 && <p>No endpoints yet.</p>}
      {endpoints && endpoints.length > 0 && (
        <ul style={{ listStyle: 'none', padding: 0 }}>
          {endpoints.map((e) => (
            <li key={e.id} style={{ borderBottom: '1px solid var(--color-tint)', paddingBottom: 'var(--space-2)' }}>
              <p style={WRAP}>
                <strong>{e.description || e.url}</strong>
                {e.description && <span> {e.url}</span>}
              </p>
              <p>
                {e.enabled ? 'On' : `Off: ${e.disabledReason ?? ''}`} · {e.events.join(', ')}
                {e.enabled && e.failingSince ? ` · failing since ${dateTime(e.failingSince)}` : ''}
              </p>
              <div style={{ display: 'flex', flexWrap: 'wrap', gap: 'var(--space-2)' }}>
                <button type="button" className="button button-ghost button-small" disabled={busy} onClick={() => void act(() => send('PATCH', `/v1/webhooks/${e.id}`, { enabled: !e.enabled }))}>
                  {e.enabled ? 'Turn off' : 'Turn on'}
                </button>
                <button
                  type="button"
                  className="button button-ghost button-small"
                  disabled={busy}
                  onClick={() => void act(async () => setSecret(await call<WebhookSecretDto>(`/v1/webhooks/${e.id}/secret`, { method: 'POST' })))}
                >
                  New secret
                </button>
                <button
                  type="button"
                  className="button button-ghost button-small"
                  disabled={busy}
                  onClick={() => window.confirm(`Delete ${e.url} and its deliveries?`) && void act(() => call(`/v1/webhooks/${e.id}`, { method: 'DELETE' }))}
                >
                  Delete
                </button>
                <button type="button" className="button button-ghost button-small" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                  Deliveries
                </button>
              </div>
              {open === e.id && <Deliveries endpoint={e} onError={failed} />}
            </li>
          ))}
        </ul>
      )}
      <form style={{ display: 'grid', gap: 'var(--space-1)', maxWidth: '36rem' }} onSubmit={add}>
        <h3>Add an endpoint</h3>
        <label htmlFor="webhook-url">URL</label>
        <input id="webhook-url" type="url" required inputMode="url" placeholder="https://" value={url} onChange={(e) => setUrl(e.target.value)} />
        <label htmlFor="webhook-description">Description (optional)</label>
        <input id="webhook-description" maxLength={200} value={description} onChange={(e) => setDescription(e.target.value)} />
        <fieldset>
          <legend>Events</legend>
          {WEBHOOK_EVENTS.map((e) => (
            <label key={e} style={{ display: 'block' }}>
              <input type="checkbox" checked={events.includes(e)} onChange={() => toggle(e)} /> {e}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="button button-primary button-small" disabled={busy || events.length === 0} aria-busy={busy}>
          Add endpoint
        </button>
      </form>
    </section>
  );
}
