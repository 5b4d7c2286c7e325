/**
 * Weather days (issue 21): staff ask every customer of one kind of job on a date to choose a new
 * time (the Terms allow the business to reschedule for weather). Pure rules and words, shared by
 * the server (which enforces them) and the pages (which explain them).
 */

export type WeatherServiceType = 'onsite' | 'dropoff';

/** How long an asked customer may move their booking online whatever the notice period and the cap of moves. */
export const WEATHER_MOVE_DAYS = 7;

/** Until when a booking asked at `now` may be moved that way. */
export function weatherMoveDeadline(now: Date): Date {
  return new Date(now.getTime() + WEATHER_MOVE_DAYS * 24 * 3_600_000);
}

/** Whether the booking is "awaiting a new time" and its customer's weather window is still open at `now`. */
export function weatherMoveOpen(weatherMoveUntil: Date | string | null | undefined, now: Date): boolean {
  if (weatherMoveUntil === null || weatherMoveUntil === undefined) return false;
  return now.getTime() < new Date(weatherMoveUntil).getTime();
}

/**
 * Where an asked booking stands, as the dashboard shows it: moved ("chose a new time", by the
 * customer or by staff), still awaiting one, or cancelled (released) since.
 */
export type WeatherAnswer = 'moved' | 'awaiting' | 'cancelled';

export function weatherAnswer(booking: { status: string; weather_move_until: Date | null }): WeatherAnswer {
  if (booking.status === 'cancelled') return 'cancelled';
  return booking.weather_move_until === null ? 'moved' : 'awaiting';
}

export const WEATHER_ANSWER_LABELS: Record<WeatherAnswer, string> = {
  moved: 'Chose a new time',
  awaiting: 'Awaiting a new time',
  cancelled: 'Cancelled',
};

export const WEATHER_MESSAGES = {
  /** The history line written on each asked booking. */
  historyNote: 'Weather day: asked to choose a new time',
  datePast: 'Choose today or a later date.',
  dateTooFar: 'Choose a date within the next 12 months.',
  dateInvalid: 'Enter a date as YYYY-MM-DD.',
} as const;

/** What the customer's manage page says while they may choose a new time; `deadline` in words. */
export function weatherMoveText(deadline: string): string {
  return `We have had to ask you to choose a new time because of the weather, and we are sorry for the trouble. Your booking keeps its place until you move it: you can move it to any time we have free, even at short notice, until ${deadline}. You can also cancel it here.`;
}

/** The apology e-mail's words; `day` is the date in words, `deadline` the end of the window in words. */
export function weatherEmailParagraphs(name: string, day: string, deadline: string): string[] {
  return [
    `Hi ${name},`,
    `We are sorry: the weather on ${day} means we cannot do your booking as planned, so we have to ask you to choose a new time.`,
    `Please open "Choose a new time" below and pick any time we have free, even at short notice, until ${deadline}. Until you do, your booking keeps its place; we will not cancel it without you.`,
  ];
}

export const WEATHER_EMAIL_ACTION = 'Choose a new time';
