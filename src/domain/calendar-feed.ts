/**
 * Calendar feeds (issue 44): a private iCalendar subscription per van or bay, or per member of
 * staff on the van or bay they work. Pure: the window a feed shows, the shape of its address and
 * what it says of a job (never a manage link, and of the customer only their first name and phone).
 */

/** A feed shows the jobs from this many days back … */
export const FEED_DAYS_BACK = 7;
/** … to this many days ahead (Auckland dates). */
export const FEED_DAYS_AHEAD = 60;

/** Where a feed is subscribed: /calendar/{token}.ics, the token 32 random bytes in base64url (43 characters). */
export const CALENDAR_PATH_PREFIX = '/calendar/';
export const FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const calendarPath = (token: string) => `${CALENDAR_PATH_PREFIX}${token}.ics`;

/** The token of a feed's file name ('…43 characters….ics'), or undefined when it is not one. */
export function feedTokenOf(file: string): string | undefined {
  if (!file.endsWith('.ics')) return undefined;
  const token = file.slice(0, -'.ics'.length);
  return FEED_TOKEN_PATTERN.test(token) ? token : undefined;
}

/** The first word of a customer's name: all a detailer's calendar needs to greet them. */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? '';
}

export const CALENDAR_FEED_MESSAGES = {
  resourceNotFound: 'No such van or bay.',
  memberNotFound: 'No such member of staff.',
  memberDisabled: 'This member of staff is disabled: enable them first.',
  feedNotFound: 'No such calendar feed (it may have been revoked already).',
  created: 'Copy this address now: it is shown once. Subscribe to it in the calendar app (Google Calendar: Other calendars → From URL; iPhone: Settings → Calendar → Accounts → Add Subscribed Calendar).',
} as const;
