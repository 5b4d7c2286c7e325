/**
 * The shape of the business's week, shared by the wizard, the dashboard's Schedule view and the
 * server: hourly appointment times, the weekdays, and how long a closure's reason may be. No
 * imports, so the dashboard can use it without pulling in the booking page's rules.
 */

/** Hourly appointment times, 07:00 to 20:00. */
export const TIME_SLOTS: readonly string[] = Array.from({ length: 14 }, (_, i) => `${String(7 + i).padStart(2, '0')}:00`);

/** Weekdays in ISO order (Monday first), as the API and the weekly closed days setting name them. */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export function isWeekday(value: string): value is Weekday {
  return (WEEKDAYS as readonly string[]).includes(value);
}

/** The longest reason staff may give for a closure. */
export const CLOSURE_REASON_MAX = 200;

/** What the dashboard's Schedule view offers, handed to it with the page (so its bundle needs no rules module). */
export interface ScheduleShape {
  times: readonly string[];
  weekdays: readonly Weekday[];
  reasonMax: number;
}

export const SCHEDULE_SHAPE: ScheduleShape = { times: TIME_SLOTS, weekdays: WEEKDAYS, reasonMax: CLOSURE_REASON_MAX };
