/**
 * Calendar feeds (issue 44): the owner makes a private subscription address for a van or bay (or
 * for a member of staff on one), shown once; its token's SHA-256 is all that is kept. The feed is
 * an iCalendar file of the van's jobs from FEED_DAYS_BACK days back to FEED_DAYS_AHEAD days ahead,
 * made by ical-generator like the customers' invitations: one event per job whose UID never
 * changes and whose SEQUENCE is the booking's version (raised by every move or change), a
 * cancelled job STATUS:CANCELLED until its date passes. It carries the address, the customer's
 * first name and phone and the job's lines, never a manage link nor anything else of theirs.
 */
import { createHash, randomBytes } from 'node:crypto';
import ical from 'ical-generator';
import type { Kysely } from 'kysely';
import { addDaysToDay, todayInAuckland } from '../domain/booking-dates.ts';
import { CALENDAR_FEED_MESSAGES, calendarPath, FEED_DAYS_AHEAD, FEED_DAYS_BACK, feedTokenOf, firstName } from '../domain/calendar-feed.ts';
import { presentLines } from '../domain/job.ts';
import { lineLabel } from '../domain/pricing.ts';
import type { BusinessInfo } from '../domain/business.ts';
import type { Booking, Database } from '../db/database.ts';
import { feedByTokenHash, insertFeed, jobsOfResource, revokeFeed } from '../db/calendar-feeds.repository.ts';
import { conflict, notFound } from '../errors.ts';
import { appointmentTimes, whereForPeople } from '../mail/booking-facts.ts';
import { invitationStatus, textValue } from '../mail/invitation.ts';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export interface FeedTarget {
  resourceId: string;
  staffMemberId?: string | null;
}

/** A new feed (the one before for the same van and person revoked): its row and its address, shown this once. */
export async function createFeed(db: Kysely<Database>, target: FeedTarget, by: string, origin: string, now: Date) {
  return db.transaction().execute(async (trx) => {
    const resource = await trx.selectFrom('resources').select(['id', 'name']).where('id', '=', target.resourceId).executeTakeFirst();
    if (!resource) throw notFound(CALENDAR_FEED_MESSAGES.resourceNotFound);
    const staffMemberId = target.staffMemberId ?? null;
    if (staffMemberId !== null) {
      const member = await trx.selectFrom('staff_members').select(['id', 'disabled_at']).where('id', '=', staffMemberId).executeTakeFirst();
      if (!member) throw notFound(CALENDAR_FEED_MESSAGES.memberNotFound);
      if (member.disabled_at !== null) throw conflict(CALENDAR_FEED_MESSAGES.memberDisabled);
    }
    const token = randomBytes(32).toString('base64url');
    const feed = await insertFeed(trx, { resourceId: resource.id, staffMemberId, tokenHash: hashOf(token), createdBy: by }, now);
    return { feed, url: `${origin}${calendarPath(token)}` };
  });
}

export async function revoke(db: Kysely<Database>, id: string, now: Date): Promise<void> {
  if (!(await revokeFeed(db, id, now))) throw notFound(CALENDAR_FEED_MESSAGES.feedNotFound);
}

/** What a job's event says, for the detailer: the job line by line, the customer's first name and phone, the reference. */
function jobDescription(booking: Booking): string {
  const lines = presentLines(booking.lines, booking.vehicles).map((line) => lineLabel(line));
  return [...lines, `Customer: ${firstName(booking.name)}${booking.phone ? `, ${booking.phone}` : ''}`, `Reference ${booking.reference}`].join('\n');
}

const jobSummary = (booking: Booking) => {
  const what = booking.vehicles.length > 1 ? `${booking.vehicles.length} vehicles` : (presentLines(booking.lines, booking.vehicles)[0]?.description ?? booking.service);
  return `${what} – ${firstName(booking.name)}`;
};

/**
 * The feed a file name ('{token}.ics') opens: its iCalendar text, or undefined when the token is
 * of the wrong shape, unknown, revoked, or its person is disabled.
 */
export async function feedCalendar(db: Kysely<Database>, file: string, context: { now: Date; origin: string; business: BusinessInfo }): Promise<string | undefined> {
  const token = feedTokenOf(file);
  if (!token) return undefined;
  const feed = await feedByTokenHash(db, hashOf(token));
  if (!feed || feed.disabled_at) return undefined;
  const today = todayInAuckland(context.now);
  const jobs = await jobsOfResource(db, feed.resource_id, addDaysToDay(today, -FEED_DAYS_BACK), addDaysToDay(today, FEED_DAYS_AHEAD), today);
  const calendar = ical({
    prodId: { company: context.business.name, product: 'Jobs', language: 'EN' },
    name: `${context.business.name}: ${feed.resource_name}${feed.member_name ? ` (${feed.member_name})` : ''}`,
    ttl: 60 * 60,
  });
  const host = new URL(context.origin).hostname;
  for (const booking of jobs) {
    const { start, end } = appointmentTimes(booking);
    calendar.createEvent({
      id: `job-${booking.id}@${host}`,
      sequence: booking.version,
      // The event's last revision is what SEQUENCE counts; DTSTAMP stays the booking's creation, so the same jobs give the same file (and ETag).
      stamp: booking.created_at,
      start,
      end,
      summary: textValue(jobSummary(booking)),
      description: textValue(jobDescription(booking)),
      location: textValue(whereForPeople(booking, context.business).place),
      status: invitationStatus(booking, 'REQUEST'),
    });
  }
  const text = calendar.toString();
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}
