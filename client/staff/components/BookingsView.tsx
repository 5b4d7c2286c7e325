/**
 * The spec's dashboard: search, filters (Service, Date, Status, Clear Filters), the cards, the
 * details modal, plus status changes, paging and CSV export. Searching and filtering happen in
 * PostgreSQL through /v1/bookings, a page at a time.
 */
import { Suspense, useCallback, useEffect, useState } from 'react';
import { lazyPart } from '../lib/lazy-part.ts';
import { BOOKING_STATUSES } from '#domain/booking-status.ts';
import { ApiError, CONFIRMATION_FILTERS, filterQuery, staffApi, type BookingDto, type BookingFilters, type StatusChangeDto } from '../lib/staff-api.ts';
import { useOpening } from '../lib/use-opening.ts';
import { BookingCard } from './BookingCard.tsx';
import '../../components/Field.css';
import './BookingsView.css';

// Loaded when a booking is first opened: the dashboard's eagerly loaded bundle stays within its budget.
const BookingModal = lazyPart('staff/components/BookingModal.tsx', () => import('./BookingModal.tsx').then((module) => ({ default: module.BookingModal })));
// "Complete" asks for the amount and the payment (issue 21), never a bare status change.
const CompleteDialog = lazyPart('staff/components/CompleteDialog.tsx', () => import('./CompleteDialog.tsx'));

const NO_FILTERS: BookingFilters = { q: '', service: '', date: '', status: '' };
const SEARCH_DELAY_MS = 250;

export function BookingsView({ onSignedOut }: { onSignedOut(): void }) {
  const [filters, setFilters] = useState<BookingFilters>(NO_FILTERS);
  const [search, setSearch] = useState('');
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [services, setServices] = useState<string[]>([]);
  const [bookings, setBookings] = useState<BookingDto[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [open, setOpen] = useState<{ booking: BookingDto; history: StatusChangeDto[] | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState<string | null>(null);
  const [completing, setCompleting] = useState<BookingDto | null>(null);
  // The modal and the completion form are loaded when first opened (see useOpening).
  const { open: opening, busy: openingBusy } = useOpening();

  const failed = useCallback(
    (caught: unknown) => {
      if (caught instanceof ApiError && caught.status === 401) onSignedOut();
      else setError(caught instanceof ApiError ? caught.message : 'The bookings could not be loaded. Check the connection and try again.');
    },
    [onSignedOut],
  );

  useEffect(() => {
    const timer = setTimeout(() => setFilters((current) => (current.q === search ? current : { ...current, q: search })), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    staffApi.services().then((answer) => setServices(answer.data), () => undefined);
  }, []);

  useEffect(() => {
    let current = true;
    setLoading(true);
    setError(null);
    staffApi
      .bookings(filters, null)
      .then((answer) => {
        if (!current) return;
        setBookings(answer.data);
        setCursor(answer.nextCursor);
      }, (caught) => current && failed(caught))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [filters, attempt, failed]);

  const loadMore = async () => {
    if (!cursor) return;
    setLoading(true);
    try {
      const answer = await staffApi.bookings(filters, cursor);
      setBookings((list) => [...list, ...answer.data]);
      setCursor(answer.nextCursor);
    } catch (caught) {
      failed(caught);
    } finally {
      setLoading(false);
    }
  };

  const replace = (updated: BookingDto) => setBookings((list) => list.map((b) => (b._id === updated._id ? updated : b)));

  /** Details that come back after the modal was closed (or another opened) must not open it again. */
  // A status change answers without the zone's name (only the details give it): the name shown stays while the zone does.
  const showIfOpen = (booking: BookingDto, history: StatusChangeDto[] | null) =>
    setOpen((current) =>
      current && current.booking._id === booking._id
        ? { booking: booking.zoneName === undefined && booking.zoneId === current.booking.zoneId ? { ...booking, zoneName: current.booking.zoneName } : booking, history }
        : current,
    );

  const view = async (booking: BookingDto) => {
    setNotice(null);
    opening(booking._id, () => setOpen({ booking, history: null }));
    try {
      const details = await staffApi.booking(booking._id);
      showIfOpen(details.booking, details.history);
      replace(details.booking);
    } catch (caught) {
      failed(caught);
    }
  };

  const changeStatus = async (booking: BookingDto, status: string) => {
    setNotice(null);
    if (status === 'completed') return opening('complete', () => setCompleting(booking));
    setBusy(true);
    try {
      const result = await staffApi.changeStatus(booking, status);
      replace(result.booking);
      showIfOpen(result.booking, result.history);
    } catch (caught) {
      const now = caught instanceof ApiError ? (caught.body.booking as BookingDto | undefined) : undefined;
      if (now) {
        replace(now);
        showIfOpen(now, null);
        if (open?.booking._id === now._id) void staffApi.booking(now._id).then((d) => showIfOpen(d.booking, d.history));
      }
      setNotice(caught instanceof ApiError ? caught.message : 'The change could not be saved. Try again.');
      if (caught instanceof ApiError && caught.status === 401) onSignedOut();
    } finally {
      setBusy(false);
    }
  };

  const completed = (booking: BookingDto, _receipt: unknown, summary: string) => {
    setCompleting(null);
    replace(booking);
    setOutcome(summary);
    if (open?.booking._id === booking._id) void staffApi.booking(booking._id).then((d) => showIfOpen(d.booking, d.history), failed);
  };

  const select = (booking: BookingDto, on: boolean) => {
    setOutcome(null);
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(booking._id);
      else next.delete(booking._id);
      if (next.size === 0) setConfirming(false);
      return next;
    });
  };

  const releaseSelected = async () => {
    setBusy(true);
    setNotice(null);
    try {
      const result = await staffApi.release([...selected], reason.trim());
      result.released.forEach(replace);
      setSelected(new Set());
      setConfirming(false);
      setReason('');
      const skipped = result.skipped.length > 0 ? ` ${result.skipped.length} could not be released (already cancelled or completed).` : '';
      setOutcome(`Released ${result.released.length} booking${result.released.length === 1 ? '' : 's'} as spam. No e-mail was sent.${skipped}`);
    } catch (caught) {
      setNotice(caught instanceof ApiError ? caught.message : 'The bookings could not be released. Try again.');
      if (caught instanceof ApiError && caught.status === 401) onSignedOut();
    } finally {
      setBusy(false);
    }
  };

  const set = (change: Partial<BookingFilters>) => setFilters((current) => ({ ...current, ...change }));
  const clear = () => {
    setSearch('');
    setFilters(NO_FILTERS);
  };

  return (
    <section aria-labelledby="bookings-title">
      <h2 id="bookings-title" className="visually-hidden">
        Bookings
      </h2>
      <div className="toolbar">
        <label htmlFor="booking-search" className="visually-hidden">
          Search bookings
        </label>
        <input id="booking-search" type="search" placeholder="Search bookings..." value={search} onChange={(e) => setSearch(e.target.value)} maxLength={100} />
        <button type="button" className="button button-ghost" aria-expanded={filtersOpen} aria-controls="filters-panel" onClick={() => setFiltersOpen((o) => !o)}>
          Filters
        </button>
        <a className="button button-ghost" href={`/v1/bookings/export.csv?${filterQuery(filters)}`} download>
          Export CSV
        </a>
      </div>
      {filtersOpen && (
        <div id="filters-panel" className="card filters">
          <div className="field">
            <label htmlFor="filter-service">Service</label>
            <select id="filter-service" value={filters.service} onChange={(e) => set({ service: e.target.value })}>
              <option value="">All Services</option>
              {services.map((service) => (
                <option key={service} value={service}>
                  {service}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="filter-date">Date</label>
            <input id="filter-date" type="date" value={filters.date} onChange={(e) => set({ date: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="filter-status">Status</label>
            <select id="filter-status" value={filters.status} onChange={(e) => set({ status: e.target.value })}>
              <option value="">All Statuses</option>
              {BOOKING_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
              {Object.entries(CONFIRMATION_FILTERS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="button button-ghost" onClick={clear}>
            Clear Filters
          </button>
        </div>
      )}
      {selected.size > 0 && (
        <div className="card filters" role="region" aria-label="Selected bookings">
          <p>
            {selected.size} selected
          </p>
          {!confirming ? (
            <>
              <button type="button" className="button button-primary" onClick={() => setConfirming(true)}>
                Release as spam…
              </button>
              <button type="button" className="button button-ghost" onClick={() => setSelected(new Set())}>
                Clear selection
              </button>
            </>
          ) : (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                if (reason.trim()) void releaseSelected();
              }}
            >
              <p id="release-explain">
                {selected.size === 1 ? 'This booking' : `These ${selected.size} bookings`} will be cancelled without any e-mail to the customer, and the places freed.
              </p>
              <div className="field">
                <label htmlFor="release-reason">Reason (kept in the history)</label>
                <input id="release-reason" required maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} aria-describedby="release-explain" autoFocus />
              </div>
              <button type="submit" className="button button-primary" disabled={busy || !reason.trim()}>
                Release {selected.size} as spam
              </button>
              <button type="button" className="button button-ghost" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </form>
          )}
        </div>
      )}
      {outcome && (
        <p className="notice" role="status">
          {outcome}
        </p>
      )}
      {notice && !open && (
        <p className="notice notice-error" role="alert">
          {notice}
        </p>
      )}
      {error ? (
        <div className="card empty" role="alert">
          <p>{error}</p>
          <button type="button" className="button button-primary" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </div>
      ) : loading && bookings.length === 0 ? (
        <div className="spinner" role="status">
          <span className="visually-hidden">Loading bookings…</span>
        </div>
      ) : bookings.length === 0 ? (
        <div className="card empty">
          <p className="empty-title">No bookings found</p>
          <p>Try adjusting your search or filters</p>
        </div>
      ) : (
        <>
          <ul className="booking-grid-list" aria-busy={loading}>
            {bookings.map((booking) => (
              <BookingCard key={booking._id} booking={booking} busy={busy} opening={openingBusy(booking._id)} onView={view} onStatus={changeStatus} selected={selected.has(booking._id)} onSelect={select} />
            ))}
          </ul>
          {cursor && (
            <p className="center">
              <button type="button" className="button button-ghost" onClick={loadMore} disabled={loading}>
                {loading ? 'Loading…' : 'Load more'}
              </button>
            </p>
          )}
        </>
      )}
      {/* There from the start, so that a dialog opened in a transition shows nothing until its code is here. */}
      <Suspense fallback={null}>
        {completing && <CompleteDialog booking={completing} onCompleted={completed} onSignedOut={onSignedOut} onClose={() => setCompleting(null)} />}
        {open && (
          <BookingModal
            booking={open.booking}
            history={open.history}
            busy={busy}
            notice={notice}
            onStatus={changeStatus}
            onClose={() => setOpen(null)}
            onSignedOut={onSignedOut}
            onEdited={(edited, editedHistory) => {
              replace(edited);
              setOpen({ booking: edited, history: editedHistory });
            }}
          />
        )}
      </Suspense>
    </section>
  );
}
