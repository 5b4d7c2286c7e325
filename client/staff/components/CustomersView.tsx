/**
 * The "Customers" view (issue 22): one card per customer (their bookings grouped by e-mail, or by
 * phone without one) with contact, bookings, completed jobs, total spent and last and next visit;
 * a search by name, e-mail, phone or booking reference; "More" pages on (keyset cursor); and a
 * customer's page with their vehicles and the jobs done on each (issue 41), their bookings and
 * contact messages, their maintenance plans (issue 43, opened on the page as in the Plans view),
 * and "Book again". Loaded when the tab
 * is first opened, so the dashboard's own bundle does not grow.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { CustomerDetailsDto, CustomerDto, CustomerPageDto, VisitDto } from '#api/customer-schemas.ts';
import { packageForPeople, vehicleForPeople } from '#domain/catalogue.ts';
import { MAX_VEHICLES } from '#domain/job.ts';
import { formatNzd } from '#domain/pricing.ts';
import { addOnNames } from '#domain/vehicle-text.ts';
import { ApiError } from '../lib/staff-api.ts';
import { plansApi, type PlanDto } from '../lib/plans-api.ts';
import type { BookingDraft } from './BookingFields.tsx';
import { CustomerPrivacy, lastOnSite } from './CustomerPrivacy.tsx';
import { PlanCards, PlanPage } from './PlansView.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { cardDate, dateTime, plural } from './format.ts';
import './CustomersView.css';

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, typeof body.message === 'string' ? body.message : `Request failed (${response.status})`, body);
  return body as T;
}

const customersApi = {
  list(q: string, cursor: string | null) {
    const params = new URLSearchParams();
    if (q) params.set('q', q);
    if (cursor) params.set('cursor', cursor);
    return getJson<CustomerPageDto>(`/v1/customers?${params}`);
  },
  one: (id: string) => getJson<CustomerDetailsDto>(`/v1/customers/${id}`),
};

function visitText(visit: VisitDto | null): string {
  return visit ? `${cardDate(visit.date)}, ${visit.time}` : '—';
}

function Facts({ customer }: { customer: CustomerDto }) {
  return (
    <dl className="customer-facts">
      <div>
        <dt>Bookings</dt>
        <dd>{customer.bookings}</dd>
      </div>
      <div>
        <dt>Completed</dt>
        <dd>{customer.completedJobs}</dd>
      </div>
      <div>
        <dt>Total spent</dt>
        <dd>{formatNzd(customer.totalSpentCents)}</dd>
      </div>
      <div>
        <dt>Last visit</dt>
        <dd>{visitText(customer.lastVisit)}</dd>
      </div>
      <div>
        <dt>Next visit</dt>
        <dd>{visitText(customer.nextVisit)}</dd>
      </div>
    </dl>
  );
}

function Contact({ customer }: { customer: CustomerDto }) {
  return (
    <p className="customer-contact">
      {customer.email ? <a href={`mailto:${customer.email}`}>{customer.email}</a> : <span>No e-mail</span>}
      {' · '}
      <a href={`tel:${customer.phone.replace(/[^0-9+]/g, '')}`}>{customer.phone}</a>
    </p>
  );
}

/**
 * "Book again": their details; their vehicles as each was last booked (up to the four of a visit),
 * or without any known by plate or make and model, those of their latest booking; and the address
 * of their latest on-site one.
 */
function bookAgainPrefill({ customer, bookings, vehicles }: CustomerDetailsDto): Partial<BookingDraft> {
  const last = bookings[0];
  const address = lastOnSite(bookings);
  const again = vehicles.length > 0 ? vehicles.slice(0, MAX_VEHICLES).map((v) => v.vehicle) : last?.vehicles;
  return {
    name: customer.name,
    email: customer.email,
    phone: customer.phone,
    ...(again ? { vehicles: again } : {}),
    ...(last ? { serviceType: last.serviceType } : {}),
    ...(address
      ? { houseNumber: address.houseNumber, streetAddress: address.streetAddress, suburb: address.suburb, city: address.city, postalCode: address.postalCode, region: address.region, landmark: address.landmark }
      : {}),
  };
}

interface CustomerPageProps {
  id: string;
  onBack(): void;
  onSignedOut(): void;
  /** A correction may make them another customer (another e-mail): their page by its new id. */
  onOpen(id: string): void;
  onBookAgain?(prefill: Partial<BookingDraft>): void;
}

function CustomerPage({ id, onBack, onSignedOut, onOpen, onBookAgain }: CustomerPageProps) {
  const [version, setVersion] = useState(0);
  const [details, setDetails] = useState<CustomerDetailsDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    customersApi.one(id).then(setDetails, (caught) => (caught instanceof ApiError && caught.status === 401 ? onSignedOut() : setError(caught instanceof ApiError ? caught.message : 'The customer could not be loaded.')));
  }, [id, version, onSignedOut]);
  useEffect(() => {
    if (details) heading.current?.focus();
  }, [details]);
  // Their plans; none shown when they cannot be read (the page is about the customer).
  const [plans, setPlans] = useState<PlanDto[]>([]);
  const [openPlan, setOpenPlan] = useState<string | null>(null);
  useEffect(() => {
    if (openPlan) return;
    let current = true;
    plansApi.list({ customerId: id }).then(
      (answer) => current && setPlans(answer.data),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [id, version, openPlan]);

  const back = (
    <button type="button" className="button button-ghost button-small" onClick={onBack}>
      ← All customers
    </button>
  );
  if (error) {
    return (
      <section aria-label="Customer">
        {back}
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      </section>
    );
  }
  if (!details) {
    return (
      <div className="spinner" role="status">
        <span className="visually-hidden">Loading the customer…</span>
      </div>
    );
  }
  const { customer, bookings, vehicles, messages } = details;
  if (openPlan) return <PlanPage key={openPlan} id={openPlan} backLabel={`← ${customer.name}`} onBack={() => setOpenPlan(null)} onSignedOut={onSignedOut} />;
  return (
    <section className="customer-page" aria-labelledby="customer-title">
      {back}
      <div className="card customer-summary">
        <h2 id="customer-title" ref={heading} tabIndex={-1}>
          {customer.name}
        </h2>
        <Contact customer={customer} />
        <Facts customer={customer} />
        {onBookAgain && (
          <p>
            <button type="button" className="button button-accent button-small" onClick={() => onBookAgain(bookAgainPrefill(details))}>
              Book again
            </button>
          </p>
        )}
      </div>
      <CustomerPrivacy
        details={details}
        onCorrected={(newId) => {
          if (newId === id) setVersion((n) => n + 1);
          else onOpen(newId);
        }}
        onErased={onBack}
      />
      <h3>Vehicles</h3>
      {vehicles.length === 0 ? (
        <p className="customer-muted">No vehicle known by its plate, or make and model.</p>
      ) : (
        <ul className="customer-vehicles">
          {vehicles.map(({ name, vehicle, jobs }) => (
            <li key={name} className="card">
              <p>
                <strong>{name}</strong>{' '}
                <span className="customer-muted">
                  {[vehicleForPeople({ vehicle_type: vehicle.vehicleType, selected_vehicle_type: vehicle.selectedVehicleType }), vehicle.colour, vehicle.plate && `${vehicle.make} ${vehicle.model}`.trim()].filter(Boolean).join(' · ')}
                </span>
              </p>
              {jobs.length === 0 ? (
                <p className="customer-muted">No jobs done yet.</p>
              ) : (
                <ul className="vehicle-jobs">
                  {jobs.map((job) => (
                    <li key={job.bookingId}>
                      {`${cardDate(job.date)} · ${packageForPeople({ service: job.service, coating_type: job.coatingType })}${job.addOns.length > 0 ? ` + ${addOnNames(job.addOns)}` : ''}`}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      {plans.length > 0 && (
        <>
          <h3>Plans</h3>
          <PlanCards plans={plans} onOpen={setOpenPlan} withCustomer={false} />
        </>
      )}
      <h3>Bookings</h3>
      <ul className="customer-bookings">
        {bookings.map((booking) => (
          <li key={booking._id} className="card customer-booking">
            <div className="customer-booking-head">
              <strong>{booking.reference}</strong>
              <StatusBadge status={booking.status} />
            </div>
            <p>
              {`${cardDate(booking.date)}, ${booking.time} · ${booking.service} · ${booking.serviceType === 'dropoff' ? 'Drop-off' : 'On-site'} · ${formatNzd(booking.quote.totalCents)}`}
            </p>
            {booking.serviceType === 'onsite' && <p className="customer-muted">{[`${booking.houseNumber} ${booking.streetAddress}`.trim(), booking.suburb, booking.city].filter(Boolean).join(', ')}</p>}
          </li>
        ))}
      </ul>
      <h3>Messages</h3>
      {messages.length === 0 ? (
        <p className="customer-muted">No contact messages from {customer.email ? 'this address' : 'this customer (no e-mail)'}.</p>
      ) : (
        <ul className="customer-messages">
          {messages.map((message) => (
            <li key={message.id} className="card">
              <p className="customer-muted">{dateTime(message.createdAt)}</p>
              <p className="customer-message-text">{message.message}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function CustomersView({ onSignedOut, onBookAgain }: { onSignedOut(): void; onBookAgain?(prefill: Partial<BookingDraft>): void }) {
  const [customers, setCustomers] = useState<CustomerDto[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  // Back from a customer's page that changed them (corrected, erased): the list is read again.
  const [reloads, setReloads] = useState(0);

  const fail = useCallback((caught: unknown) => (caught instanceof ApiError && caught.status === 401 ? onSignedOut() : setError('The customers could not be loaded.')), [onSignedOut]);

  useEffect(() => {
    setCustomers(null);
    setError(null);
    customersApi.list(query, null).then((page) => {
      setCustomers(page.data);
      setNextCursor(page.nextCursor);
    }, fail);
  }, [query, reloads, fail]);

  const more = async () => {
    if (!nextCursor) return;
    setLoadingMore(true);
    try {
      const page = await customersApi.list(query, nextCursor);
      setCustomers((list) => [...(list ?? []), ...page.data]);
      setNextCursor(page.nextCursor);
    } catch (caught) {
      fail(caught);
    } finally {
      setLoadingMore(false);
    }
  };

  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery(typed.trim());
  };

  if (open) {
    const back = () => {
      setOpen(null);
      setReloads((n) => n + 1);
    };
    return <CustomerPage key={open} id={open} onBack={back} onSignedOut={onSignedOut} onOpen={setOpen} onBookAgain={onBookAgain} />;
  }

  return (
    <section aria-labelledby="customers-title">
      <h2 id="customers-title">Customers</h2>
      <form className="customers-search" role="search" onSubmit={search}>
        <div className="field">
          <label htmlFor="customers-q">Search by name, e-mail, phone or booking reference</label>
          <input id="customers-q" type="search" value={typed} maxLength={100} onChange={(event) => setTyped(event.target.value)} />
        </div>
        <button type="submit" className="button button-primary">
          Search
        </button>
      </form>
      {error ? (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      ) : customers === null ? (
        <div className="spinner" role="status">
          <span className="visually-hidden">Loading customers…</span>
        </div>
      ) : customers.length === 0 ? (
        <div className="card empty">
          <p className="empty-title">{query ? `No customer matches “${query}”` : 'No customers yet'}</p>
        </div>
      ) : (
        <>
          <p className="visually-hidden" role="status">{`${plural(customers.length, 'customer')} shown`}</p>
          <ul className="customers">
            {customers.map((customer) => (
              <li key={customer.id} className="card customer-card">
                <h3>
                  <button type="button" className="customer-open" onClick={() => setOpen(customer.id)}>
                    {customer.name}
                  </button>
                </h3>
                <Contact customer={customer} />
                <Facts customer={customer} />
              </li>
            ))}
          </ul>
          {nextCursor && (
            <button type="button" className="button button-ghost customers-more" onClick={() => void more()} disabled={loadingMore}>
              {loadingMore ? 'Loading…' : 'More'}
            </button>
          )}
        </>
      )}
    </section>
  );
}
