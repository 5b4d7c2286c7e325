/**
 * /dashboard (spec sections 2 and 6, issue 4). In session mode a browser without a session sees
 * the sign-in form (a plain form post, so it works without JavaScript); in prompt mode the
 * original's gate asks with window.prompt and a wrong answer is sent home. The password is checked
 * by the server in both.
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { BookingsView } from '../components/BookingsView.tsx';
import { staffApi, type BookingDto } from '../lib/staff-api.ts';
import type { BookingDraft } from '../components/BookingFields.tsx';
import type { PageProps } from '../../page-props.ts';
import type { DashboardState } from '../../page-state.ts';
import '../../components/Field.css';
import './DashboardPage.css';

// Loaded when the tab is first opened: the dashboard's own bundle stays within its budget.
const ScheduleView = lazy(() => import('../components/ScheduleView.tsx'));
const EmailsView = lazy(() => import('../components/EmailsView.tsx'));
const CustomersView = lazy(() => import('../components/CustomersView.tsx'));
const StaffMembersView = lazy(() => import('../components/StaffMembersView.tsx'));
const StaffBookingForm = lazy(() => import('../components/StaffBookingForm.tsx'));
const DayView = lazy(() => import('../components/DayView.tsx'));
const TodayView = lazy(() => import('../components/TodayView.tsx'));
const TakingsPanel = lazy(() => import('../components/TakingsPanel.tsx'));
const CompleteDialog = lazy(() => import('../components/CompleteDialog.tsx'));
const PasswordDialog = lazy(() => import('../components/PasswordDialog.tsx'));
const Inbox = lazy(() => import('../components/Inbox.tsx').then((module) => ({ default: module.Inbox })));

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

/** The staff frame (issue 21): a slim bar naming the business, instead of the marketing header. */
function StaffBar({ businessName }: { businessName: string }) {
  return (
    <div className="staff-header">
      <a className="staff-brand" href="/dashboard">
        {businessName} <span>Staff</span>
      </a>
      <a className="staff-site-link" href="/">
        View the website
      </a>
    </div>
  );
}

type Tab = 'bookings' | 'day' | 'messages' | 'schedule' | 'emails' | 'customers' | 'today' | 'takings' | 'staff';

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

  const tabs: { key: Tab; label: string; count?: number | null }[] = [
    { key: 'bookings', label: 'Bookings' },
    { key: 'today', label: 'Today' },
    { key: 'day', label: 'Day view' },
    { key: 'messages', label: 'Messages', count: unread },
    { key: 'schedule', label: 'Schedule' },
    { key: 'emails', label: 'E-mails' },
    { key: 'customers', label: 'Customers' },
    { key: 'takings', label: 'Takings' },
    // Staff accounts: the owner's alone (issue 22).
    ...(state.staffRole === 'owner' || (prompt && !state.signedIn) ? [{ key: 'staff' as const, label: 'Staff' }] : []),
  ];
  return (
    <>
    <StaffBar businessName={business.name} />
    <section className="section dashboard">
      <div className="container">
        <div className="dashboard-head">
          <h1>Booking Dashboard</h1>
          <button type="button" className="button button-accent button-small" onClick={() => {
              setBookingPrefill(undefined);
              setNewBooking(true);
            }}>
            New booking
          </button>
          <div className="dashboard-account">
            <button type="button" className="button button-ghost button-small" onClick={() => setChangingPassword(true)}>
              Change password
            </button>
            <form method="post" action="/dashboard/logout">
              <button type="submit" className="button button-ghost button-small">
                Sign out
              </button>
            </form>
          </div>
        </div>
        {changingPassword && (
          <Suspense fallback={<TabLoading what="the password form" />}>
            <PasswordDialog account={state.staffAccount === true} onSignedOut={signedOut} onClose={() => setChangingPassword(false)} />
          </Suspense>
        )}
        <nav className="tabs" aria-label="Dashboard views">
          {tabs.map((t) => (
            <button key={t.key} type="button" className={t.key === tab ? 'tab active' : 'tab'} aria-current={t.key === tab ? 'page' : undefined} onClick={() => setTab(t.key)}>
              {t.label}{' '}
              {t.count ? (
                <span className="count">
                  {t.count}
                  <span className="visually-hidden"> unread</span>
                </span>
              ) : null}
            </button>
          ))}
        </nav>
        {tab === 'bookings' && <BookingsView key={taken} onSignedOut={signedOut} />}
        {newBooking && (
          <Suspense fallback={<TabLoading what="the booking form" />}>
            <StaffBookingForm key={JSON.stringify(bookingPrefill ?? {})} prefill={bookingPrefill} onCreated={() => setTaken((n) => n + 1)} onSignedOut={signedOut} onClose={() => setNewBooking(false)} />
          </Suspense>
        )}
        {tab === 'today' && (
          <Suspense fallback={<TabLoading what="today" />}>
            <TodayView key={completed} onSignedOut={signedOut} onComplete={setCompleting} />
          </Suspense>
        )}
        {tab === 'takings' && (
          <Suspense fallback={<TabLoading what="the takings" />}>
            <TakingsPanel onSignedOut={signedOut} />
          </Suspense>
        )}
        {completing && (
          <Suspense fallback={<TabLoading what="the completion form" />}>
            <CompleteDialog
              booking={completing}
              onCompleted={() => {
                setCompleting(null);
                setCompleted((n) => n + 1);
              }}
              onSignedOut={signedOut}
              onClose={() => setCompleting(null)}
            />
          </Suspense>
        )}
        {tab === 'day' && (
          <Suspense fallback={<TabLoading what="the day view" />}>
            <DayView times={state.schedule.times} onSignedOut={signedOut} />
          </Suspense>
        )}
        {tab === 'messages' && (
          <Suspense fallback={<TabLoading what="the messages" />}>
            <Inbox onSignedOut={signedOut} onUnread={setUnread} />
          </Suspense>
        )}
        {tab === 'schedule' && (
          <Suspense fallback={<TabLoading what="the schedule" />}>
            <ScheduleView shape={state.schedule} onSignedOut={signedOut} />
          </Suspense>
        )}
        {tab === 'customers' && (
          <Suspense fallback={<TabLoading what="the customers" />}>
            <CustomersView
              onSignedOut={signedOut}
              onBookAgain={(prefill) => {
                setBookingPrefill(prefill);
                setNewBooking(true);
              }}
            />
          </Suspense>
        )}
        {tab === 'staff' && (
          <Suspense fallback={<TabLoading what="the staff accounts" />}>
            <StaffMembersView onSignedOut={signedOut} />
          </Suspense>
        )}
        {tab === 'emails' && (
          <Suspense fallback={<TabLoading what="the e-mails" />}>
            <EmailsView onSignedOut={signedOut} />
          </Suspense>
        )}
      </div>
    </section>
    </>
  );
}

/** What a tab shows while its code loads (each tab but Bookings is loaded when first opened). */
function TabLoading({ what }: { what: string }) {
  return (
    <div className="spinner" role="status">
      <span className="visually-hidden">Loading {what}…</span>
    </div>
  );
}
