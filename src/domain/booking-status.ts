/**
 * Booking statuses (spec section 4, issue 21) and the one table of the changes staff may make.
 * Shared by the server, which enforces it (POST /v1/bookings/{id}/status, the completion), and the
 * dashboard, which offers only the buttons the table allows.
 *
 * | from                 | to         | button          | condition                                  |
 * | -------------------- | ---------- | --------------- | ------------------------------------------ |
 * | pending              | confirmed  | Confirm         |                                            |
 * | confirmed            | completed  | Complete        |                                            |
 * | pending, confirmed   | no-show    | No-show         | the appointment has started (starts_at <= now) |
 * | offered, pending, confirmed | cancelled | Cancel    | late when within MANAGE_CUTOFF_HOURS of the start; an offer is withdrawn |
 * | confirmed, completed, cancelled, no-show | pending | Back to pending | |
 *
 * An offer (a place held for a waitlist entry, issue 43) becomes pending only when its customer
 * confirms it; staff may withdraw it. Every other change (a status to itself among them) is refused.
 */
export const BOOKING_STATUSES = ['offered', 'pending', 'confirmed', 'completed', 'no-show', 'cancelled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export function isBookingStatus(value: string): value is BookingStatus {
  return (BOOKING_STATUSES as readonly string[]).includes(value);
}

/** A time condition on a change: 'started' is allowed only once the appointment has started. */
export type StatusCondition = 'started';

export interface StatusAction {
  to: BookingStatus;
  label: string;
  from: readonly BookingStatus[];
  when?: StatusCondition;
}

export const STATUS_ACTIONS: readonly StatusAction[] = [
  { to: 'confirmed', label: 'Confirm', from: ['pending'] },
  { to: 'completed', label: 'Complete', from: ['confirmed'] },
  { to: 'no-show', label: 'No-show', from: ['pending', 'confirmed'], when: 'started' },
  { to: 'cancelled', label: 'Cancel', from: ['offered', 'pending', 'confirmed'] },
  { to: 'pending', label: 'Back to pending', from: ['confirmed', 'completed', 'cancelled', 'no-show'] },
];

/** When the appointment starts and what time it is now, for the changes with a time condition. */
export interface StatusTiming {
  startsAt: Date | string;
  now: Date;
}

function started(timing: StatusTiming): boolean {
  return new Date(timing.startsAt).getTime() <= timing.now.getTime();
}

function conditionMet(action: StatusAction, timing: StatusTiming | undefined): boolean {
  if (!action.when) return true;
  return timing !== undefined && started(timing);
}

/**
 * The changes allowed from `status`. Without `timing`, the ones with a time condition are left
 * out (a no-show is offered only once the appointment has started).
 */
export function actionsFrom(status: string, timing?: StatusTiming): readonly StatusAction[] {
  return STATUS_ACTIONS.filter((action) => (action.from as readonly string[]).includes(status) && conditionMet(action, timing));
}

/** Why a change is refused: not in the table at all, or not yet (its time condition). */
export type StatusRefusal = 'not-allowed' | 'not-started';

export function statusRefusal(from: string, to: string, timing?: StatusTiming): StatusRefusal | null {
  const action = STATUS_ACTIONS.find((a) => a.to === to && (a.from as readonly string[]).includes(from));
  if (!action) return 'not-allowed';
  return conditionMet(action, timing) ? null : 'not-started';
}

export function canChangeStatus(from: string, to: string, timing?: StatusTiming): boolean {
  return statusRefusal(from, to, timing) === null;
}

export const STATUS_MESSAGES = {
  notAllowed: (from: string, to: string) => `A ${from} booking cannot be changed to ${to}`,
  notStarted: 'This appointment has not started yet, so it cannot be marked as a no-show.',
  lateCancellation: 'Cancelled late (within the notice period)',
} as const;

/**
 * A booking holds its place on its van or bay unless it is cancelled: a waitlist offer (held for
 * the customer to confirm), pending and confirmed ones,
 * completed ones, which did take the van, and no-shows, whose time has come (a no-show is marked
 * only once the appointment has started) and which keep their place like a completed job, so that
 * marking one never opens a slot in the past or reshuffles the day (the capacity check,
 * availability, the exclusion constraint bookings_no_overlap and the slot indexes all count this
 * way; see PLACE_HOLDING_STATUSES).
 */
export function holdsSlot(status: string): boolean {
  return status !== 'cancelled';
}

/**
 * A staff cancellation is late when it is made within `cutoffHours` of the start (or after it):
 * inside the notice the Terms ask of customers (MANAGE_CUTOFF_HOURS; 0 marks none late).
 */
export function isLateCancellation(startsAt: Date | string, now: Date, cutoffHours: number): boolean {
  if (cutoffHours <= 0) return false;
  return new Date(startsAt).getTime() - now.getTime() < cutoffHours * 3_600_000;
}
