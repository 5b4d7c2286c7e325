/** The booking wizard's availability call, a module of its own so only the wizard's later steps load it. */
import type { DayAvailability } from '#domain/availability.ts';

/** A date's slots as they stand (GET /v1/availability). */
export async function getAvailability(date: string): Promise<DayAvailability> {
  const response = await fetch(`/v1/availability?date=${encodeURIComponent(date)}`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`availability: ${response.status}`);
  return response.json();
}
