/**
 * A booking's regular plan, in its details (issue 43): "Part of a plan: every 4 weeks" when the
 * booking belongs to one (made from it, or booked as one of its visits), or, for an upcoming
 * booking that does not, "Make it a regular plan": an interval and a button. Loaded with the
 * details modal, so the dashboard's eager bundle does not carry it.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { BookingDto } from '../lib/staff-api.ts';
import { ApiError } from '../lib/staff-api.ts';
import { intervalLabel, plansApi, PLAN_INTERVALS, type PlanDto } from '../lib/plans-api.ts';
import { plural } from './format.ts';
import './BookingPlan.css';

const upcoming = (booking: BookingDto) => (booking.status === 'pending' || booking.status === 'confirmed') && Date.parse(booking.startsAt) > Date.now();

export function BookingPlan({ booking, onSignedOut }: { booking: BookingDto; onSignedOut?(): void }) {
  // undefined while it is asked; null: none.
  const [plan, setPlan] = useState<PlanDto | null | undefined>(undefined);
  const [weeks, setWeeks] = useState(4);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ text: string; error?: boolean } | null>(null);

  useEffect(() => {
    let current = true;
    plansApi.list({ bookingId: booking._id }).then(
      (answer) => current && setPlan(answer.data[0] ?? null),
      (caught) => {
        if (caught instanceof ApiError && caught.status === 401) onSignedOut?.();
        else if (current) setOutcome({ text: 'Whether it is part of a regular plan could not be checked.', error: true });
      },
    );
    return () => {
      current = false;
    };
  }, [booking._id, onSignedOut]);

  const make = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      const made = await plansApi.start(booking._id, weeks);
      setPlan(made);
      const booked = made.visits.filter((v) => v.state === 'booked').length;
      const waiting = made.visits.filter((v) => v.state === 'needs-time').length;
      setOutcome({ text: `The plan is made: ${plural(booked, 'visit')} booked${waiting ? `, ${waiting} waiting for a time (see Plans)` : ''}. Each visit has its own booking and e-mail.` });
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut?.();
      setOutcome({ text: caught instanceof ApiError ? caught.message : 'The plan could not be made. Check the connection and try again.', error: true });
    } finally {
      setBusy(false);
    }
  };

  const status = (
    <div role="status" className="booking-plan-status">
      {outcome && <p className={outcome.error ? 'notice notice-error' : 'notice notice-success'}>{outcome.text}</p>}
    </div>
  );
  if (plan) {
    return (
      <div className="booking-plan">
        <p>
          <strong>{`Part of a plan: ${intervalLabel(plan.intervalWeeks).toLowerCase()}`}</strong>
          {plan.status === 'active' ? '' : ` (${plan.status})`}
        </p>
        {status}
      </div>
    );
  }
  if (plan === undefined || !upcoming(booking)) return outcome ? <div className="booking-plan">{status}</div> : null;
  return (
    <form className="booking-plan" onSubmit={make}>
      <div className="field">
        <label htmlFor="booking-plan-weeks">Make it a regular plan</label>
        <select id="booking-plan-weeks" value={weeks} onChange={(e) => setWeeks(Number(e.target.value))}>
          {PLAN_INTERVALS.map((w) => (
            <option key={w} value={w}>
              {intervalLabel(w)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button button-ghost button-small" disabled={busy}>
        Make plan
      </button>
      {status}
    </form>
  );
}
