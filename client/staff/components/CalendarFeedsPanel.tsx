/**
 * Calendar feeds (issue 44), the owner's alone, in the Schedule view: a private subscription
 * address per van or bay, or per member of staff on one, for their phone's calendar. The address
 * is shown once, when made (only its token's hash is kept); making another for the same van and
 * person replaces it; revoking ends it.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { CalendarFeedDto, CreatedCalendarFeedDto } from '#api/calendar-feed-schemas.ts';
import type { ResourceDto } from '#api/schemas.ts';
import type { StaffMemberDto } from '#api/staff-member-schemas.ts';
import { ApiError, call, send } from '../lib/staff-api.ts';
import { dateTime } from './format.ts';
import './CalendarFeedsPanel.css';

export function CalendarFeedsPanel({ resources, onSignedOut }: { resources: readonly ResourceDto[]; onSignedOut(): void }) {
  const [feeds, setFeeds] = useState<CalendarFeedDto[] | null>(null);
  const [members, setMembers] = useState<StaffMemberDto[]>([]);
  const [resourceId, setResourceId] = useState('');
  const [memberId, setMemberId] = useState('');
  const [made, setMade] = useState<CreatedCalendarFeedDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const failed = useCallback(
    (caught: unknown, fallback: string) => {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      setError(caught instanceof ApiError ? caught.message : fallback);
    },
    [onSignedOut],
  );
  const load = useCallback(async () => {
    try {
      const [list, staff] = await Promise.all([call<{ data: CalendarFeedDto[] }>('/v1/calendar-feeds'), call<{ members: StaffMemberDto[] }>('/v1/staff-members')]);
      setFeeds(list.data);
      setMembers(staff.members.filter((m) => m.status !== 'disabled'));
    } catch (caught) {
      failed(caught, 'The calendar feeds could not be loaded. Check the connection and try again.');
    }
  }, [failed]);
  useEffect(() => void load(), [load]);

  const active = resources.filter((r) => r.active);
  const chosen = resourceId || active[0]?.id || '';

  const make = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setMade(null);
    try {
      setMade(await send<CreatedCalendarFeedDto>('POST', '/v1/calendar-feeds', { resourceId: chosen, staffMemberId: memberId || null }));
      await load();
    } catch (caught) {
      failed(caught, 'The feed could not be made. Check the connection and try again.');
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (feed: CalendarFeedDto) => {
    setBusy(true);
    setError(null);
    try {
      await call(`/v1/calendar-feeds/${feed.id}`, { method: 'DELETE' });
      if (made?.id === feed.id) setMade(null);
      await load();
    } catch (caught) {
      failed(caught, 'The feed could not be revoked. Check the connection and try again.');
    } finally {
      setBusy(false);
    }
  };
  const forWhom = (feed: CalendarFeedDto) => `${feed.resource.name}${feed.staffMember ? ` – ${feed.staffMember.name}` : ''}`;

  return (
    <section className="card calendar-feeds" aria-labelledby="calendar-feeds-title">
      <h2 id="calendar-feeds-title">Calendar feeds</h2>
      <p>A private address a detailer subscribes to in their phone’s calendar: the van’s jobs from a week back to 60 days ahead, kept up to date.</p>
      <form className="calendar-feeds-form" onSubmit={make}>
        <div className="field">
          <label htmlFor="feed-resource">Van or bay</label>
          <select id="feed-resource" value={chosen} onChange={(e) => setResourceId(e.target.value)}>
            {active.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="feed-member">For</label>
          <select id="feed-member" value={memberId} onChange={(e) => setMemberId(e.target.value)}>
            <option value="">The van or bay itself</option>
            {members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-small" disabled={busy || chosen === ''}>
          Make the address
        </button>
      </form>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      <div role="status" className="calendar-feeds-made">
        {made && (
          <>
            <p>{made.message}</p>
            <label htmlFor="feed-url">{`Address for ${forWhom(made)}`}</label>
            <input id="feed-url" readOnly value={made.url} onFocus={(e) => e.currentTarget.select()} />
          </>
        )}
      </div>
      {feeds && feeds.length === 0 && <p>No feeds yet.</p>}
      {feeds && feeds.length > 0 && (
        <ul className="calendar-feeds-list">
          {feeds.map((feed) => (
            <li key={feed.id}>
              <span>
                <strong>{forWhom(feed)}</strong>
                {` · made ${dateTime(feed.createdAt)} by ${feed.createdBy}`}
              </span>
              <button type="button" className="button button-ghost button-small" disabled={busy} onClick={() => void revoke(feed)}>
                Revoke<span className="visually-hidden">{` the feed of ${forWhom(feed)}`}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
