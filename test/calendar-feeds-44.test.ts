/**
 * Issue 44, calendar feeds: the owner makes a van's private feed (its address shown once, only its
 * token's hash kept), and a member of staff's on it; the feed, read by Mozilla's ical.js, holds
 * that van's jobs only, each with its address, the customer's first name and phone and its lines,
 * and no manage link; a moved job keeps its UID with a higher SEQUENCE, a cancelled one is
 * STATUS:CANCELLED; an unchanged feed answers 304 to its ETag; a rotated or revoked address, or a
 * disabled member's, answers 404; none is made without a session (the owner's: the route table checks requireOwner).
 */
import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import t from 'tap';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { logCollector } from './support/mail.ts';
import { inDays, originalClientPayload } from './support/payloads.ts';

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { BOOKING_SLOT_CAPACITY: '2' } });
  const cookie = await login(app);
  const staff = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, payload?: object) => app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const vans = (await staff('GET', '/v1/resources')).json().data.filter((r: { kind: string }) => r.kind === 'onsite') as { id: string; name: string }[];
  t.ok(vans.length >= 2, 'two vans');
  const [van, other] = vans as [{ id: string; name: string }, { id: string; name: string }];

  const feedPath = (url: string) => new URL(url).pathname;
  const events = (ics: string) => new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
  const book = async (day: number, time: string, resourceId: string, name: string) => {
    const res = await staff('POST', '/v1/bookings', { ...originalClientPayload({ date: inDays(day), time, name, email: `${name.split(' ')[0]!.toLowerCase()}-${backend}@example.co.nz` }), resourceId });
    if (res.statusCode !== 201) throw new Error(`booking failed: ${res.body}`);
    return res.json().booking as { _id: string; version: number };
  };

  t.test("a van's feed: its jobs only, what a detailer needs and no more, moves and cancellations as a calendar expects", async (t) => {
    const made = await staff('POST', '/v1/calendar-feeds', { resourceId: van.id });
    t.equal(made.statusCode, 201, made.body);
    const { url, id } = made.json();
    t.match(url, /\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const token = feedPath(url).slice('/calendar/'.length, -'.ics'.length);
    const row = await app.db.selectFrom('calendar_feeds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    t.equal(row.token_hash, createHash('sha256').update(token).digest('hex'), 'only the hash is kept');
    t.notOk(JSON.stringify((await staff('GET', '/v1/calendar-feeds')).json()).includes(token), 'the list never shows the address again');

    const mine = await book(4, '09:00', van.id, 'Aroha Smith');
    const theirs = await book(4, '09:00', other.id, 'Tama Brown');
    const first = await app.inject(feedPath(url));
    t.equal(first.statusCode, 200);
    t.match(first.headers['content-type'], /^text\/calendar/);
    t.match(first.headers['cache-control'], /private/);
    const [event, ...rest] = events(first.body);
    t.equal(rest.length, 0, "the other van's job is not in it");
    t.equal(event!.uid.split('@')[0], `job-${mine._id}`);
    t.equal(event!.summary, 'Deluxe Clean, Medium Car – Aroha');
    t.match(event!.location, /7 Ellerslie-Panmure Highway/);
    t.match(event!.description, /Deluxe Clean, Medium Car\nCustomer: Aroha, \+64/);
    t.notMatch(first.body, /Smith|manage|@example\.co\.nz/, 'no surname, no manage link, no e-mail address');
    t.notMatch(first.body, new RegExp(theirs._id));
    const sequence = event!.sequence;

    // Unchanged: 304 to its ETag.
    const etag = first.headers.etag as string;
    t.equal((await app.inject({ url: feedPath(url), headers: { 'if-none-match': etag } })).statusCode, 304);

    // Moved: the same UID, a higher SEQUENCE, a new ETag.
    const moved = await staff('POST', `/v1/bookings/${mine._id}/move`, { version: mine.version, date: inDays(5), time: '11:00', resourceId: van.id });
    t.equal(moved.statusCode, 200, moved.body);
    const after = await app.inject({ url: feedPath(url), headers: { 'if-none-match': etag } });
    t.equal(after.statusCode, 200, 'changed: the whole feed again');
    const [movedEvent] = events(after.body);
    t.equal(movedEvent!.uid, event!.uid, 'the same UID');
    t.ok(movedEvent!.sequence > sequence, 'a higher SEQUENCE');
    t.equal(movedEvent!.startDate.toJSDate().toISOString(), moved.json().booking.startsAt);

    // Cancelled: STATUS:CANCELLED while its date is to come.
    const cancelled = await staff('POST', `/v1/bookings/${mine._id}/status`, { status: 'cancelled', version: moved.json().booking.version });
    t.equal(cancelled.statusCode, 200, cancelled.body);
    const struck = new ICAL.Component(ICAL.parse((await app.inject(feedPath(url))).body)).getFirstSubcomponent('vevent')!;
    t.equal(struck.getFirstPropertyValue('status'), 'CANCELLED');

    // Rotated: the old address is gone, the new one works.
    const rotated = await staff('POST', '/v1/calendar-feeds', { resourceId: van.id });
    t.equal(rotated.statusCode, 201);
    t.equal((await app.inject(feedPath(url))).statusCode, 404, 'the address before a rotation answers 404');
    t.equal((await app.inject(feedPath(rotated.json().url))).statusCode, 200);
    // Revoked.
    t.equal((await staff('DELETE', `/v1/calendar-feeds/${rotated.json().id}`)).statusCode, 204);
    t.equal((await app.inject(feedPath(rotated.json().url))).statusCode, 404, 'revoked: 404');
    t.equal((await staff('DELETE', `/v1/calendar-feeds/${rotated.json().id}`)).statusCode, 404, 'revoked once');
    t.equal((await app.inject('/calendar/not-a-token.ics')).statusCode, 404);
  });

  t.test("a member of staff's feed stops when they are disabled; no feed is made without the owner's session", async (t) => {
    const invited = await staff('POST', '/v1/staff-members', { name: 'Wiremu Detailer', email: `wiremu-${backend}@example.co.nz`, role: 'staff' });
    t.equal(invited.statusCode, 201, 'invited');
    const member = invited.json();
    const made = await staff('POST', '/v1/calendar-feeds', { resourceId: other.id, staffMemberId: member.id });
    t.equal(made.statusCode, 201, 'made');
    t.match(made.json(), { resource: { id: other.id }, staffMember: { id: member.id, name: 'Wiremu Detailer' } });
    const path = feedPath(made.json().url);
    t.match((await app.inject(path)).body, /X-WR-CALNAME:.*\(Wiremu Detailer\)/);
    t.equal((await staff('PATCH', `/v1/staff-members/${member.id}`, { disabled: true })).statusCode, 200);
    t.equal((await app.inject(path)).statusCode, 404, 'a disabled member’s feed answers 404');
    t.equal((await staff('POST', '/v1/calendar-feeds', { resourceId: other.id, staffMemberId: member.id })).statusCode, 409, 'nor gets a new one');
    t.equal((await staff('POST', '/v1/calendar-feeds', { resourceId: '00000000-0000-4000-8000-000000000000' })).statusCode, 404);
    t.equal((await app.inject({ method: 'GET', url: '/v1/calendar-feeds' })).statusCode, 401);
  });
});

t.test("a feed's token never reaches the logs", async (t) => {
  const { lines, stream } = logCollector();
  const app = await buildTestApp(t, { env: { LOG_LEVEL: 'info' }, logStream: stream });
  const cookie = await login(app);
  const van = (await app.inject({ url: '/v1/resources', headers: { cookie } })).json().data.find((r: { kind: string }) => r.kind === 'onsite');
  const made = await app.inject({ method: 'POST', url: '/v1/calendar-feeds', headers: { cookie }, payload: { resourceId: van.id } });
  const path = new URL(made.json().url).pathname;
  const token = path.slice('/calendar/'.length, -'.ics'.length);
  t.equal((await app.inject(path)).statusCode, 200);
  t.equal((await app.inject(`${path}?x=1`)).statusCode, 200);
  t.ok(lines.some((line) => line.includes('/calendar/[token]')), 'the feed is logged by where it went');
  t.notOk(lines.some((line) => line.includes(token)), 'but never with its token');
});
