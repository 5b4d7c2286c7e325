/**
 * Issue 21, bookings made by staff and staff edits: POST /v1/bookings (a phone or walk-in booking:
 * e-mail optional, van or bay chosen or left to the engine, a price adjustment with its reason,
 * from the next whole hour today) and PATCH /v1/bookings/{id} (re-quote, move through the engine,
 * compare-and-set, "Your booking has changed" with the updated invitation, the history). Their
 * answers and the rows they wrote, on both databases.
 */
import t from 'tap';
import ICAL from 'ical.js';
import { aucklandInstant } from '../src/domain/booking-dates.ts';
import { MESSAGES, SLOT_MESSAGES } from '../src/domain/messages.ts';
import { STAFF_BOOKING_MESSAGES } from '../src/domain/staff-booking-rules.ts';
import { RESOURCE_BUSY_MESSAGE } from '../src/services/scheduling.service.ts';
import { composeQueued } from '../src/mail/booking-mail.ts';
import { buildTestApp, forEachBackend, TEST_ADMIN_PASSWORD } from './helper.ts';
import { inDays, nextWeekday, originalClientPayload, today } from './support/payloads.ts';

/** 09:30 today in Auckland: staff may book from 10:00 today, customers online from tomorrow. */
const MORNING = new Date(aucklandInstant(today, '09:30'));

const phoneBooking = (overrides: Record<string, unknown> = {}) =>
  originalClientPayload({ email: '', name: 'Walk In', phone: '021 555 0000', date: inDays(5), ...overrides });

function readIcs(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
  return { uid: event.uid, sequence: event.sequence, start: event.startDate.toJSDate().toISOString(), method: calendar.getFirstPropertyValue('method') as string };
}

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, now: () => MORNING });
  const signIn = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { password: TEST_ADMIN_PASSWORD, name: 'Sam' } });
  const cookie = `${signIn.cookies[0]!.name}=${signIn.cookies[0]!.value}`;
  const create = (payload: object, headers: Record<string, string> = {}) => app.inject({ method: 'POST', url: '/v1/bookings', headers: { cookie, ...headers }, payload });
  const edit = (id: string, payload: object) => app.inject({ method: 'PATCH', url: `/v1/bookings/${id}`, headers: { cookie }, payload });
  const outbox = (bookingId: string) =>
    app.db
      .selectFrom('outbox_emails')
      .selectAll()
      .where('booking_id', '=', bookingId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
      // As the sender composes them (a queued one holds its snapshot, issue 24).
      .then((rows) => rows.map((row) => composeQueued(row, app.mail)));
  const vans = (await app.inject({ url: '/v1/resources', headers: { cookie } })).json().data.filter((r: { kind: string }) => r.kind === 'onsite') as { id: string; name: string }[];

  t.test('staff only, same-origin only, and documented', async (t) => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [
      ['POST', '/v1/bookings'],
      ['PATCH', `/v1/bookings/${id}`],
      ['GET', `/v1/availability/staff?date=${today}`],
    ] as const) {
      const res = await app.inject({ method, url, ...(method === 'GET' ? {} : { payload: {} }) });
      t.equal(res.statusCode, 401, `${method} ${url} without a session`);
    }
    const forged = await create(phoneBooking(), { 'sec-fetch-site': 'cross-site' });
    t.equal(forged.statusCode, 403, 'a booking from another site is refused');
    const doc = (await app.inject('/v1/openapi.json')).json();
    t.same(doc.paths['/v1/bookings'].post.security, [{ staffSession: [] }]);
    t.same(doc.paths['/v1/bookings/{id}'].patch.security, [{ staffSession: [] }]);
  });

  t.test('without an e-mail: booked, confirmed, recorded as staff, and nothing queued; the phone is then required', async (t) => {
    const res = await create(phoneBooking());
    t.equal(res.statusCode, 201, res.body);
    const { booking } = res.json();
    t.match(booking, { email: '', phone: '021 555 0000', status: 'confirmed', source: 'staff', createdBy: 'Sam' });
    t.same(await outbox(booking._id), [], 'no e-mail at all, not even to staff');
    const row = await app.db.selectFrom('bookings').selectAll().where('id', '=', booking._id).executeTakeFirstOrThrow();
    t.match(row, { source: 'staff', created_by: 'Sam', price_adjustment_cents: 0, price_adjustment_reason: null });

    const noPhone = await create(phoneBooking({ phone: '' }));
    t.equal(noPhone.statusCode, 400);
    t.same(noPhone.json().errors, [{ field: 'phone', message: MESSAGES.phoneRequired }]);
    const badEmail = await create(phoneBooking({ email: 'not-an-address' }));
    t.equal(badEmail.statusCode, 400);
    t.same(badEmail.json().errors, [{ field: 'email', message: MESSAGES.emailInvalid }]);

    const online = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ email: '', date: inDays(5) }) });
    t.equal(online.statusCode, 400, 'online, the e-mail stays required');
    t.match(online.json().errors, [{ field: 'email', message: MESSAGES.emailRequired }]);
  });

  t.test('with an e-mail: the customer gets the confirmation with the invitation and a reminder; staff get no notification', async (t) => {
    const res = await create(phoneBooking({ email: 'phoned@example.co.nz', date: inDays(6) }), { 'idempotency-key': 'staff-booking-1' });
    t.equal(res.statusCode, 201, res.body);
    const { booking } = res.json();
    const mails = await outbox(booking._id);
    t.same(mails.map((m) => m.kind).sort(), ['booking-confirmed', 'booking-reminder']);
    t.ok(mails.every((m) => m.to_address === 'phoned@example.co.nz'));
    const again = await create(phoneBooking({ email: 'phoned@example.co.nz', date: inDays(6) }), { 'idempotency-key': 'staff-booking-1' });
    t.equal(again.headers['idempotent-replayed'], 'true', 'a retry with the same key is the first answer');
    t.equal(again.json().booking._id, booking._id);
    t.equal((await outbox(booking._id)).length, 2, 'and queues nothing more');
  });

  t.test('same day: staff from the next whole hour, online from tomorrow', async (t) => {
    const ok = await create(phoneBooking({ date: today, time: '10:00', phone: '021 555 0001' }));
    t.equal(ok.statusCode, 201, ok.body);
    const past = await create(phoneBooking({ date: today, time: '09:00', phone: '021 555 0002' }));
    t.equal(past.statusCode, 400);
    t.same(past.json().errors, [{ field: 'time', message: STAFF_BOOKING_MESSAGES.timePast }]);
    const online = await app.inject({ method: 'POST', url: '/v1/create-booking', payload: originalClientPayload({ date: today, time: '14:00' }) });
    t.equal(online.statusCode, 400);
    t.match(online.json().errors, [{ field: 'date', message: MESSAGES.datePast }]);

    const staffSlots = (await app.inject({ url: `/v1/availability/staff?date=${today}&service=Quick%20Clean&vehicleType=sm&serviceType=onsite`, headers: { cookie } })).json().slots;
    t.match(staffSlots.find((s: { time: string }) => s.time === '09:00'), { available: false, reason: 'outside-window' });
    t.match(staffSlots.find((s: { time: string }) => s.time === '12:00'), { available: true, reason: null });
    const publicSlots = (await app.inject(`/v1/availability?date=${today}`)).json().slots;
    t.ok(publicSlots.every((s: { reason: string }) => s.reason === 'outside-window'), 'the public availability still starts tomorrow');
  });

  t.test('a chosen van is honoured, and refused with the reason when busy', async (t) => {
    const date = inDays(7);
    const first = await create(phoneBooking({ date, time: '11:00', resourceId: vans[1]!.id, phone: '021 555 0003' }));
    t.equal(first.statusCode, 201, first.body);
    t.equal(first.json().booking.resourceId, vans[1]!.id);
    const busy = await create(phoneBooking({ date, time: '11:00', resourceId: vans[1]!.id, phone: '021 555 0004' }));
    t.equal(busy.statusCode, 409);
    t.equal(busy.json().message, RESOURCE_BUSY_MESSAGE);
    const engine = await create(phoneBooking({ date, time: '11:00', phone: '021 555 0004' }));
    t.equal(engine.statusCode, 201);
    t.equal(engine.json().booking.resourceId, vans[0]!.id, 'left to the engine: the free van');
    const full = await create(phoneBooking({ date, time: '11:00', phone: '021 555 0005' }));
    t.equal(full.statusCode, 409);
    t.equal(full.json().message, MESSAGES.slotFull, "the engine's reason");
    const bay = await create(phoneBooking({ date, time: '12:00', resourceId: '00000000-0000-4000-8000-000000000000', phone: '021 555 0006' }));
    t.equal(bay.statusCode, 400, 'an unknown van is a 400');
  });

  t.test('a price adjustment needs a reason, is stored apart, and shows in the total and the e-mail', async (t) => {
    const noReason = await create(phoneBooking({ priceAdjustmentCents: 2500, phone: '021 555 0007' }));
    t.equal(noReason.statusCode, 400);
    t.same(noReason.json().errors, [{ field: 'priceAdjustmentReason', message: STAFF_BOOKING_MESSAGES.adjustmentReasonRequired }]);
    const blank = await create(phoneBooking({ priceAdjustmentCents: 2500, priceAdjustmentReason: '   ', phone: '021 555 0007' }));
    t.equal(blank.statusCode, 400);
    const tooLow = await create(phoneBooking({ priceAdjustmentCents: -999_999, priceAdjustmentReason: 'Friends', phone: '021 555 0007' }));
    t.equal(tooLow.statusCode, 400);
    t.same(tooLow.json().errors, [{ field: 'priceAdjustmentCents', message: STAFF_BOOKING_MESSAGES.totalNegative }]);
    const notCents = await create(phoneBooking({ priceAdjustmentCents: 12.5, priceAdjustmentReason: 'x', phone: '021 555 0007' }));
    t.equal(notCents.statusCode, 400, 'not whole cents');

    const res = await create(phoneBooking({ email: 'dog@example.co.nz', priceAdjustmentCents: 2500, priceAdjustmentReason: 'Dog hair', date: inDays(8), phone: '021 555 0008' }));
    t.equal(res.statusCode, 201, res.body);
    const { quote, booking } = res.json();
    t.equal(quote.totalCents, quote.listPriceCents - quote.discountCents + 2500);
    t.same(quote.adjustment, { cents: 2500, reason: 'Dog hair' });
    t.same(booking.quote, quote);
    const row = await app.db.selectFrom('bookings').selectAll().where('id', '=', booking._id).executeTakeFirstOrThrow();
    t.match(row, { price_adjustment_cents: 2500, price_adjustment_reason: 'Dog hair', total_cents: quote.totalCents });
    const confirmation = (await outbox(booking._id)).find((m) => m.kind === 'booking-confirmed')!;
    t.match(confirmation.text_body, /Price adjustment: Dog hair: \$25\.00/);
    t.match(confirmation.text_body, new RegExp(`Total: \\$${(quote.totalCents / 100).toFixed(2)}`));

    const sql = app.db.updateTable('bookings').set({ price_adjustment_reason: null }).where('id', '=', booking._id).execute();
    await t.rejects(sql, 'the database refuses an adjustment without a reason');
  });

  t.test('edits: re-quoted with a preview, moved through the engine, compare-and-set, e-mailed with the updated invitation, in the history', async (t) => {
    const made = await create(phoneBooking({ email: 'edit@example.co.nz', service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm', date: inDays(9), time: '09:00', phone: '021 555 0009' }));
    t.equal(made.statusCode, 201, made.body);
    const original = made.json().booking;
    const created = readIcs((await outbox(original._id)).find((m) => m.kind === 'booking-confirmed')!.ics!);

    const preview = await edit(original._id, { version: original.version, service: 'Ultimate Clean', selectedVehicleType: 'suv', dryRun: true });
    t.equal(preview.statusCode, 200, preview.body);
    t.equal(preview.json().dryRun, true);
    t.equal(preview.json().quote.listPriceCents > original.quote.listPriceCents, true, 'the new quote');
    t.match(preview.json().changes, [{ field: 'Package', from: 'Quick Clean', to: 'Ultimate Clean' }, { field: 'Vehicle size' }, { field: 'Total' }]);
    const unchanged = await app.db.selectFrom('bookings').selectAll().where('id', '=', original._id).executeTakeFirstOrThrow();
    t.match(unchanged, { service: 'Quick Clean', version: original.version }, 'a dry run writes nothing');
    t.equal((await outbox(original._id)).length, 2, 'and queues nothing');

    const saved = await edit(original._id, { version: original.version, service: 'Ultimate Clean', selectedVehicleType: 'suv', phone: '021 555 1234' });
    t.equal(saved.statusCode, 200, saved.body);
    const after = saved.json();
    t.same(after.quote, preview.json().quote, 'saved as previewed');
    t.match(after.booking, { service: 'Ultimate Clean', vehicleType: 'suv', phone: '021 555 1234', version: original.version + 1 });
    t.ok(new Date(after.booking.endsAt).getTime() - new Date(after.booking.startsAt).getTime() > 60 * 60_000, 'the new duration');
    const last = after.history.at(-1);
    t.match(last, { from: 'confirmed', to: 'confirmed', by: 'Sam' });
    t.match(last.changes, [{ field: 'Phone', from: '021 555 0009', to: '021 555 1234' }, { field: 'Package', from: 'Quick Clean', to: 'Ultimate Clean' }]);
    const historyRow = await app.db.selectFrom('booking_status_changes').selectAll().where('booking_id', '=', original._id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    t.match(historyRow.changes, [{ field: 'Phone' }, { field: 'Package' }, { field: 'Vehicle size' }, { field: 'Total' }]);

    const mails = await outbox(original._id);
    const changed = mails.filter((m) => m.kind === 'booking-changed');
    t.equal(changed.length, 1, 'one "Your booking has changed"');
    t.match(changed[0]!.subject, /Your booking has changed/);
    t.match(changed[0]!.text_body, /Package: Quick Clean → Ultimate Clean/);
    const updatedIcs = readIcs(changed[0]!.ics!);
    t.equal(updatedIcs.uid, created.uid, 'the same UID');
    t.equal(updatedIcs.sequence, created.sequence + 1, 'SEQUENCE one higher');
    t.equal(updatedIcs.method, 'REQUEST');
    const reminders = mails.filter((m) => m.kind === 'booking-reminder');
    t.same(reminders.map((m) => m.status), ['skipped', 'queued'], 'the reminder queued again from the new facts');

    const stale = await edit(original._id, { version: original.version, name: 'Someone Else' });
    t.equal(stale.statusCode, 409);
    t.equal(stale.json().booking.version, original.version + 1, 'with the booking as it is now');

    // A move: the new time through the engine; the reminder re-timed.
    const moved = await edit(original._id, { version: after.booking.version, time: '11:00', date: inDays(10) });
    t.equal(moved.statusCode, 200, moved.body);
    t.match(moved.json().booking, { date: inDays(10), time: '11:00' });
    t.match(moved.json().history.at(-1).move, { from: { date: inDays(9), time: '09:00' }, to: { date: inDays(10), time: '11:00' } });
    const queued = (await outbox(original._id)).filter((m) => m.kind === 'booking-reminder' && m.status === 'queued');
    t.equal(queued.length, 1);
    t.equal(queued[0]!.next_attempt_at.getTime(), aucklandInstant(inDays(10), '11:00') - 24 * 3_600_000, 'due 24 hours before the new time');
    t.equal(readIcs((await outbox(original._id)).filter((m) => m.kind === 'booking-changed').at(-1)!.ics!).sequence, created.sequence + 2);

    // Refused moves: the reason, nothing written.
    const version = moved.json().booking.version;
    const late = await edit(original._id, { version, time: '19:00' });
    t.equal(late.statusCode, 409);
    t.equal(late.json().message, SLOT_MESSAGES.endsAfterClosing, 'a six-hour job at 19:00 ends after closing');
    const blocker = await create(phoneBooking({ date: inDays(10), time: '17:00', service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm', resourceId: vans[1]!.id, phone: '021 555 0010' }));
    t.equal(blocker.statusCode, 201, blocker.body);
    const busy = await edit(original._id, { version, resourceId: vans[1]!.id, time: '13:00' });
    t.equal(busy.statusCode, 409);
    t.equal(busy.json().message, RESOURCE_BUSY_MESSAGE);
    const past = await edit(original._id, { version, date: today, time: '08:00' });
    t.equal(past.statusCode, 400);
    t.same(past.json().errors, [{ field: 'time', message: STAFF_BOOKING_MESSAGES.timePast }]);
    const still = await app.db.selectFrom('bookings').selectAll().where('id', '=', original._id).executeTakeFirstOrThrow();
    t.match(still, { date: inDays(10), time: '11:00', version });

    // Without telling the customer: no "changed" e-mail, but the history has it.
    const before = (await outbox(original._id)).length;
    const quiet = await edit(original._id, { version, notes: 'Gate code 4411', notifyCustomer: false });
    t.equal(quiet.statusCode, 200);
    t.equal(quiet.json().customerNotified, false);
    const afterQuiet = await outbox(original._id);
    t.equal(afterQuiet.filter((m) => m.kind === 'booking-changed').length, 2, 'no new "changed" e-mail');
    t.ok(afterQuiet.length >= before);
    t.match(quiet.json().history.at(-1).changes, [{ field: 'Notes', from: '', to: 'Gate code 4411' }]);

    // A price adjustment by edit.
    const adjusted = await edit(original._id, { version: quiet.json().booking.version, priceAdjustmentCents: -1000, priceAdjustmentReason: 'Regular customer' });
    t.equal(adjusted.statusCode, 200, adjusted.body);
    t.equal(adjusted.json().quote.totalCents, quiet.json().booking.quote.totalCents - 1000);
  });

  t.test('on-site and drop-off: an edit places the job again on a bay or a van through the engine; on-site needs the address', async (t) => {
    const bays = (await app.inject({ url: '/v1/resources', headers: { cookie } })).json().data.filter((r: { kind: string; active: boolean }) => r.kind === 'dropoff' && r.active) as { id: string }[];
    t.ok(bays.length > 0, 'the test app has bays');
    const made = await create(phoneBooking({ email: 'where@example.co.nz', date: nextWeekday(4, 13), time: '10:00', phone: '021 555 0013', landmark: 'Blue gate' }));
    t.equal(made.statusCode, 201, made.body);
    const onsite = made.json().booking;
    t.ok(vans.some((v) => v.id === onsite.resourceId), 'first on a van');

    const toBay = await edit(onsite._id, { version: onsite.version, serviceType: 'dropoff' });
    t.equal(toBay.statusCode, 200, toBay.body);
    const dropoff = toBay.json().booking;
    t.match(dropoff, { serviceType: 'dropoff', houseNumber: '', streetAddress: '', suburb: '', landmark: '', version: onsite.version + 1 });
    t.ok(bays.some((b) => b.id === dropoff.resourceId), 'placed on a bay');
    t.equal(dropoff.bufferMinutes, 0, 'a bay has no travel buffer');
    t.match(toBay.json().changes, [
      { field: 'Where', from: 'On-site (we come to you)', to: 'Drop-off (at our service centre)' },
      { field: 'Address', to: '' },
      { field: 'Van or bay' },
    ]);
    const row = await app.db.selectFrom('bookings').selectAll().where('id', '=', onsite._id).executeTakeFirstOrThrow();
    t.match(row, { service_type: 'dropoff', resource_id: dropoff.resourceId, house_number: '', save_address: false });
    const told = (await outbox(onsite._id)).filter((m) => m.kind === 'booking-changed');
    t.equal(told.length, 1, 'the customer is told');
    t.match(told[0]!.text_body, /Where: On-site \(we come to you\) → Drop-off \(at our service centre\)/);

    const noAddress = await edit(onsite._id, { version: dropoff.version, serviceType: 'onsite' });
    t.equal(noAddress.statusCode, 400, 'on-site without an address');
    t.same(
      noAddress.json().errors.map((e: { field: string }) => e.field),
      ['houseNumber', 'streetAddress', 'suburb', 'city', 'postalCode', 'region'],
    );
    const address = { houseNumber: '12', streetAddress: 'Queen Street', suburb: 'Auckland Central', city: 'Auckland', postalCode: '1010', region: 'Auckland' };
    const back = await edit(onsite._id, { version: dropoff.version, serviceType: 'onsite', ...address });
    t.equal(back.statusCode, 200, back.body);
    t.match(back.json().booking, { serviceType: 'onsite', ...address });
    t.ok(vans.some((v) => v.id === back.json().booking.resourceId), 'on a van again');
    t.ok(back.json().booking.bufferMinutes > 0, 'with the travel buffer');

    // Every bay taken at that time: the engine refuses, and nothing is written.
    for (const [i, bay] of bays.entries()) {
      const taken = await create(phoneBooking({ serviceType: 'dropoff', date: nextWeekday(4, 13), time: '10:00', resourceId: bay.id, phone: `021 555 014${i}`, houseNumber: '', streetAddress: '', suburb: '', city: '', postalCode: '', region: '' }));
      t.equal(taken.statusCode, 201, taken.body);
    }
    const version = back.json().booking.version;
    const full = await edit(onsite._id, { version, serviceType: 'dropoff' });
    t.equal(full.statusCode, 409, full.body);
    t.match(full.json(), { message: String, errors: Array });
    t.match(await app.db.selectFrom('bookings').selectAll().where('id', '=', onsite._id).executeTakeFirstOrThrow(), { service_type: 'onsite', version, house_number: '12' });
    const bad = await edit(onsite._id, { version, serviceType: 'courier' });
    t.equal(bad.statusCode, 400, bad.body);
    t.same(bad.json().errors.map((e: { field: string }) => e.field), ['serviceType']);
  });

  t.test('an edit of a booking without an e-mail queues nothing', async (t) => {
    const made = (await create(phoneBooking({ date: inDays(11), phone: '021 555 0011' }))).json().booking;
    const res = await edit(made._id, { version: made.version, time: '12:00' });
    t.equal(res.statusCode, 200, res.body);
    t.equal(res.json().customerNotified, false);
    t.same(await outbox(made._id), []);
  });

  t.test('bad input is a 400 in the error shape, never a 500', async (t) => {
    const made = (await create(phoneBooking({ date: inDays(12), phone: '021 555 0012' }))).json().booking;
    const cases: [string, object][] = [
      ['no version', { name: 'X' }],
      ['an unknown key', { version: made.version, price: 1 }],
      ['a bad e-mail', { version: made.version, email: 'nope' }],
      ['an unknown package', { version: made.version, service: 'Gold Wash' }],
      ['a bad size', { version: made.version, selectedVehicleType: 'bus' }],
      ['a bad date', { version: made.version, date: '2026-02-30' }],
      ['a bad time', { version: made.version, time: '10:30' }],
      ['a blank name', { version: made.version, name: '  ' }],
      ['a blank phone', { version: made.version, phone: '' }],
      ['an adjustment without a reason', { version: made.version, priceAdjustmentCents: 500 }],
      ['a bad resource id', { version: made.version, resourceId: 'van-1' }],
      ['too long notes', { version: made.version, notes: 'x'.repeat(1001) }],
      ['nothing changed', { version: made.version, name: made.name }],
      ['a version of the wrong type', { version: 'one', name: 'X' }],
    ];
    for (const [what, body] of cases) {
      const res = await edit(made._id, body);
      t.equal(res.statusCode, 400, `${what}: ${res.body}`);
      t.match(res.json(), { message: String, errors: Array }, `${what}: the error shape`);
    }
    const unknown = await edit('00000000-0000-4000-8000-000000000000', { version: 1, name: 'X' });
    t.equal(unknown.statusCode, 404);
    const notUuid = await edit('abc', { version: 1, name: 'X' });
    t.equal(notUuid.statusCode, 400);
    for (const body of [{ ...phoneBooking(), resourceId: 'x' }, { ...phoneBooking(), extra: 1 }, { ...phoneBooking(), priceAdjustmentCents: '10' }, { ...phoneBooking(), date: 'tomorrow' }]) {
      const res = await create(body);
      t.equal(res.statusCode, 400, res.body);
    }
  });
});
