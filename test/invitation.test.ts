/**
 * Calendar invitations follow the booking (issue 25) and cannot be reshaped by a name (issue 23):
 * - created: METHOD:REQUEST, STATUS:TENTATIVE while pending; confirmed by staff: the "booking
 *   confirmed" e-mail carries the invitation again, STATUS:CONFIRMED, same UID, higher SEQUENCE;
 *   moved: the new times, the booking's status; cancelled: METHOD:CANCEL, STATUS:CANCELLED;
 * - every invitation parses in Mozilla's ical.js to the summary, start, end (the booking's stored
 *   starts_at/ends_at), location and attendee the e-mail states;
 * - every invitation also passes a strict RFC 5545 reading of its content lines (below): folded at
 *   75 octets, one ATTENDEE whose parameters are exactly ROLE, PARTSTAT and CN, and whose value is
 *   the customer's address, whatever the customer's name holds (quotes, ; : , ^ \ or line breaks).
 */
import t, { type Test } from 'tap';
import ICAL from 'ical.js';
import type { Booking } from '../src/db/database.ts';
import { DEFAULT_BUSINESS } from '../src/domain/business.ts';
import { whereForPeople } from '../src/mail/booking-facts.ts';
import { bookingInvitation, fold, mailtoUri, parameterValue } from '../src/mail/invitation.ts';
import type { MailContext } from '../src/mail/mail-context.ts';
import { manageLinkFor } from '../src/db/manage-link.repository.ts';
import { composeQueued } from '../src/mail/booking-mail.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { bookingRow, inDays, nextWeekday, originalClientPayload } from './support/payloads.ts';

/** Names a customer could type (or an attacker send) that must stay one CN value. */
const HOSTILE_NAMES = [
  'x";ROLE=CHAIR;X="',
  'Mere "Tiny" Ngata',
  'Ngata; Mere',
  'Mere: the boss',
  'Ngata, Mere',
  'Mere\nATTENDEE:mailto:evil@example.com',
  'Mere\r\nATTENDEE;CN=x:mailto:evil@example.com',
  'a^b^^c^\'d^n',
  'back\\slash\\',
  'x":mailto:evil@example.com',
  '"";CN="',
  'Tab\there and a bell \u0007 and DEL \u007f',
  'Mā-ori ūnicode 😀 ' + 'long name '.repeat(12),
];

// ---------------------------------------------------------------------------------------------
// A strict reader of RFC 5545 content lines (§3.1), with RFC 6868 for parameter values.
// ---------------------------------------------------------------------------------------------

interface ContentLine {
  name: string;
  params: [string, string[]][];
  value: string;
}

const CTL = /[\u0000-\u0008\u000A-\u001F\u007F]/;

/** Unfolds and splits strictly: CRLF only, every physical line at most 75 octets, no control characters. */
function strictLines(ics: string, fail: (message: string) => never): ContentLine[] {
  if (!ics.endsWith('\r\n')) fail('the text does not end with CRLF');
  const physical = ics.slice(0, -2).split('\r\n');
  const logical: string[] = [];
  for (const line of physical) {
    if (line.includes('\n') || line.includes('\r')) fail(`a bare line break in ${JSON.stringify(line)}`);
    if (Buffer.byteLength(line, 'utf8') > 75) fail(`longer than 75 octets: ${JSON.stringify(line)}`);
    if (line.startsWith(' ') || line.startsWith('\t')) {
      if (logical.length === 0) fail('a continuation line first');
      logical[logical.length - 1] += line.slice(1);
    } else logical.push(line);
  }
  return logical.map((line) => parseContentLine(line, fail));
}

/**
 * contentline = name *(";" param ) ":" value; param = param-name "=" param-value *("," param-value);
 * param-value = paramtext / quoted-string; paramtext = *SAFE-CHAR (no CTL, DQUOTE, ";", ":", ",");
 * quoted-string = DQUOTE *QSAFE-CHAR DQUOTE (no CTL, DQUOTE). There is no escape character.
 */
function parseContentLine(line: string, fail: (message: string) => never): ContentLine {
  const nameMatch = /^[A-Za-z0-9-]+/.exec(line);
  if (!nameMatch) fail(`no property name in ${JSON.stringify(line)}`);
  const name = nameMatch[0].toUpperCase();
  let at = nameMatch[0].length;
  const params: [string, string[]][] = [];
  while (line[at] === ';') {
    const paramName = /^[A-Za-z0-9-]+=/.exec(line.slice(at + 1));
    if (!paramName) fail(`a malformed parameter in ${JSON.stringify(line)}`);
    at += 1 + paramName[0].length;
    const values: string[] = [];
    for (;;) {
      const rest = line.slice(at);
      const quoted = /^"([^"\u0000-\u0008\u000A-\u001F\u007F]*)"/.exec(rest);
      const bare = /^[^";:,\u0000-\u0008\u000A-\u001F\u007F]*/.exec(rest)!;
      const raw = quoted ? quoted[1]! : bare[0];
      at += quoted ? quoted[0].length : bare[0].length;
      values.push(raw.replace(/\^(['n^])/g, (_, c: string) => (c === 'n' ? '\n' : c === "'" ? '"' : '^')));
      if (line[at] !== ',') break;
      at += 1;
    }
    params.push([paramName[0].slice(0, -1).toUpperCase(), values]);
  }
  if (line[at] !== ':') fail(`expected ":" at ${at} in ${JSON.stringify(line)}`);
  const value = line.slice(at + 1);
  if (CTL.test(value)) fail(`a control character in the value of ${name}`);
  return { name, params, value };
}

/** The one VEVENT's lines. */
function eventLines(lines: ContentLine[]): ContentLine[] {
  const begin = lines.findIndex((l) => l.name === 'BEGIN' && l.value === 'VEVENT');
  const end = lines.findIndex((l) => l.name === 'END' && l.value === 'VEVENT');
  return lines.slice(begin + 1, end);
}

/** What a name becomes in CN: line breaks kept (as ^n), other control characters dropped. */
const expectedCn = (name: string) => name.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000B-\u001F\u007F]/g, '');

interface Stated {
  summary: string;
  start: Date;
  end: Date;
  location: string;
  attendee: { name: string; address: string };
}

/**
 * Checks an invitation both ways (strictly, and through ical.js) against what the e-mail states,
 * and returns what ical.js read.
 */
function checkInvitation(t: Test, ics: string, stated: Stated) {
  const fail = (message: string): never => {
    throw new Error(message);
  };
  let lines: ContentLine[] = [];
  t.doesNotThrow(() => (lines = strictLines(ics, fail)), 'a strict RFC 5545 reading');
  const event = eventLines(lines);
  const attendees = event.filter((l) => l.name === 'ATTENDEE');
  t.equal(attendees.length, 1, 'exactly one ATTENDEE (strictly)');
  t.same(
    attendees[0]?.params.map(([name]) => name),
    ['ROLE', 'PARTSTAT', 'CN'],
    'its parameters are ROLE, PARTSTAT and CN, nothing more',
  );
  t.same(attendees[0]?.params.find(([n]) => n === 'ROLE')?.[1], ['REQ-PARTICIPANT']);
  t.same(attendees[0]?.params.find(([n]) => n === 'CN')?.[1], [expectedCn(stated.attendee.name)], 'CN is the whole name (strictly, with RFC 6868)');
  t.equal(attendees[0]?.value.toLowerCase(), `mailto:${stated.attendee.address}`.toLowerCase(), "the value is the customer's address (strictly)");
  const organizers = event.filter((l) => l.name === 'ORGANIZER');
  t.equal(organizers.length, 1, 'one ORGANIZER');
  t.same(organizers[0]?.params.map(([name]) => name), ['CN']);

  const calendar = new ICAL.Component(ICAL.parse(ics));
  const vevents = calendar.getAllSubcomponents('vevent');
  t.equal(vevents.length, 1, 'one event (ical.js)');
  const parsed = new ICAL.Event(vevents[0]!);
  t.equal(parsed.summary, stated.summary, 'summary');
  t.equal(parsed.startDate.toJSDate().toISOString(), stated.start.toISOString(), 'start: the stored starts_at');
  t.equal(parsed.endDate.toJSDate().toISOString(), stated.end.toISOString(), 'end: the stored ends_at');
  t.equal(parsed.location, stated.location, 'location');
  t.equal(parsed.attendees.length, 1, 'one attendee (ical.js)');
  const attendee = parsed.attendees[0]!;
  t.equal(String(attendee.getFirstValue()).toLowerCase(), `mailto:${stated.attendee.address}`.toLowerCase(), "the attendee is the customer's address (ical.js)");
  t.equal(attendee.getParameter('cn'), expectedCn(stated.attendee.name), "the attendee's name (ical.js)");
  t.equal(attendee.getParameter('role'), 'REQ-PARTICIPANT');
  t.equal(parsed.organizer.toLowerCase(), `mailto:${DEFAULT_FROM}`.toLowerCase());
  return {
    method: calendar.getFirstPropertyValue('method') as string,
    status: vevents[0]!.getFirstPropertyValue('status') as string,
    uid: parsed.uid,
    sequence: parsed.sequence,
  };
}

const DEFAULT_FROM = 'hello@aucklandvalet.test';

const context: MailContext = {
  business: DEFAULT_BUSINESS,
  origin: 'https://valet.example.nz',
  from: { name: DEFAULT_BUSINESS.name, address: DEFAULT_FROM },
  staffEmail: 'staff@valet.example.nz',
  reminderHoursBefore: 24,
  manageCutoffHours: 24,
  now: () => new Date('2026-11-23T00:00:00Z'),
};

t.test('parameter values are written per RFC 5545 and RFC 6868', async (t) => {
  t.equal(parameterValue('Mere Ngata'), '"Mere Ngata"');
  t.equal(parameterValue('x";ROLE=CHAIR;X="'), `"x^';ROLE=CHAIR;X=^'"`, 'a quote is ^\', and ; stands inside the quotes');
  t.equal(parameterValue('a^b'), '"a^^b"');
  t.equal(parameterValue('one\r\ntwo\nthree\rfour'), '"one^ntwo^nthree^nfour"');
  t.equal(parameterValue('a\\b: c, d'), '"a\\b: c, d"', 'a backslash is an ordinary character in a parameter value');
  t.equal(parameterValue('bell\u0007\ttab'), '"belltab"', 'other control characters are removed');
  t.equal(mailtoUri('mere.ngata+car@example.co.nz'), 'mailto:mere.ngata+car@example.co.nz', 'an ordinary address as it is');
  t.equal(mailtoUri("o'brien@example.com"), "mailto:o'brien@example.com");
  t.equal(mailtoUri('a,b@example.com'), 'mailto:a%2Cb@example.com', 'a comma cannot name a second recipient');
  t.equal(mailtoUri('a"b?c#d@example.com'), 'mailto:a%22b%3Fc%23d@example.com');
  const long = `X-TEST:${'é'.repeat(100)}`;
  const folded = fold(long);
  t.ok(folded.split('\r\n').every((line) => Buffer.byteLength(line) <= 75), 'folded at 75 octets');
  t.equal(folded.replace(/\r\n /g, ''), long, 'never inside a character');
});

t.test('hostile names: every invitation parses strictly to one attendee, the customer', async (t) => {
  const base = { ...bookingRow(), id: '6f1c7d2e-0000-4000-8000-000000000001', version: 1 } as unknown as Booking;
  for (const name of HOSTILE_NAMES) {
    for (const [status, method] of [['pending', 'REQUEST'], ['confirmed', 'REQUEST'], ['cancelled', 'CANCEL']] as const) {
      const booking = { ...base, name, status, email: 'mere@example.co.nz' };
      const ics = bookingInvitation(booking, context, method, method === 'CANCEL' ? undefined : 'https://valet.example.nz/booking/manage/abc_DEF-123');
      if (name.includes('"')) t.match(ics.replace(/\r\n /g, ''), /CN="[^"]*\^'/, "a quote in the name is written ^' (RFC 6868), not \\\"");
      const read = checkInvitation(t, ics, {
        summary: `${booking.service} – ${DEFAULT_BUSINESS.name}`,
        start: new Date(booking.starts_at),
        end: new Date(booking.ends_at),
        location: whereForPeople(booking, DEFAULT_BUSINESS).place,
        attendee: { name, address: booking.email },
      });
      t.equal(read.status, status === 'pending' ? 'TENTATIVE' : status === 'confirmed' ? 'CONFIRMED' : 'CANCELLED', `${JSON.stringify(name)}: ${status}`);
    }
  }
});

await forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { MAIL_FROM: DEFAULT_FROM, STAFF_EMAIL: 'bookings@aucklandvalet.test' } });
  const staff = await login(app);
  let day = 0;

  async function book(overrides: Record<string, unknown> = {}) {
    const res = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: inDays(40 + day++), time: '10:00', ...overrides }) });
    return res;
  }
  const row = (id: string) => app.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const customerMail = (id: string) =>
    app.db.selectFrom('outbox_emails').selectAll().where('booking_id', '=', id).where('kind', 'like', 'booking-%').where('kind', '!=', 'booking-reminder').orderBy('created_at').orderBy('id').execute()
      // As the sender composes them (a queued one holds its snapshot, issue 24).
      .then((rows) => rows.map((row) => composeQueued(row, app.mail)));
  const staffStatus = (id: string, status: string, version: number) =>
    app.inject({ method: 'POST', url: `/v1/bookings/${id}/status`, headers: { cookie: staff }, payload: { status, version } });
  const managePost = (path: string, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: path,
      payload: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80' },
    });
  /** A row of the e-mail's plain text ("Package: Deluxe Clean"). */
  const stated = (text: string, label: string) => new RegExp(`^${label}: (.*)$`, 'm').exec(text)?.[1];

  /** Checks the newest customer e-mail of kind `kind` against the booking as stored now. */
  async function invitationOf(t: Test, id: string, kind: string) {
    const mail = (await customerMail(id)).filter((m) => m.kind === kind).at(-1);
    t.ok(mail, `a ${kind} e-mail`);
    t.ok(mail!.ics, `the ${kind} e-mail carries an invitation`);
    const booking = await row(id);
    const read = checkInvitation(t, mail!.ics!, {
      summary: `${stated(mail!.text_body, 'Package')} – ${DEFAULT_BUSINESS.name}`,
      start: new Date(booking.starts_at),
      end: new Date(booking.ends_at),
      location: stated(mail!.text_body, 'Where')!,
      attendee: { name: mail!.to_name, address: mail!.to_address },
    });
    t.equal(mail!.to_address, booking.email);
    t.equal(mail!.to_name, booking.name);
    t.equal(read.method, mail!.ics_method, 'the METHOD the e-mail is sent with');
    t.equal(read.uid, `${id}@localhost`, 'the UID of the booking');
    t.equal(read.sequence, booking.version, "SEQUENCE is the booking's version");
    return read;
  }

  t.test('created, confirmed, moved, cancelled: the invitation follows the booking', async (t) => {
    const res = await book({ name: 'Aroha Te Whare', email: 'aroha.lifecycle@example.co.nz' });
    t.equal(res.statusCode, 201);
    const { id } = res.json() as { id: string };

    const created = await invitationOf(t, id, 'booking-created');
    t.same([created.method, created.status, created.sequence], ['REQUEST', 'TENTATIVE', 1], 'pending: TENTATIVE');

    t.equal((await staffStatus(id, 'confirmed', 1)).statusCode, 200);
    const confirmed = await invitationOf(t, id, 'booking-confirmed');
    t.same([confirmed.method, confirmed.status], ['REQUEST', 'CONFIRMED'], 'confirmed by staff: CONFIRMED');
    t.equal(confirmed.uid, created.uid, 'the same UID');
    t.ok(confirmed.sequence > created.sequence, 'a higher SEQUENCE');
    const confirmedMail = (await customerMail(id)).find((m) => m.kind === 'booking-confirmed')!;
    t.match(confirmedMail.text_body, /calendar invitation is attached/, 'the e-mail says so');

    const path = new URL((await manageLinkFor(app.db, id, 'https://valet.example.nz'))!).pathname;
    const before = await row(id);
    const moved = await managePost(`${path}/move`, { version: String(before.version), date: inDays(70), time: '14:00', confirm: 'yes' });
    t.equal(moved.statusCode, 303, 'the customer moves it');
    const after = await row(id);
    t.not(new Date(after.starts_at).getTime(), new Date(before.starts_at).getTime(), 'the times changed');
    const move = await invitationOf(t, id, 'booking-moved');
    t.same([move.method, move.status], ['REQUEST', 'CONFIRMED'], 'a confirmed booking moved stays CONFIRMED');
    t.equal(move.uid, created.uid);
    t.ok(move.sequence > confirmed.sequence, 'a higher SEQUENCE');

    t.equal((await staffStatus(id, 'cancelled', after.version)).statusCode, 200);
    const cancelled = await invitationOf(t, id, 'booking-cancelled');
    t.same([cancelled.method, cancelled.status], ['CANCEL', 'CANCELLED'], 'cancelled: METHOD:CANCEL, STATUS:CANCELLED');
    t.equal(cancelled.uid, created.uid);
    t.ok(cancelled.sequence > move.sequence, 'a higher SEQUENCE');
  });

  t.test('a pending booking moved by its customer stays TENTATIVE; cancelled by them, CANCELLED', async (t) => {
    // A drop-off on a Wednesday: bays work Monday to Saturday, and 40-odd days from the run's date is a Sunday on one day in seven (409).
    const res = await book({ name: 'Hemi Walker', email: 'hemi.pending@example.co.nz', serviceType: 'dropoff', date: nextWeekday(3, 40) });
    t.equal(res.statusCode, 201);
    const { id } = res.json() as { id: string };
    const path = new URL((await manageLinkFor(app.db, id, 'https://valet.example.nz'))!).pathname;
    t.equal((await managePost(`${path}/move`, { version: '1', date: nextWeekday(3, 71), time: '11:00', confirm: 'yes' })).statusCode, 303);
    const moved = await invitationOf(t, id, 'booking-moved');
    t.same([moved.method, moved.status, moved.sequence], ['REQUEST', 'TENTATIVE', 2]);
    t.equal((await managePost(`${path}/cancel`, { version: '2', confirm: 'yes' })).statusCode, 303);
    const cancelled = await invitationOf(t, id, 'booking-cancelled-by-customer');
    t.same([cancelled.method, cancelled.status, cancelled.sequence], ['CANCEL', 'CANCELLED', 3]);
  });

  t.test('hostile names through the API: each accepted one stays one attendee, the customer', async (t) => {
    let accepted = 0;
    for (const [index, name] of HOSTILE_NAMES.entries()) {
      const res = await book({ name, email: `hostile${index}@example.co.nz` });
      if (res.statusCode !== 201) {
        t.equal(res.statusCode, 400, `${JSON.stringify(name)} refused by the name rule`);
        continue;
      }
      accepted += 1;
      const { id } = res.json() as { id: string };
      await invitationOf(t, id, 'booking-created');
      t.equal((await staffStatus(id, 'confirmed', 1)).statusCode, 200);
      await invitationOf(t, id, 'booking-confirmed');
      t.equal((await staffStatus(id, 'cancelled', 2)).statusCode, 200);
      await invitationOf(t, id, 'booking-cancelled');
    }
    t.ok(accepted >= 1, `${accepted} of ${HOSTILE_NAMES.length} hostile names accepted and checked end to end`);
  });
});
