/**
 * Issue 41, the staff side: an edit of the vehicles and add-ons (PATCH /v1/bookings/{id}) priced
 * and timed again line by line, placed again through the engine at its time or refused with the
 * engine's reason (nothing written); the errors with their indexed fields; the takings by package
 * and by add-on; a customer's vehicles with the jobs done on each.
 */
import t from 'tap';
import { findAddOn } from '../src/domain/add-ons.ts';
import { aucklandInstant } from '../src/domain/booking-dates.ts';
import { durationFor, priceFor } from '../src/domain/catalogue.ts';
import { JOB_MESSAGES } from '../src/domain/job.ts';
import { MESSAGES, SLOT_MESSAGES } from '../src/domain/messages.ts';
import { percentOf } from '../src/domain/pricing.ts';
import { composeQueued } from '../src/mail/booking-mail.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { inDays, originalClientPayload, today } from './support/payloads.ts';

/** 09:30 today in Auckland, as the other staff tests: every date below is days ahead. */
const MORNING = new Date(aucklandInstant(today, '09:30'));

const addOnCents = (id: string, size: 'sm' | 'mid' | 'suv') => findAddOn(id)!.prices[size];
const addOnMinutes = (id: string, size: 'sm' | 'mid' | 'suv') => findAddOn(id)!.minutes[size];
const QUICK_SM = { cents: priceFor('Quick Clean', 'sm', '')! * 100, minutes: durationFor('Quick Clean', 'sm', '')! };
const EXPRESS_MID = { cents: priceFor('Express Clean', 'mid', '')! * 100, minutes: durationFor('Express Clean', 'mid', '')! };

const quickCar = (overrides: Record<string, unknown> = {}) => ({ service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm', coatingType: '', addOns: [], make: '', model: '', colour: 'Blue', plate: 'ABC123', ...overrides });

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, now: () => MORNING });
  const cookie = await login(app);
  const create = (vehicles: object[], overrides: Record<string, unknown> = {}) =>
    app.inject({
      method: 'POST',
      url: '/v1/bookings',
      headers: { cookie },
      payload: { ...originalClientPayload({ service: '', vehicleType: '', selectedVehicleType: '', coatingType: '', phone: '021 555 4141', ...overrides }), vehicles },
    });
  const edit = (id: string, payload: object) => app.inject({ method: 'PATCH', url: `/v1/bookings/${id}`, headers: { cookie }, payload });
  const row = (id: string) => app.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const historyCount = async (id: string) => (await app.db.selectFrom('booking_status_changes').select('id').where('booking_id', '=', id).execute()).length;
  const outboxCount = async (id: string) => (await app.db.selectFrom('outbox_emails').select('id').where('booking_id', '=', id).execute()).length;
  const minutesOf = (b: { startsAt: string; endsAt: string }) => (new Date(b.endsAt).getTime() - new Date(b.startsAt).getTime()) / 60_000;

  t.test('an add-on that still fits: priced and timed again, on the same van, the discount and travel fee kept, in the history and the e-mail', async (t) => {
    // 19:00 on site: the hour's Quick Clean ends at 20:00, the vans stop at 21:00.
    const made = await create([quickCar()], { email: 'late@example.co.nz', date: inDays(6), time: '19:00' });
    t.equal(made.statusCode, 201, made.body);
    const before = made.json().booking;
    t.equal(minutesOf(before), QUICK_SM.minutes);

    const res = await edit(before._id, { version: before.version, vehicles: [quickCar({ addOns: ['pet-hair'] })] });
    t.equal(res.statusCode, 200, res.body);
    const { booking, quote, changes, customerNotified } = res.json();
    t.same(
      quote.lines.map((l: { description: string; totalCents: number; minutes: number }) => [l.description, l.totalCents, l.minutes]),
      [
        ['Quick Clean, Small Car', QUICK_SM.cents, QUICK_SM.minutes],
        ['Pet hair removal', addOnCents('pet-hair', 'sm'), addOnMinutes('pet-hair', 'sm')],
      ],
    );
    t.equal(quote.listPriceCents, QUICK_SM.cents + addOnCents('pet-hair', 'sm'));
    t.equal(quote.durationMinutes, QUICK_SM.minutes + addOnMinutes('pet-hair', 'sm'));
    t.equal(minutesOf(booking), quote.durationMinutes, 'the job holds its van for the new minutes');
    t.equal(booking.resourceId, before.resourceId, 'on the same van');
    t.same(quote.discount, before.quote.discount, 'the discount kept');
    t.equal(quote.discountCents, quote.discount ? percentOf(quote.listPriceCents, quote.discount.percent) : 0, 'at its percentage of the new list price');
    t.equal(quote.travelFeeCents, before.quote.travelFeeCents, 'the travel fee kept');
    t.equal(quote.totalCents, quote.listPriceCents - quote.discountCents + quote.travelFeeCents);
    t.same(booking.vehicles[0].addOns, ['pet-hair']);
    t.match(changes, [{ field: 'Vehicles', from: 'ABC123 (Small Car): Quick Clean', to: 'ABC123 (Small Car): Quick Clean + Pet hair removal' }, { field: 'Total' }]);
    t.equal(customerNotified, true);

    const stored = await row(before._id);
    t.equal(stored.list_price_cents, quote.listPriceCents);
    t.equal(stored.lines.length, 2);
    t.equal(stored.version, before.version + 1);
    const mail = composeQueued(await app.db.selectFrom('outbox_emails').selectAll().where('booking_id', '=', before._id).where('kind', '=', 'booking-changed').executeTakeFirstOrThrow(), app.mail);
    t.match(mail.text_body, /Vehicles: ABC123 \(Small Car\): Quick Clean → ABC123 \(Small Car\): Quick Clean \+ Pet hair removal/);

    t.test('one that makes the job too long for its place: 409 with the engine’s reason, nothing written', async (t) => {
      const now = await row(before._id);
      const [history, mails] = [await historyCount(before._id), await outboxCount(before._id)];
      const refused = await edit(before._id, { version: now.version, vehicles: [quickCar({ addOns: ['pet-hair', 'headlight-restoration'] })] });
      t.equal(refused.statusCode, 409, refused.body);
      t.equal(refused.json().message, SLOT_MESSAGES.endsAfterClosing);
      const after = await row(before._id);
      t.same([after.version, after.list_price_cents, after.lines, after.ends_at], [now.version, now.list_price_cents, now.lines, now.ends_at], 'the booking as it was');
      t.equal(await historyCount(before._id), history, 'no history line');
      t.equal(await outboxCount(before._id), mails, 'no e-mail');
    });
  });

  t.test('a second vehicle: its lines added, the job longer on its van, named in the history', async (t) => {
    const made = await create([quickCar({ plate: 'KIA42' })], { date: inDays(7), time: '10:00', email: '' });
    t.equal(made.statusCode, 201, made.body);
    const before = made.json().booking;
    const second = { service: 'Express Clean', selectedVehicleType: 'mid', make: 'Toyota', model: 'Corolla', addOns: ['engine-bay'] };
    const res = await edit(before._id, { version: before.version, vehicles: [quickCar({ plate: 'KIA42' }), second] });
    t.equal(res.statusCode, 200, res.body);
    const { booking, quote, changes } = res.json();
    t.equal(booking.vehicles.length, 2);
    t.match(booking.vehicles[1], { service: 'Express Clean', vehicleType: 'mid', make: 'Toyota', model: 'Corolla', plate: '', addOns: ['engine-bay'] });
    t.same(
      quote.lines.map((l: { description: string }) => l.description),
      ['KIA42: Quick Clean, Small Car', 'Toyota Corolla: Express Clean, Medium Car', 'Toyota Corolla: Engine bay clean'],
      'each line names its vehicle',
    );
    t.equal(quote.listPriceCents, QUICK_SM.cents + EXPRESS_MID.cents + addOnCents('engine-bay', 'mid'));
    t.equal(minutesOf(booking), QUICK_SM.minutes + EXPRESS_MID.minutes + addOnMinutes('engine-bay', 'mid'));
    t.equal(booking.service, 'Quick Clean', 'the single-vehicle fields stay the first vehicle’s');
    t.match(changes.find((c: { field: string }) => c.field === 'Vehicles'), {
      from: 'KIA42 (Small Car): Quick Clean',
      to: 'KIA42 (Small Car): Quick Clean; Toyota Corolla (Medium Car): Express Clean + Engine bay clean',
    });
    t.equal(await outboxCount(before._id), 0, 'no address: nothing e-mailed');

    const same = await edit(before._id, { version: booking.version, vehicles: booking.vehicles });
    t.equal(same.statusCode, 400, 'the same vehicles again change nothing');
    t.match(same.json().errors, [{ field: 'version' }]);
  });

  t.test('bad vehicles: 400 with indexed fields, never a 500, nothing written', async (t) => {
    const made = await create([quickCar()], { date: inDays(8), time: '09:00', email: '' });
    const before = made.json().booking;
    const cases: [string, object, { field: string; message: string }[]][] = [
      [
        'an add-on that does not fit, an unknown one, a missing package and size',
        { vehicles: [quickCar({ service: 'Deluxe interior only', addOns: ['clay-bar-sealant', 'rocket-boost'] }), { service: '', vehicleType: 'xl' }] },
        [
          { field: 'vehicles[0].addOns[0]', message: JOB_MESSAGES.addOnDoesNotFit },
          { field: 'vehicles[0].addOns[1]', message: JOB_MESSAGES.addOnUnknown },
          { field: 'vehicles[1].service', message: MESSAGES.serviceRequired },
          { field: 'vehicles[1].vehicleType', message: MESSAGES.vehicleTypeRequired },
        ],
      ],
      ['an add-on twice', { vehicles: [quickCar({ addOns: ['pet-hair', 'pet-hair'] })] }, [{ field: 'vehicles[0].addOns[1]', message: JOB_MESSAGES.addOnTooMany(1) }]],
      ['a bad plate', { vehicles: [quickCar({ plate: 'AB-12-CD-9' })] }, [{ field: 'vehicles[0].plate', message: JOB_MESSAGES.plateInvalid }]],
      ['no vehicle', { vehicles: [] }, [{ field: 'vehicles', message: JOB_MESSAGES.noVehicles }]],
      ['five vehicles', { vehicles: Array.from({ length: 5 }, () => quickCar()) }, [{ field: 'vehicles', message: JOB_MESSAGES.tooManyVehicles }]],
      ['vehicles with a package beside them', { vehicles: [quickCar()], service: 'Deluxe Clean' }, [{ field: 'service', message: JOB_MESSAGES.vehiclesWithTopLevel }]],
    ];
    for (const [what, body, errors] of cases) {
      const res = await edit(before._id, { version: before.version, ...body });
      t.equal(res.statusCode, 400, what);
      t.same(res.json().errors, errors, what);
    }
    const unknownKey = await edit(before._id, { version: before.version, vehicles: [{ ...quickCar(), price: 1 }] });
    t.equal(unknownKey.statusCode, 400, 'a price sent with a vehicle is refused');
    t.match(await row(before._id), { version: before.version, list_price_cents: QUICK_SM.cents }, 'nothing written');
  });

  t.test('takings by package and by add-on, from the lines of the jobs completed in the range', async (t) => {
    const takings = async () => (await app.inject({ url: `/v1/takings?from=${today}&to=${today}`, headers: { cookie } })).json();
    const start = await takings();
    const count = (list: { code: string; count: number; amountCents: number }[], code: string) => list.find((w) => w.code === code) ?? { count: 0, amountCents: 0 };
    const made = await create([quickCar({ plate: 'TAK1', addOns: ['pet-hair'] }), quickCar({ plate: 'TAK2', vehicleType: 'mid', selectedVehicleType: 'mid', addOns: ['pet-hair', 'engine-bay'] })], {
      date: inDays(9),
      time: '09:00',
      email: '',
    });
    t.equal(made.statusCode, 201, made.body);
    const booking = made.json().booking;
    const open = await create([quickCar({ plate: 'OPEN1', addOns: ['pet-hair'] })], { date: inDays(9), time: '14:00', email: '' });
    t.equal(open.statusCode, 201, 'a job not completed does not count');
    const done = await app.inject({ method: 'POST', url: `/v1/bookings/${booking._id}/completion`, headers: { cookie }, payload: { version: booking.version, paid: true, paymentMethod: 'card' } });
    t.equal(done.statusCode, 200, done.body);

    const end = await takings();
    const quickMid = priceFor('Quick Clean', 'mid', '')! * 100;
    t.same(
      [count(end.byPackage, 'Quick Clean').count - count(start.byPackage, 'Quick Clean').count, count(end.byPackage, 'Quick Clean').amountCents - count(start.byPackage, 'Quick Clean').amountCents],
      [2, QUICK_SM.cents + quickMid],
      'two Quick Cleans',
    );
    t.same(
      [count(end.byAddOn, 'pet-hair').count - count(start.byAddOn, 'pet-hair').count, count(end.byAddOn, 'pet-hair').amountCents - count(start.byAddOn, 'pet-hair').amountCents],
      [2, addOnCents('pet-hair', 'sm') + addOnCents('pet-hair', 'mid')],
      'two pet-hair removals',
    );
    t.match(count(end.byAddOn, 'engine-bay'), { name: 'Engine bay clean' });
    t.equal(count(end.byAddOn, 'engine-bay').count - count(start.byAddOn, 'engine-bay').count, 1);
    const sum = (list: { amountCents: number }[]) => list.reduce((s, w) => s + w.amountCents, 0);
    t.equal(sum(end.byPackage) + sum(end.byAddOn) - sum(start.byPackage) - sum(start.byAddOn), booking.quote.listPriceCents, 'the lines add up to the job’s list price');
  });

  t.test("a customer's vehicles: by plate, or make and model, with the jobs done on each", async (t) => {
    const email = 'fleet@example.co.nz';
    const first = await create(
      [
        quickCar({ plate: 'ute 77', addOns: ['pet-hair'] }),
        { service: 'Express Clean', selectedVehicleType: 'mid', make: 'Toyota', model: 'Corolla' },
        { service: 'Quick Clean', selectedVehicleType: 'suv', colour: 'Red' },
      ],
      { email, date: inDays(10), time: '08:00' },
    );
    t.equal(first.statusCode, 201, first.body);
    const firstBooking = first.json().booking;
    const done = await app.inject({ method: 'POST', url: `/v1/bookings/${firstBooking._id}/completion`, headers: { cookie }, payload: { version: firstBooking.version, paid: true, paymentMethod: 'cash' } });
    t.equal(done.statusCode, 200, done.body);
    const later = await create([quickCar({ plate: 'UTE77', service: 'Deluxe Clean', addOns: [] })], { email, date: inDays(20), time: '10:00' });
    t.equal(later.statusCode, 201, later.body);
    const cancelled = await create([quickCar({ plate: 'GONE1' })], { email, date: inDays(21), time: '10:00' });
    const cancel = await app.inject({ method: 'POST', url: `/v1/bookings/${cancelled.json().booking._id}/status`, headers: { cookie }, payload: { status: 'cancelled', version: cancelled.json().booking.version } });
    t.equal(cancel.statusCode, 200, cancel.body);

    const id = (await app.inject({ url: `/v1/customers?q=${email}`, headers: { cookie } })).json().data[0].id;
    const details = (await app.inject({ url: `/v1/customers/${id}`, headers: { cookie } })).json();
    t.same(
      details.vehicles.map((v: { name: string }) => v.name),
      ['UTE77', 'Toyota Corolla'],
      'the latest booked first; the one without plate, make or model and the cancelled booking’s are not listed',
    );
    const [ute, corolla] = details.vehicles;
    t.match(ute.vehicle, { service: 'Deluxe Clean', plate: 'UTE77' }, 'as on its latest booking');
    t.same(ute.jobs, [{ bookingId: firstBooking._id, reference: firstBooking.reference, date: inDays(10), service: 'Quick Clean', coatingType: '', addOns: ['pet-hair'] }], 'only the job done');
    t.same(corolla.jobs.map((j: { service: string }) => j.service), ['Express Clean']);
  });
});
