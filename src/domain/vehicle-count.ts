/**
 * "2 vehicles" for a job of several (issue 41), nothing for one: what the dashboard's cards, lines
 * and day view add. Apart from vehicle-text.ts, which names vehicles through the job's rules and
 * catalogue: the dashboard's first load needs this line of it, not those.
 */
export function vehicleCount(vehicles: readonly unknown[] | undefined): string {
  return vehicles && vehicles.length > 1 ? `${vehicles.length} vehicles` : '';
}
