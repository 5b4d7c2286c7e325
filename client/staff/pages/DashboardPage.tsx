/**
 * /dashboard (spec sections 2 and 6, issue 4). In session mode a browser without a session sees
 * the sign-in form (a plain form post, so it works without JavaScript); in prompt mode the
 * original's gate asks with window.prompt and a wrong answer is sent home. The password is checked
 * by the server in both.
 */
import { Suspense, useCallback, useEffect, useState } from 'react';
import { lazyPart } from '../lib/lazy-part.ts';
import { BookingsView } from '../components/BookingsView.tsx';
import { PartBoundary } from '../components/PartBoundary.tsx';
import { StaffBar } from '../components/StaffBar.tsx';
import { staffApi, type BookingDto } from '../lib/staff-api.ts';
import { sendEarly, type EarlyRequest } from '../lib/early-data.ts';
import { useOpening } from '../lib/use-opening.ts';
import type { BookingDraft } from '../components/BookingFields.tsx';
import type { PageProps } from '../../page-props.ts';
import type { DashboardState } from '../../page-state.ts';
import '../../components/Field.css';
import './DashboardPage.css';

// Loaded when the tab is first opened: the dashboard's own bundle stays within its budget.
const ScheduleView = lazyPart('staff/components/ScheduleView.tsx', () => import('../components/ScheduleView.tsx'));
const EmailsView = lazyPart('staff/components/EmailsView.tsx', () => import('../components/EmailsView.tsx'));
const CustomersView = lazyPart('staff/components/CustomersView.tsx', () => import('../components/CustomersView.tsx'));
const PlansView = lazyPart('staff/components/PlansView.tsx', () => import('../components/PlansView.tsx'));
const StaffBookingForm = lazyPart('staff/components/StaffBookingForm.tsx', () => import('../components/StaffBookingForm.tsx'));
const DayView = lazyPart('staff/components/DayView.tsx', () => import('../components/DayView.tsx'));
const TodayView = lazyPart('staff/components/TodayView.tsx', () => import('../components/TodayView.tsx'));
const OwnerPanel = lazyPart('staff/components/OwnerPanels.tsx', () => import('../components/OwnerPanels.tsx'));
const TakingsPanel = lazyPart('staff/components/TakingsPanel.tsx', () => import('../components/TakingsPanel.tsx'));
const CompleteDialog = lazyPart('staff/components/CompleteDialog.tsx', () => import('../components/CompleteDialog.tsx'));
const PasswordDialog = lazyPart('staff/components/PasswordDialog.tsx', () => import('../components/PasswordDialog.tsx'));
const Inbox = lazyPart('staff/components/Inbox.tsx', () => import('../components/Inbox.tsx').then((module) => ({ default: module.Inbox })));

export const WRONG_PASSWORD_ALERT = 'Incorrect password! Redirecting...';

function SignInForm({ error, email }: { error: string | null; email: string }) {
  return (
    <section className="section">
      <div className="container narrow">
        <form className="card form sign-in" method="post" action="/dashboard/login" aria-labelledby="sign-in-title">
          <h1 id="sign-in-title">Staff sign-in</h1>
          {error && (
            <p className="notice notice-error" role="alert">
              {error}
            </p>
          )}
          <div className="field">
            <label htmlFor="sign-in-email">E-mail (staff accounts; leave empty for the owner’s sign-in)</label>
            <input id="sign-in-email" name="email" type="email" autoComplete="username" maxLength={254} defaultValue={email} />
          </div>
          <div className="field">
            <label htmlFor="sign-in-name">Your name (shown in booking histories)</label>
            <input id="sign-in-name" name="name" autoComplete="name" maxLength={60} />
          </div>
          <div className="field">
            <label htmlFor="sign-in-password">Password</label>
            <input id="sign-in-password" name="password" type="password" autoComplete="current-password" required maxLength={200} />
          </div>
          <button type="submit" className="button button-accent button-large">
            Sign in
          </button>
        </form>
      </div>
    </section>
  );
}

type Tab = 'bookings' | 'day' | 'messages' | 'schedule' | 'emails' | 'customers' | 'plans' | 'today' | 'takings' | 'staff' | 'backups' | 'webhooks';

export default function DashboardPage({ state, business }: PageProps<DashboardState>) {
  const [signedIn, setSignedIn] = useState(state.signedIn);
  const [tab, setTab] = useState<Tab>('bookings');
  const [unread, setUnread] = useState<number | null>(null);
  const [newBooking, setNewBooking] = useState(false);
  // "Book again" from a customer's page: the form opens filled with their details.
  const [bookingPrefill, setBookingPrefill] = useState<Partial<BookingDraft> | undefined>(undefined);
  const [taken, setTaken] = useState(0);
  const [completing, setCompleting] = useState<BookingDto | null>(null);
  const [completed, setCompleted] = useState(0);
  const [changingPassword, setChangingPassword] = useState(false);
  // Each view and dialog but Bookings is loaded when first opened (see useOpening).
  const { open, busy } = useOpening();
  const prompt = state.mode === 'prompt';

  useEffect(() => {
    if (!prompt || signedIn) return;
    const password = window.prompt('Enter the dashboard password');
    const refuse = () => {
      window.alert(WRONG_PASSWORD_ALERT);
      window.location.assign('/');
    };
    if (!password) return refuse();
    staffApi.login(password).then((response) => (response.status === 204 ? setSignedIn(true) : refuse()), refuse);
  }, [prompt, signedIn]);

  useEffect(() => {
    // The unread count shows on the Messages tab from the start; it is advisory, so a failure is ignored.
    if (signedIn) staffApi.unreadMessages().then((answer) => setUnread(answer.unread), () => undefined);
  }, [signedIn]);

  const signedOut = useCallback(() => {
    if (prompt) window.location.assign('/');
    else setSignedIn(false);
  }, [prompt]);

  if (!signedIn) {
    const page = prompt ? (
      <section className="section">
        <div className="container narrow">
          <h1>Booking Dashboard</h1>
          <p role="status">Checking access…</p>
        </div>
      </section>
    ) : (
      <SignInForm error={state.signInError} email={state.signInEmail ?? ''} />
    );
    return (
      <>
        <StaffBar businessName={business.name} />
        {page}
      </>
    );
  }

  const owner = state.staffRole === 'owner' || (prompt && !state.signedIn);
  // `early`: the view's first request, sent with the tap (see sendEarly).
  const tabs: { key: Tab; label: string; count?: number | null; early?: EarlyRequest }[] = [
    { key: 'bookings', label: 'Bookings' },
    { key: 'today', label: 'Today', early: 'today-schedule' },
    { key: 'day', label: 'Day view', early: 'today-schedule' },
    { key: 'messages', label: 'Messages', count: unread, early: 'messages' },
    { key: 'schedule', label: 'Schedule' },
    { key: 'emails', label: 'E-mails', early: 'emails' },
    { key: 'customers', label: 'Customers' },
    { key: 'plans', label: 'Plans' },
    { key: 'takings', label: 'Takings' },
    // The owner's alone: staff accounts (issue 22); backups, which hold every customer's details
    // (issue 42); webhooks, which carry bookings to other systems (issue 44).
    ...(owner
      ? [
          { key: 'staff' as const, label: 'Staff' },
          { key: 'backups' as const, label: 'Backups' },
          { key: 'webhooks' as const, label: 'Webhooks' },
        ]
      : []),
  ];
  return (
    <>
    <StaffBar businessName={business.name} />
    <section className="section dashboard">
      <div className="container">
        <div className="dashboard-head">
          <h1>Booking Dashboard</h1>
          <button type="button" className="button button-accent button-small" aria-busy={busy('new-booking')} onClick={() => open('new-booking', () => {
              setBookingPrefill(undefined);
              setNewBooking(true);
            })}>
            New booking
          </button>
          <div className="dashboard-account">
            <button type="button" className="button button-ghost button-small" aria-busy={busy('password')} onClick={() => open('password', () => setChangingPassword(true))}>
              Change password
            </button>
            <form method="post" action="/dashboard/logout">
              <button type="submit" className="button button-ghost button-small">
                Sign out
              </button>
            </form>
          </div>
        </div>
        <PartBoundary part="dialogs">
          {/* The dialogs' boundary, also there from the start: each opens once its code is here. */}
          <Suspense fallback={null}>
            {changingPassword && <PasswordDialog account={state.staffAccount === true} onSignedOut={signedOut} onClose={() => setChangingPassword(false)} />}
            {newBooking && (
              <StaffBookingForm key={JSON.stringify(bookingPrefill ?? {})} prefill={bookingPrefill} onCreated={() => setTaken((n) => n + 1)} onSignedOut={signedOut} onClose={() => setNewBooking(false)} />
            )}
            {completing && (
              <CompleteDialog
                booking={completing}
                onCompleted={() => {
                  setCompleting(null);
                  setCompleted((n) => n + 1);
                }}
                onSignedOut={signedOut}
                onClose={() => setCompleting(null)}
              />
            )}
          </Suspense>
        </PartBoundary>
        <nav className="tabs" aria-label="Dashboard views">
          {tabs.map((t) => (
            <button key={t.key} type="button" className={t.key === tab ? 'tab active' : 'tab'} aria-current={t.key === tab ? 'page' : undefined} aria-busy={busy(t.key)} onClick={() => {
                if (t.key === tab) return;
                if (t.early) sendEarly(t.early);
                open(t.key, () => setTab(t.key));
              }}>
              {t.label}{' '}
              {t.count ? (
                <span className="count">
                  {t.count}
                  <span className="visually-hidden"> unread</span>
                </span>
              ) : null}
            </button>
          ))}
          {/* The owner's Insights, the business's figures (issue 44): a page of its own. */}
          {owner && (
            <a className="tab" href="/dashboard/insights">
              Insights
            </a>
          )}
        </nav>
        <PartBoundary part={tab}>
          {/* One boundary for every view, there from the start: a view opened in a transition keeps the one before on screen. */}
          <Suspense fallback={<ViewLoading />}>
            {tab === 'bookings' && <BookingsView key={taken} onSignedOut={signedOut} />}
            {tab === 'today' && <TodayView key={completed} onSignedOut={signedOut} onComplete={(booking) => open('complete', () => setCompleting(booking))} />}
            {tab === 'takings' && <TakingsPanel onSignedOut={signedOut} />}
            {tab === 'day' && <DayView times={state.schedule.times} onSignedOut={signedOut} />}
            {tab === 'messages' && <Inbox onSignedOut={signedOut} onUnread={setUnread} />}
            {tab === 'schedule' && <ScheduleView shape={state.schedule} onSignedOut={signedOut} owner={state.staffRole === 'owner'} />}
            {tab === 'customers' && (
              <CustomersView
                onSignedOut={signedOut}
                onBookAgain={(prefill) =>
                  open('new-booking', () => {
                    setBookingPrefill(prefill);
                    setNewBooking(true);
                  })
                }
              />
            )}
            {tab === 'plans' && <PlansView onSignedOut={signedOut} />}
            {(tab === 'staff' || tab === 'backups' || tab === 'webhooks') && <OwnerPanel panel={tab} onSignedOut={signedOut} />}
            {tab === 'emails' && <EmailsView onSignedOut={signedOut} />}
          </Suspense>
        </PartBoundary>
      </div>
    </section>
    </>
  );
}

/** What shows while a view's code loads, should it ever suspend outside a transition. */
function ViewLoading() {
  return (
    <div className="spinner" role="status">
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}
