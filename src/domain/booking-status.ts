/**
 * Booking statuses (spec section 4) and the changes staff may make: confirm, complete, cancel,
 * and back to pending. Shared by the server, which enforces them, and the dashboard.
 */
export const BOOKING_STATUSES = ['pending', 'confirmed', 'completed', 'cancelled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export function isBookingStatus(value: string): value is BookingStatus {
  return (BOOKING_STATUSES as readonly string[]).includes(value);
}

export interface StatusAction {
  to: BookingStatus;
  label: string;
  from: readonly BookingStatus[];
}

export const STATUS_ACTIONS: readonly StatusAction[] = [
  { to: 'confirmed', label: 'Confirm', from: ['pending'] },
  { to: 'completed', label: 'Complete', from: ['confirmed'] },
  { to: 'cancelled', label: 'Cancel', from: ['pending', 'confirmed'] },
  { to: 'pending', label: 'Back to pending', from: ['confirmed', 'completed', 'cancelled'] },
];

export function actionsFrom(status: string): readonly StatusAction[] {
  return STATUS_ACTIONS.filter((action) => (action.from as readonly string[]).includes(status));
}

export function canChangeStatus(from: string, to: string): boolean {
  return actionsFrom(from).some((action) => action.to === to);
}

/**
 * A booking holds its place in the slot unless it is cancelled: pending and confirmed ones, and
 * completed ones, which did take the van (the capacity check, availability and the slot index
 * all count this way).
 */
export function holdsSlot(status: string): boolean {
  return status !== 'cancelled';
}
