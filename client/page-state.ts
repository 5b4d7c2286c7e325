/** The page-specific state the server hands to a page (see PageProps.state). */
import type { WizardInput } from '#domain/booking-rules.ts';
import type { ContactInput } from '#domain/contact-rules.ts';
import type { FieldError } from '#domain/messages.ts';
import type { DayAvailability } from '#domain/availability.ts';
import type { ManageLock } from '#domain/manage-rules.ts';
import type { ScheduleShape } from '#domain/schedule.ts';
import type { Quote } from '#domain/pricing.ts';
import type { AreaAnswer } from '#domain/service-area.ts';
import type { WaitlistPart } from '#domain/waitlist-words.ts';
import type { InsightsDto } from '#api/insights-schemas.ts';
import type { InsightsRange } from './staff/lib/insights-tables.ts';

/** Home: a confirmation shown after a booking made without JavaScript (POST, redirect, GET). */
export interface HomeState {
  notice: string | null;
}

export type WizardStep = 1 | 2 | 3;

export interface BookingState {
  step: WizardStep;
  values: WizardInput;
  errors: FieldError[];
  /** A message about the whole request (a full slot, an unavailable service), not one field. */
  formError: string | null;
  /** Earliest and latest bookable dates (YYYY-MM-DD, Auckland), for the date input. */
  minDate: string;
  maxDate: string;
  /** Step 2 rendered by the server for a date already chosen: that date's slots (null otherwise). */
  availability: DayAvailability | null;
  /**
   * Step 3 rendered by the server: the submission token its form posts, so that posting it twice
   * makes one booking. Made for each step 3 rendered (never in a cached page); null otherwise.
   */
  submission: string | null;
  /** Step 3 rendered by the server: the quote for the e-mail already entered (list price before). */
  quote: Quote | null;
  /** Whether the vans come to the on-site postcode entered (issue 40), when the server rendered it; null otherwise. */
  area: AreaAnswer | null;
  /**
   * The waitlist (issue 43), for a date on which no start fits: the part of the day chosen. On step
   * 3 the customer is joining the waitlist rather than booking; on step 2 it is the choice shown.
   * Null: booking.
   */
  waitlist: WaitlistPart | null;
  /** The waitlist joined without JavaScript: its message, shown instead of the form; null otherwise. */
  joined: string | null;
}

export interface ContactState {
  values: ContactInput;
  errors: FieldError[];
  formError: string | null;
  /** Set after a message sent without JavaScript was saved. */
  sent: boolean;
  /** Set when the footer's newsletter box was sent without JavaScript (GET /contact?email=…). */
  newsletter: boolean;
  /**
   * A submission token for the form to post, only when a form that posted one comes back with
   * errors (a page served before tokens moved to the form guard's cookie); otherwise null: the
   * cookie set with the page carries the token, so the page is the same for everyone.
   */
  submission: string | null;
}

/** The dashboard: which sign-in mode is configured and whether this browser is signed in. */
export interface DashboardState {
  mode: 'session' | 'prompt';
  signedIn: boolean;
  staffName: string | null;
  /** The signed-in member's role (issue 22): only the owner sees the Staff view; null when signed out. */
  staffRole?: 'owner' | 'staff' | null;
  /**
   * Signed in with a staff account (e-mail and password), whose password the dashboard's Change
   * password changes; false for the owner's configured password (changed with set-password) and
   * when signed out.
   */
  staffAccount?: boolean;
  /** The e-mail address a refused sign-in form sent, kept in the form. */
  signInEmail?: string;
  /** After a failed sign-in form post. */
  signInError: string | null;
  /** The times, weekdays and limits of the Schedule view. */
  schedule: ScheduleShape;
}

/** A booking as its manage page shows it (no contact details: the customer knows them). */
export interface ManagedBooking {
  reference: string;
  /** The package, with the coating term for Ceramic Coating. */
  service: string;
  /** The first vehicle's size. */
  vehicle: string;
  /** How many vehicles the visit has (issue 41): with more than one the page names them line by line. */
  vehicles: number;
  date: string;
  time: string;
  /** 'Saturday 5 December 2026, 9:00 am' (Auckland). */
  when: string;
  where: { kind: 'onsite' | 'dropoff'; lines: string[] };
  quote: Quote;
  status: string;
  /** Sent back with a change: the change is made only if nobody changed the booking since. */
  version: number;
  /** BOOKING_CONFIRMATION=email: when the booking lapses unless its customer confirms it, in words; null when it is not waiting. */
  awaitingUntil: string | null;
  /** A weather day (issue 21): until when the customer may choose a new time whatever the notice, in words; null when not asked or the window has closed. */
  weatherUntil?: string | null;
}

/** The manage page: the booking, or the confirmation of a cancel, or a move's choice of slot and its confirmation, or of a plan visit's skip. */
export type ManageView = 'overview' | 'cancel' | 'move' | 'confirm-move' | 'skip';

/** An interval a plan may have, with its words ('every 4 weeks'). */
export interface PlanIntervalChoice {
  weeks: number;
  label: string;
}

/** The manage page's part about maintenance plans (issue 43). */
export interface ManagePlan {
  /** The booking is part of a plan: how often it repeats, and whether it still runs. */
  interval: string;
  status: 'active' | 'paused' | 'stopped';
  /**
   * The booking is one of the plan's upcoming visits: whether the customer may still skip it
   * (before the cutoff) and answer "keep it" (a visit the plan booked, not yet kept). Null when
   * the booking is not a visit that can still be kept or skipped.
   */
  visit: { canKeep: boolean; canSkip: boolean } | null;
}

export interface ManageMove {
  /** The date whose slots are shown ('' before one is chosen). */
  date: string;
  minDate: string;
  maxDate: string;
  /** The date for people ('Saturday 5 December 2026'); null before a valid date is chosen. */
  dateText: string | null;
  /** How long the booking's job takes, in minutes (a move keeps it). */
  durationMinutes: number;
  /** The date's start times as the wizard words them ('10:00 – 13:00 — Full'), with when the job would end; null before a date is chosen. */
  slots: { time: string; end: string; available: boolean; label: string }[] | null;
  /** The slot chosen ('' before one is). */
  time: string;
  /** The chosen slot for people, on the confirmation. */
  when: string | null;
  errors: FieldError[];
}

export interface ManageState {
  /** The link's token: the forms post back to the page's own address. */
  token: string;
  booking: ManagedBooking;
  view: ManageView;
  /** Why the booking cannot be changed here, or null when it can. */
  lock: ManageLock | null;
  cutoffHours: number;
  /** MANAGE_MAX_CHANGES when the customer has used up their moves (the booking can be cancelled, not moved), else null. */
  moveLimit: number | null;
  /** After a change: what was done. */
  notice: string | null;
  /** A change refused: why. */
  error: string | null;
  move: ManageMove | null;
  /** The plan the booking is part of (issue 43), or null. */
  plan: ManagePlan | null;
  /** An upcoming booking not in a plan: the intervals it can repeat at ("Make this a regular valet"); null otherwise. */
  planIntervals: PlanIntervalChoice[] | null;
  /** A place offered from the waitlist (issue 43), still held: what is held and until when, in words (the server formats it); null otherwise. */
  offer: { text: string } | null;
}

/** A plan's visit as its page shows it. */
export interface PlanPageVisit {
  /** The date the visit is due on (YYYY-MM-DD): what its forms name it by. */
  dueDate: string;
  /** 'Wednesday 5 August 2026'. */
  dueText: string;
  /** booked; moved (booked on another day or time than due); skipped (or its booking cancelled); needs a time; done (completed). */
  state: 'booked' | 'moved' | 'skipped' | 'needs-time' | 'done';
  /** The booking's appointment in words, when it has one. */
  when: string | null;
  reference: string | null;
  /** Whether the customer may skip it now (upcoming, before the cutoff, the plan not stopped). */
  canSkip: boolean;
  /** A visit that needs a time: the starts offered, each its own button. */
  offered: { date: string; time: string; label: string }[];
}

/** A maintenance plan's page (/booking/manage/{token}/plan, issue 43). */
export interface PlanPageState {
  /** The token of the link it was opened with: the forms post back under it. */
  token: string;
  /** The booking of that link, by reference (the way back to its own page, while it still opens). */
  reference: string;
  /** Whether that booking's own manage page still opens (its appointment is to come). */
  bookingOpen: boolean;
  plan: {
    /** Sent back with every change: made only if nobody changed the plan since. */
    version: number;
    status: 'active' | 'paused' | 'stopped';
    intervalWeeks: number;
    /** 'every 4 weeks'. */
    interval: string;
    /** 'Wednesdays at 10:00 am'. */
    when: string;
    service: string;
  };
  visits: PlanPageVisit[];
  intervals: PlanIntervalChoice[];
  /** The page, or the confirmation of a stop. */
  view: 'plan' | 'stop';
  notice: string | null;
  error: string | null;
}

/** "Find my booking" (/booking/find): the form, and after a request the one answer. */
export interface FindBookingState {
  /** The address typed, kept when the form comes back with an error. */
  email: string;
  errors: FieldError[];
  /** A message about the whole request (a bot check), not its field. */
  formError: string | null;
  /** Set after a request made without JavaScript (POST, redirect, GET ?sent=1): the answer is shown. */
  sent: boolean;
}

/** The invitation page (/dashboard/invitation/{token}, issue 22): a new member of staff sets their password. */
export interface InvitationState {
  /** 'open': the form; 'gone': used, expired or withdrawn; 'done': the password is set. */
  status: 'open' | 'gone' | 'done';
  name: string;
  email: string;
  /** The token, for the form's own address. */
  token: string;
  errors: FieldError[];
}

/** The owner's Insights (/dashboard/insights?range=&from=&to=, issue 44). */
export interface InsightsState {
  /** The owner's page; or, for a member whose role is staff, the page that says it is the owner's (403). */
  view: 'insights' | 'forbidden';
  /** The range chosen, and its days (YYYY-MM-DD, Auckland): the form shows them. */
  range: InsightsRange;
  from: string;
  to: string;
  /** Today in Auckland by the server's clock: the presets' days when the choice changes in the browser. */
  today: string;
  /** The figures; null for a refused range (see error) and on the 403 page. */
  insights: InsightsDto | null;
  /** Why the range was refused (from after to, longer than the limit), shown beside the form. */
  error: string | null;
}
