/**
 * When a customer may change a booking on its manage page, and what they are told. Pure, shared
 * by the server (which enforces it) and the page (which explains it).
 */

/** Why a booking cannot be changed online: its status, or the notice the Terms ask for. */
export type ManageLock = 'cancelled' | 'completed' | 'cutoff' | 'offered';

/**
 * Only an upcoming (pending or confirmed) booking can be cancelled or moved, and only until
 * `cutoffHours` before it starts. `msUntilStart` is the time left before the appointment.
 */
export function manageLock(status: string, msUntilStart: number, cutoffHours: number): ManageLock | null {
  if (status === 'cancelled') return 'cancelled';
  // A waitlist offer (issue 43) is confirmed or declined, not changed: nothing is booked yet.
  if (status === 'offered') return 'offered';
  if (status !== 'pending' && status !== 'confirmed') return 'completed';
  return msUntilStart < cutoffHours * 3_600_000 ? 'cutoff' : null;
}

export const MANAGE_MESSAGES = {
  notFound: 'This link does not open a booking: it may be mistyped, or the appointment has passed.',
  changedMeanwhile: 'Your booking was changed by our team a moment ago, so we did not change it. Please check it below and try again.',
  sameSlot: 'That is the time you already have. Please choose another time or date.',
  cancelled: 'Your booking is cancelled. We have sent you an e-mail to confirm it.',
  moved: 'Your booking has been moved. We have sent you an e-mail with the new time.',
  emailConfirmed: 'Thank you: your booking is held for you. We will confirm it shortly.',
  notAwaiting: 'This booking is not waiting for your confirmation.',
  locked: {
    cancelled: 'This booking is cancelled, so there is nothing to change.',
    completed: 'This booking is completed, so there is nothing to change.',
    cutoff: 'This booking is too close to its appointment to change online.',
    offered: 'This time is offered to you from the waitlist: confirm it or say no thanks first.',
  } satisfies Record<ManageLock, string>,
} as const;

/** The cutoff in words, with the number to call instead. */
export function cutoffExplanation(cutoffHours: number, phone: string): string {
  return `Bookings can be cancelled or moved online until ${cutoffHours} hours before the appointment (see our Terms of Service). To change this one, please call us on ${phone}.`;
}

/**
 * A booking moved `maxChanges` times by its customer cannot be moved online again (each move
 * e-mails an invitation and writes history): the number to call instead. Cancelling stays open.
 */
export function moveLimitExplanation(maxChanges: number, phone: string): string {
  return `This booking has already been moved online ${maxChanges === 1 ? 'once' : `${maxChanges} times`}, the most we allow. To move it again, please call us on ${phone}. You can still cancel it here.`;
}

/**
 * BOOKING_CONFIRMATION=email (issue 23): what a customer whose booking waits for them is asked,
 * on the manage page and in the e-mail; `deadline` is when it lapses, in words ("Wednesday 25
 * November 2026, 6:40 pm").
 */
export function awaitingConfirmationText(deadline: string): string {
  return `Please confirm this booking by ${deadline}: until then we hold the time for you, and an unconfirmed booking is released.`;
}

export const CONFIRM_BOOKING_LABEL = 'Confirm my booking';
