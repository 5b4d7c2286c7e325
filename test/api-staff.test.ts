/** The staff API of issue 4: every endpoint behind the one guard, on both databases. */
import t from 'tap';
import { parse as parseCsv } from 'csv-parse/sync';
import { sql } from 'kysely';
import { buildTestApp, forEachBackend, login, TEST_ADMIN_PASSWORD } from './helper.ts';
import { bookingRow, inDays, originalClientPayload, today } from './support/payloads.ts';

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend });
  const signIn = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: TEST_ADMIN_PASSWORD, name: 'Mere' } });
  const cookie = `${signIn.cookies[0]!.name}=${signIn.cookies[0]!.value}`;
  const get = (url: string, headers: Record<string, string> = { cookie }) => app.inject({ method: 'GET', url, headers });
  const post = (url: string, payload: object, headers: Record<string, string> = { cookie }) => app.inject({ method: 'POST', url, payload, headers });

  const seeded = await app.db
    .insertInto('bookings')
    .values([
      bookingRow({ name: 'Aroha Smith', email: 'aroha@example.com', service: 'Deluxe Clean', date: today, time: '08:00' }),
      bookingRow({ name: 'Ben 100% Jones', email: 'ben@example.com', date: inDays(1), time: '09:00', status: 'confirmed' }),
      bookingRow({ name: '=HYPERLINK("http://evil")', email: 'evil@example.com', notes: 'Line one\nsaid "hi", then left', date: inDays(5) }),
      ...Array.from({ length: 30 }, (_, i) => bookingRow({ name: `Bulk Customer ${i}`, email: `bulk${i}@example.com`, date: inDays(20 + (i % 5)), time: `${String(7 + (i % 14)).padStart(2, '0')}:00` })),
    ])
    .returningAll()
    .execute();
  const aroha = seeded[0]!;

  t.test('every staff endpoint answers 401 without a session', async (t) => {
    const id = aroha.id;
    for (const [method, url] of [
      ['GET', '/v1/bookings'],
      ['GET', '/v1/bookings/services'],
      ['GET', '/v1/bookings/upcoming'],
      ['GET', '/v1/bookings/export.csv'],
      ['GET', `/v1/bookings/${id}`],
      ['POST', `/v1/bookings/${id}/status`],
      ['POST', `/v1/bookings/${id}/move`],
      ['GET', '/v1/schedule'],
      ['GET', '/v1/schedule/week'],
      ['GET', '/v1/resources'],
      ['GET', '/v1/working-hours'],
      ['GET', '/v1/service-zones'],
      ['POST', '/v1/service-zones'],
      ['PATCH', `/v1/service-zones/${id}`],
      ['GET', '/v1/zone-travel'],
      ['PUT', '/v1/zone-travel'],
      ['GET', '/v1/schedule/travel-shortfalls'],
      ['GET', '/v1/contact-messages'],
      ['POST', `/v1/contact-messages/${id}/read`],
      ['GET', '/v1/getall-booking'],
      ['GET', '/v1/backups'],
      ['POST', '/v1/backups'],
      ['GET', '/v1/backups/valet-2026-11-29T070012.345Z-034_service_area.backup.gz'],
    ] as const) {
      const res = await app.inject({ method, url, ...(method === 'POST' ? { payload: {} } : {}) });
      t.equal(res.statusCode, 401, `${method} ${url}`);
      t.match(res.json(), { message: String, errors: [] });
    }
  });

  t.test('the list pages through every booking once, newest first, in pages of the asked size', async (t) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(`/v1/bookings?limit=10${cursor ? `&cursor=${cursor}` : ''}`);
      t.equal(res.statusCode, 200);
      const body = res.json();
      t.ok(body.data.length <= 10);
      seen.push(...body.data.map((b: { _id: string }) => b._id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    t.equal(pages, 4);
    t.equal(new Set(seen).size, seeded.length, 'no booking twice, none missed');
    // One insert gives every row the same created_at, so the id breaks the tie, as in the database.
    const newestFirst = [...seeded].sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1));
    t.same(seen, newestFirst.map((b) => b.id), 'newest first, then by id');
    const first = (await get('/v1/bookings?limit=1')).json().data[0];
    t.match(first, {
      _id: newestFirst[0]!.id,
      reference: newestFirst[0]!.reference,
      status: newestFirst[0]!.status,
      version: 1,
      quote: { currency: 'NZD', listPriceCents: 6900, discountCents: 0, travelFeeCents: 0, totalCents: 6900, discount: null },
    });
  });

  t.test('search is case-insensitive over name, e-mail and service; filters combine', async (t) => {
    const names = async (query: string) => (await get(`/v1/bookings?${query}`)).json().data.map((b: { name: string }) => b.name);
    t.same(await names('q=AROHA'), ['Aroha Smith']);
    t.same(await names('q=ben%40example'), ['Ben 100% Jones'], 'e-mail');
    t.same(await names('q=deluxe'), ['Aroha Smith'], 'service');
    t.same(await names('q=100%25'), ['Ben 100% Jones'], 'a % typed is a %, not a wildcard');
    t.same(await names(`q=${aroha.reference}`), ['Aroha Smith'], 'the booking reference');
    t.same(await names(`q=${aroha.reference.toLowerCase()}`), ['Aroha Smith'], 'the reference in lower case');
    t.same(await names(`status=confirmed`), ['Ben 100% Jones']);
    t.same(await names(`date=${today}`), ['Aroha Smith']);
    t.same(await names(`service=Deluxe%20Clean&status=pending`), ['Aroha Smith']);
    t.same(await names(`service=Deluxe%20Clean&status=confirmed`), []);
    const scheduled = (await get('/v1/bookings?sort=schedule&limit=3')).json().data.map((b: { date: string }) => b.date);
    t.same(scheduled, [today, inDays(1), inDays(5)], 'by appointment, soonest first');
  });

  t.test('bad queries are 400s in the error shape', async (t) => {
    for (const query of ['status=done', 'date=tomorrow', 'limit=0', 'limit=1000', 'sort=random', 'cursor=not-a-cursor', 'colour=red']) {
      const res = await get(`/v1/bookings?${query}`);
      t.equal(res.statusCode, 400, query);
      t.match(res.json(), { message: String, errors: Array });
    }
    const newestCursor = (await get('/v1/bookings?limit=1')).json().nextCursor;
    t.equal((await get(`/v1/bookings?sort=schedule&cursor=${newestCursor}`)).statusCode, 400, "one sort's cursor is refused by the other");
  });

  t.test('the Service filter lists the services in the data', async (t) => {
    t.same((await get('/v1/bookings/services')).json(), { data: ['Deluxe Clean', 'Quick Clean'] });
  });

  t.test('status changes are compare-and-set, recorded with who and when, and append-only', async (t) => {
    const url = `/v1/bookings/${aroha.id}/status`;
    const confirmed = await post(url, { status: 'confirmed', version: 1 });
    t.equal(confirmed.statusCode, 200);
    t.match(confirmed.json(), { booking: { status: 'confirmed', version: 2 }, history: [{ from: 'pending', to: 'confirmed', by: 'Mere', at: String }] });

    const stale = await post(url, { status: 'cancelled', version: 1 });
    t.equal(stale.statusCode, 409, 'a second tab that saw version 1 is refused');
    t.match(stale.json(), { message: /changed by someone else/, booking: { status: 'confirmed', version: 2 } });

    const invalid = await post(url, { status: 'confirmed', version: 2 });
    t.equal(invalid.statusCode, 409);
    t.match(invalid.json(), { message: 'A confirmed booking cannot be changed to confirmed' });

    t.equal((await post(url, { status: 'completed', version: 2 })).statusCode, 200);
    t.equal((await post(url, { status: 'pending', version: 3 })).statusCode, 200);
    const details = (await get(`/v1/bookings/${aroha.id}`)).json();
    t.same(details.history.map((h: { from: string; to: string }) => `${h.from}>${h.to}`), ['pending>confirmed', 'confirmed>completed', 'completed>pending']);
    t.equal(details.booking.version, 4);

    await t.rejects(sql`update booking_status_changes set to_status = 'cancelled'`.execute(app.db), /append-only/);
    await t.rejects(sql`delete from booking_status_changes`.execute(app.db), /append-only/);

    t.equal((await post(url, { status: 'finished', version: 4 })).statusCode, 400);
    t.equal((await post(url, { status: 'cancelled', version: '4' })).statusCode, 400, 'no coercion in JSON bodies');
    t.equal((await post('/v1/bookings/00000000-0000-4000-8000-000000000000/status', { status: 'confirmed', version: 1 })).statusCode, 404);
    t.equal((await get('/v1/bookings/not-a-uuid')).statusCode, 400);
  });

  t.test('state changes from another site are refused even with the cookie', async (t) => {
    const url = `/v1/bookings/${seeded[2]!.id}/status`;
    const crossSite = await post(url, { status: 'confirmed', version: 1 }, { cookie, 'sec-fetch-site': 'cross-site' });
    t.equal(crossSite.statusCode, 403);
    const foreign = await post(url, { status: 'confirmed', version: 1 }, { cookie, origin: 'https://evil.example' });
    t.equal(foreign.statusCode, 403);
    const ours = await post(url, { status: 'confirmed', version: 1 }, { cookie, origin: 'http://localhost:80', host: 'localhost:80', 'sec-fetch-site': 'same-origin' });
    t.equal(ours.statusCode, 200);
  });

  t.test('the day view covers today, tomorrow and the week in schedule order', async (t) => {
    const range = async (r: string) => (await get(`/v1/bookings/upcoming?range=${r}`)).json();
    t.match(await range('today'), { from: today, to: today, data: [{ name: 'Aroha Smith' }] });
    t.match(await range('tomorrow'), { from: inDays(1), to: inDays(1), data: [{ name: 'Ben 100% Jones' }] });
    const week = await range('week');
    t.same(week.data.map((b: { name: string }) => b.name), ['Aroha Smith', 'Ben 100% Jones', '=HYPERLINK("http://evil")']);
    t.equal(week.to, inDays(6));
    t.equal((await get('/v1/bookings/upcoming?range=month')).statusCode, 400);
  });

  t.test('CSV export: the filtered list, properly quoted, formulas neutralised', async (t) => {
    const res = await get('/v1/bookings/export.csv');
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /^text\/csv/);
    t.equal(res.headers['content-disposition'], `attachment; filename="bookings-${today}.csv"`);
    const rows: string[][] = parseCsv(res.body, { bom: true });
    t.equal(rows[0]![0], 'Booking id');
    t.equal(rows.length, seeded.length + 1, 'every booking, once');
    const evil = rows.find((row) => row.includes('evil@example.com'))!;
    t.equal(evil[rows[0]!.indexOf('Name')], `'=HYPERLINK("http://evil")`, 'the formula is text');
    t.equal(evil[rows[0]!.indexOf('Notes')], 'Line one\nsaid "hi", then left', 'newlines, commas and quotes survive');
    const column = (row: string[], name: string) => row[rows[0]!.indexOf(name)];
    const arohaRow = rows.find((row) => row.includes('aroha@example.com'))!;
    t.equal(column(arohaRow, 'Reference'), aroha.reference);
    t.same([column(arohaRow, 'List price (NZD)'), column(arohaRow, 'Discount (NZD)'), column(arohaRow, 'Discount'), column(arohaRow, 'Total (NZD)')], ['69.00', '0.00', '', '69.00']);
    const filtered: string[][] = parseCsv((await get('/v1/bookings/export.csv?status=confirmed')).body, { bom: true });
    t.same(filtered.slice(1).map((row) => row[rows[0]!.indexOf('Status')]), ['confirmed', 'confirmed']);
  });

  t.test('contact inbox: newest first, unread count, read and unread again', async (t) => {
    for (const name of ['First Sender', 'Second Sender']) {
      await app.inject({ method: 'POST', url: '/v1/contact-us-form', payload: { name, email: 'a@b.co', phone: '021 555 1234', message: `From ${name}` } });
    }
    const inbox = (await get('/v1/contact-messages')).json();
    t.same(inbox.data.map((m: { name: string }) => m.name), ['Second Sender', 'First Sender']);
    t.equal(inbox.unread, 2);
    const id = inbox.data[1].id;
    const read = await post(`/v1/contact-messages/${id}/read`, { read: true });
    t.match(read.json(), { id, read: true });
    t.match((await get('/v1/contact-messages?unread=true')).json(), { unread: 1, data: [{ name: 'Second Sender' }] });
    t.match((await post(`/v1/contact-messages/${id}/read`, { read: false })).json(), { read: false });
    t.equal((await get('/v1/contact-messages')).json().unread, 2);
    t.equal((await post('/v1/contact-messages/00000000-0000-4000-8000-000000000000/read', { read: true })).statusCode, 404);
  });

  t.test('every staff endpoint is in the OpenAPI document with its cookie requirement', async (t) => {
    const doc = (await app.inject('/v1/openapi.json')).json();
    for (const [path, method] of [
      ['/v1/bookings', 'get'],
      ['/v1/bookings/services', 'get'],
      ['/v1/bookings/upcoming', 'get'],
      ['/v1/bookings/export.csv', 'get'],
      ['/v1/bookings/{id}', 'get'],
      ['/v1/bookings/{id}/status', 'post'],
      ['/v1/bookings/{id}/move', 'post'],
      ['/v1/schedule', 'get'],
      ['/v1/schedule/week', 'get'],
      ['/v1/resources', 'get'],
      ['/v1/resources/{id}', 'patch'],
      ['/v1/working-hours', 'get'],
      ['/v1/working-hours/{kind}', 'put'],
      ['/v1/min-gap', 'put'],
      ['/v1/service-zones', 'get'],
      ['/v1/service-zones', 'post'],
      ['/v1/service-zones/{id}', 'patch'],
      ['/v1/zone-travel', 'get'],
      ['/v1/zone-travel', 'put'],
      ['/v1/schedule/travel-shortfalls', 'get'],
      ['/v1/contact-messages', 'get'],
      ['/v1/contact-messages/{id}/read', 'post'],
    ] as const) {
      t.ok(doc.paths[path]?.[method], `${method} ${path} documented`);
      t.same(doc.paths[path]?.[method]?.security, [{ staffSession: [] }], `${method} ${path} needs the session`);
    }
  });
});

t.test("business dates are Auckland's, whatever the server's clock says in UTC", async (t) => {
  // 11:30 on 23 November in UTC is already 00:30 on the 24th in Auckland (NZDT, UTC+13).
  const app = await buildTestApp(t, { now: () => new Date('2026-11-23T11:30:00Z') });
  const cookie = await login(app);
  const today = await app.inject({ url: '/v1/bookings/upcoming?range=today', headers: { cookie } });
  t.match(today.json(), { from: '2026-11-24', to: '2026-11-24' });
  const week = await app.inject({ url: '/v1/bookings/upcoming?range=week', headers: { cookie } });
  t.match(week.json(), { from: '2026-11-24', to: '2026-11-30' });
  const csv = await app.inject({ url: '/v1/bookings/export.csv', headers: { cookie } });
  t.equal(csv.headers['content-disposition'], 'attachment; filename="bookings-2026-11-24.csv"');
  const booking = (date: string) => app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date }) });
  t.equal((await booking('2026-11-24')).statusCode, 400, "Auckland's today is too soon");
  t.equal((await booking('2026-11-25')).statusCode, 201, "Auckland's tomorrow is the first bookable day");
});
