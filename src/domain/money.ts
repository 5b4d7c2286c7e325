/**
 * Money rules shared by the server and the dashboard: amounts are integer cents of NZ dollars,
 * prices are GST-inclusive, and the GST in an amount is three twenty-thirds of it, rounded to the
 * cent (migrations/016 checks the same rule on every stored completion).
 */

/** The GST contained in a GST-inclusive amount: round(amount × 3 / 23), in cents. */
export function gstOfCents(inclusiveCents: number): number {
  return Math.round((inclusiveCents * 3) / 23);
}

/**
 * What a booking costs: its stored total, which already includes any staff adjustment of the price
 * (migrations/015 checks total = list price − discount + adjustment).
 */
export function bookingTotalCents(booking: { total_cents: number }): number {
  return booking.total_cents;
}
