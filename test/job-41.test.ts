/**
 * Issue 41: what the customer books, line by line. Property tests over random jobs (one to four
 * vehicles, any package, size, coating term and add-ons that fit): the quote is the sum of its
 * lines less the discount, in integer cents, and the job holds its van or bay for exactly the sum
 * of its minutes; the original single-vehicle body prices and times every package and size as
 * before. Then every refusal with its indexed field, a two-vehicle on-site job where only one
 * vehicle's time is free, the catalogue, availability for several vehicles, and migration 035 on
 * bookings taken before it.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import t from 'tap';
import type { App } from '../src/app.ts';
import { ADD_ONS, addOnsFor } from '../src/domain/add-ons.ts';
import { CERAMIC_COATING, CERAMIC_SIZES, COATING_TYPES, PACKAGES, VEHICLE_TYPES, durationFor, priceFor } from '../src/domain/catalogue.ts';
import { JOB_MESSAGES } from '../src/domain/job.ts';
import { MESSAGES } from '../src/domain/messages.ts';
import { percentOf } from '../src/domain/pricing.ts';
import { openDatabase } from '../src/db/connect.ts';
import { migrateTo, migrateToLatest } from '../src/db/migrator.ts';
import { composeQueued } from '../src/mail/booking-mail.ts';
import { buildTestApp, createServerDatabase, forEachBackend } from './helper.ts';
import { bookingRow, nextWeekday, originalClientPayload } from './support/payloads.ts';

interface Vehicle {
  service: string;
  vehicleType: string;
  selectedVehicleType: string;
  coatingType: string;
  addOns: string[];
  plate?: string;
}

/** A vehicle of the catalogue: any package, size and term, and a subset of the add-ons that fit it. */
const vehicle: fc.Arbitrary<Vehicle> = fc
  .tuple(fc.constantFrom(...PACKAGES), fc.constantFrom(...VEHICLE_TYPES), fc.constantFrom(...COATING_TYPES), fc.nat())
  .chain(([pkg, size, term, seed]) =>
    fc.subarray(addOnsFor(pkg.name).map((a) => a.id)).map((addOns) => ({
      service: pkg.name,
      vehicleType: size,
      selectedVehicleType: pkg.name === CERAMIC_COATING ? CERAMIC_SIZES.find((s) => s.vehicleType === size)!.key : size,
      coatingType: pkg.name === CERAMIC_COATING ? term : '',
      addOns,
      ...(seed % 3 === 0 ? { plate: `ab${seed % 1000}` } : {}),
    })),
  );

/** The reference: each vehicle's package and add-ons from the catalogue tables, added up. */
function expected(vehicles: Vehicle[]): { cents: number; minutes: number; lines: number } {
  let cents = 0;
  let minutes = 0;
  let lines = 0;
  for (const v of vehicles) {
    cents += priceFor(v.service, v.vehicleType, v.coatingType)! * 100;
    minutes += durationFor(v.service, v.vehicleType, v.coatingType)!;
    lines += 1 + v.addOns.length;
    for (const id of v.addOns) {
      const addOn = ADD_ONS.find((a) => a.id === id)!;
      cents += addOn.prices[v.vehicleType as 'sm'];
      minutes += addOn.minutes[v.vehicleType as 'sm'];
    }
  }
  return { cents, minutes, lines };
}

let emails = 0;
const payload = (overrides: Record<string, unknown>) => {
  emails += 1;
  return originalClientPayload({ email: `job.${emails}@example.co.nz`, name: `Job Customer ${emails}`, ...overrides });
};
/** The original body without its single-vehicle fields, for a body with `vehicles`. */
function withVehicles(vehicles: unknown[], overrides: Record<string, unknown> = {}) {
  const { service: _s, coatingType: _c, vehicleType: _v, selectedVehicleType: _sv, ...rest } = payload(overrides);
  return { ...rest, vehicles };
}
const post = (app: App, url: string, body: object) => app.inject({ method: 'POST', url, payload: body });

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { RATE_LIMIT_FORMS_MAX: '1000000', RATE_LIMIT_QUOTE_MAX: '1000000', MAX_ACTIVE_BOOKINGS_PER_EMAIL: '1000' } });

  t.test('the original single-vehicle body prices and times every package and size as before', async (t) => {
    for (const pkg of PACKAGES) {
      for (const vehicleType of VEHICLE_TYPES) {
        for (const coatingType of pkg.coatingPrices ? COATING_TYPES : ['']) {
          const res = await post(app, '/v1/quote', { service: pkg.name, vehicleType, coatingType });
          t.equal(res.statusCode, 200);
          const quote = res.json();
          t.equal(quote.listPriceCents, priceFor(pkg.name, vehicleType, coatingType)! * 100, `${pkg.name} ${vehicleType} ${coatingType}: price`);
          t.equal(quote.durationMinutes, durationFor(pkg.name, vehicleType, coatingType), 'and minutes');
          t.equal(quote.lines.length, 1, 'one line');
        }
      }
    }
  });

  t.test('random jobs: the total is the lines less the discount, in whole cents, and the van is held for the sum of the minutes', async (t) => {
    const date = nextWeekday(3, 20);
    let booked = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(vehicle, { minLength: 1, maxLength: 4 }), fc.boolean(), async (vehicles, firstService) => {
        const want = expected(vehicles);
        emails += 1;
        const email = firstService ? `new.${emails}@example.co.nz` : 'job.1@example.co.nz';
        const res = await post(app, '/v1/quote', { vehicles, email, serviceType: 'dropoff' });
        if (res.statusCode !== 200) throw new Error(`quote ${res.statusCode} ${res.body}`);
        const quote = res.json();
        const sum = quote.lines.reduce((s: number, l: { totalCents: number }) => s + l.totalCents, 0);
        const minutes = quote.lines.reduce((s: number, l: { minutes: number }) => s + l.minutes, 0);
        for (const l of quote.lines) {
          if (!Number.isInteger(l.unitCents) || l.totalCents !== l.unitCents * l.quantity) throw new Error(`line ${JSON.stringify(l)}`);
        }
        const discount = quote.discount ? percentOf(want.cents, 15) : 0;
        if (sum !== want.cents || quote.listPriceCents !== sum || quote.lines.length !== want.lines) throw new Error(`lines ${sum} vs ${want.cents}`);
        if (quote.discountCents !== discount || quote.totalCents !== sum - discount) throw new Error(`total ${quote.totalCents} vs ${sum} - ${discount}`);
        if (minutes !== want.minutes || quote.durationMinutes !== want.minutes) throw new Error(`minutes ${minutes} vs ${want.minutes}`);
        // Booked as a drop-off at 08:00 on a day of its own when it fits in the day: held for exactly its minutes.
        if (want.minutes > 600 || booked >= 12) return;
        booked += 1;
        const created = await post(app, '/v1/create-booking', withVehicles(vehicles, { serviceType: 'dropoff', date: nextWeekday(3, 20 + 7 * booked), time: '08:00' }));
        if (created.statusCode !== 201) throw new Error(`create ${created.statusCode} ${created.body}`);
        const row = await app.db.selectFrom('bookings').select(['starts_at', 'ends_at', 'list_price_cents', 'total_cents', 'discount_cents']).where('id', '=', created.json().id).executeTakeFirstOrThrow();
        if ((row.ends_at.getTime() - row.starts_at.getTime()) / 60_000 !== want.minutes) throw new Error('held for another length');
        if (row.list_price_cents !== want.cents || row.total_cents !== want.cents - row.discount_cents) throw new Error('stored another price');
      }),
      { numRuns: 60 },
    );
    t.pass(`60 random jobs priced and timed line by line, ${booked} of them booked (${date} on)`);
  });

  t.test('every refusal names its field with its index, nothing written', async (t) => {
    const count = async () => Number((await sql<{ n: string }>`select count(*) as n from bookings`.execute(app.db)).rows[0]!.n);
    const quick = { service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm', coatingType: '' };
    const tinting = { service: 'Window Tinting', vehicleType: 'mid', selectedVehicleType: 'mid', coatingType: '' };
    const cases: [string, object, { field: string; message: string }[]][] = [
      ['an unknown add-on', withVehicles([quick, { ...tinting, addOns: ['headlight-restoration', 'wax-on', 'nope'] }]), [
        { field: 'vehicles[1].addOns[1]', message: JOB_MESSAGES.addOnUnknown },
        { field: 'vehicles[1].addOns[2]', message: JOB_MESSAGES.addOnUnknown },
      ]],
      ['an add-on that does not fit', withVehicles([{ ...tinting, addOns: ['pet-hair'] }]), [{ field: 'vehicles[0].addOns[0]', message: JOB_MESSAGES.addOnDoesNotFit }]],
      ['more than its max', withVehicles([{ ...quick, addOns: ['pet-hair', 'engine-bay', 'pet-hair'] }]), [{ field: 'vehicles[0].addOns[2]', message: JOB_MESSAGES.addOnTooMany(1) }]],
      ['five vehicles', withVehicles([quick, quick, quick, quick, quick]), [{ field: 'vehicles', message: JOB_MESSAGES.tooManyVehicles }]],
      ['no vehicle', withVehicles([]), [{ field: 'vehicles', message: JOB_MESSAGES.noVehicles }]],
      ['a bad plate', withVehicles([{ ...quick, plate: 'AB-1234-X' }]), [{ field: 'vehicles[0].plate', message: JOB_MESSAGES.plateInvalid }]],
      ['the original messages inside a vehicle', withVehicles([quick, { vehicleType: '', service: '' }]), [
        { field: 'vehicles[1].service', message: MESSAGES.serviceRequired },
        { field: 'vehicles[1].vehicleType', message: MESSAGES.vehicleTypeRequired },
      ]],
      ['vehicles and the top-level package at once', { ...withVehicles([quick]), service: 'Quick Clean' }, [{ field: 'service', message: JOB_MESSAGES.vehiclesWithTopLevel }]],
      ['an add-on of the original body that does not fit', payload({ service: 'Window Tinting', addOns: ['odour-treatment'] }), [{ field: 'addOns[0]', message: JOB_MESSAGES.addOnDoesNotFit }]],
    ];
    for (const [what, body, errors] of cases) {
      const before = await count();
      const res = await post(app, '/v1/create-booking', body);
      t.equal(res.statusCode, 400, what);
      t.same(res.json().errors, errors, `${what}: the fields`);
      t.equal(await count(), before, `${what}: nothing written`);
      const quoted = await post(app, '/v1/quote', body);
      t.same(quoted.json().errors, errors, `${what}: the quote says the same`);
    }
  });

  t.test('a two-vehicle on-site job is refused where only one vehicle’s time is free, and accepted where both fit', async (t) => {
    const date = nextWeekday(2, 9);
    const deluxe = { service: 'Deluxe Clean', vehicleType: 'mid', selectedVehicleType: 'mid' };
    // Both vans taken from 13:00: a job of two Deluxe Cleans (7 hours) cannot start at 09:00, one (3½) can.
    for (const name of ['Van blocker 1', 'Van blocker 2']) {
      t.equal((await post(app, '/v1/create-booking', payload({ ...deluxe, date, time: '13:00', name }))).statusCode, 201);
    }
    const two = withVehicles([deluxe, { ...deluxe, plate: 'xyz 789' }], { date, time: '09:00' });
    const slots = (await app.inject(`/v1/availability?date=${date}&service=Deluxe+Clean&vehicleType=mid&service=Deluxe+Clean&vehicleType=mid&serviceType=onsite&postalCode=1060`)).json();
    t.equal(slots.durationMinutes, 420, 'availability answers for both vehicles');
    t.match(slots.slots.find((s: { time: string }) => s.time === '09:00'), { available: false, reason: 'full' });
    t.match(slots.slots.find((s: { time: string }) => s.time === '07:00'), { available: false }, '07:00-14:00 runs into the 13:00 jobs too');
    const refused = await post(app, '/v1/create-booking', two);
    t.equal(refused.statusCode, 409, 'refused at 09:00');
    t.equal(refused.json().message, MESSAGES.slotFull);
    t.equal((await post(app, '/v1/create-booking', payload({ ...deluxe, date, time: '09:00' }))).statusCode, 201, 'one vehicle alone fits then');
    const later = nextWeekday(2, 16);
    const accepted = await post(app, '/v1/create-booking', { ...two, date: later });
    t.equal(accepted.statusCode, 201, accepted.body);
    const { booking, quote } = accepted.json();
    t.equal(quote.durationMinutes, 420);
    t.equal((new Date(booking.endsAt).getTime() - new Date(booking.startsAt).getTime()) / 60_000, 420, 'one van, one held range for both');
    t.same(booking.vehicles.map((v: { plate: string }) => v.plate), ['', 'XYZ789'], 'the plate stored upper case without its space');
    t.same(quote.lines.map((l: { description: string }) => l.description), ['Vehicle 1: Deluxe Clean, Medium Car', 'XYZ789: Deluxe Clean, Medium Car']);
    t.equal(booking.service, 'Deluxe Clean', 'the original fields hold the first vehicle');
  });

  t.test('GET /v1/catalogue: the packages and the add-ons the pages read', async (t) => {
    const res = await app.inject('/v1/catalogue');
    t.equal(res.statusCode, 200);
    t.match(res.headers['cache-control'], /max-age/);
    const body = res.json();
    t.equal(body.packages.length, PACKAGES.length);
    t.match(body.packages.find((p: { name: string }) => p.name === 'Quick Clean'), { priceCents: { sm: 6900, mid: 7900, suv: 9900 }, minutes: { sm: 60 }, coatings: [] });
    t.equal(body.packages.find((p: { name: string }) => p.name === CERAMIC_COATING).coatings.length, 2);
    t.match(body.addOns.find((a: { id: string }) => a.id === 'pet-hair'), { name: 'Pet hair removal', priceCents: { sm: 4500 }, minutes: { sm: 30 }, max: 1 });
    t.ok(body.addOns.find((a: { id: string }) => a.id === 'headlight-restoration').fits.includes('Window Tinting'));
  });

  t.test('availability for several vehicles and add-ons, with indexed errors', async (t) => {
    const date = nextWeekday(4, 9);
    const ask = (query: string) => app.inject(`/v1/availability?date=${date}&${query}`);
    const one = (await ask('service=Quick+Clean&vehicleType=sm&addOns=pet-hair,engine-bay')).json();
    t.equal(one.durationMinutes, 120, 'an hour and two half-hour add-ons');
    const bad = await ask('service=Quick+Clean&vehicleType=sm&service=Quick+Clean&vehicleType=huge');
    t.equal(bad.statusCode, 400);
    t.same(bad.json().errors, [{ field: 'vehicleType[1]', message: MESSAGES.vehicleTypeRequired }]);
    const badAddOn = await ask('service=Window+Tinting&vehicleType=sm&addOns=pet-hair');
    t.same(badAddOn.json().errors, [{ field: 'addOns', message: JOB_MESSAGES.addOnDoesNotFit }]);
    const days = (await app.inject(`/v1/availability/days?from=${date}&to=${date}&service=Ultimate+Clean&vehicleType=suv&service=Ultimate+Clean&vehicleType=suv&service=Ultimate+Clean&vehicleType=suv`)).json();
    t.equal(days.durationMinutes, 1080, 'three SUVs’ Ultimate Cleans');
    t.same(days.days, [{ date, availableStarts: 0 }], 'eighteen hours fit no day');
  });

  t.test('an e-mail queued before migrations 034 and 035 (its snapshot without zone, fee, vehicles or lines) is still composed', async (t) => {
    const created = await post(app, '/v1/create-booking', payload({ service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm', date: nextWeekday(3, 30), time: '09:00' }));
    t.equal(created.statusCode, 201);
    const rows = await app.db.selectFrom('outbox_emails').selectAll().where('booking_id', '=', created.json().id).where('snapshot', 'is not', null).execute();
    t.ok(rows.length > 0, 'its e-mails wait with their snapshots');
    for (const row of rows) {
      const snapshot = typeof row.snapshot === 'string' ? JSON.parse(row.snapshot) : structuredClone(row.snapshot);
      for (const key of ['vehicles', 'lines', 'zone_id', 'travel_fee_cents']) delete snapshot.booking[key];
      const composed = composeQueued({ ...row, snapshot, text_body: null, html_body: null }, app.mail);
      t.match(composed.text_body, /Quick Clean/, `${row.kind}: composed from the old snapshot`);
    }
  });

  t.test('migration 035 turns each booking into one vehicle and one line with the same price and minutes', async (t) => {
    const url = backend === 'postgres' ? await createServerDatabase(t) : undefined;
    const handle = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolMax: 1, connectTimeoutMs: 10_000 }, console);
    t.teardown(() => handle.close());
    await migrateTo(handle.db, '034_service_area');
    const date = nextWeekday(2);
    const legacy = [
      bookingRow({ name: 'Quick', date, time: '09:00' }),
      { ...bookingRow({ name: 'Ceramic', date, time: '11:00', service: CERAMIC_COATING, coating_type: 'coat2', vehicle_type: 'mid', selected_vehicle_type: 'Sedan', list_price_cents: 89900, total_cents: 89900 }), ends_at: new Date(new Date(bookingRow({ date, time: '11:00' }).starts_at as Date).getTime() + 480 * 60_000) },
    ];
    await handle.db.insertInto('bookings').values(legacy as never).execute();
    const before = await handle.db.selectFrom('bookings').select(['name', 'starts_at', 'ends_at', 'list_price_cents', 'total_cents']).orderBy('name').execute();
    t.same((await migrateToLatest(handle.db)).slice(0, 2), ['035_booking_job', '036_job_checks_plpgsql'], 'then the migrations after them');
    const after = await handle.db.selectFrom('bookings').select(['name', 'starts_at', 'ends_at', 'list_price_cents', 'total_cents', 'vehicles', 'lines']).orderBy('name').execute();
    t.same(after.map(({ vehicles: _v, lines: _l, ...rest }) => rest), before, 'nothing moved, no total changed');
    t.match(after[0]!, { name: 'Ceramic', vehicles: [{ service: CERAMIC_COATING, coatingType: 'coat2', vehicleType: 'mid', addOns: [] }], lines: [{ kind: 'package', description: 'Ceramic Coating (3 Year Coating)', unitCents: 89900, totalCents: 89900, minutes: 480 }] });
    t.match(after[1]!, { name: 'Quick', lines: [{ totalCents: 6900, minutes: 60 }] });
    await t.rejects(sql`update bookings set list_price_cents = 7000, total_cents = 7000 where name = 'Quick'`.execute(handle.db), /bookings_price_is_lines/, 'a price that is not the lines’ is refused');
    await t.rejects(sql`update bookings set ends_at = ends_at + interval '30 minutes' where name = 'Quick'`.execute(handle.db), /bookings_time_is_lines/, 'so is a held time that is not their minutes');
    await t.rejects(
      sql`update bookings set vehicles = jsonb_set(vehicles, '{0,plate}', '"abc 123"') where name = 'Quick'`.execute(handle.db),
      /bookings_vehicles_valid/,
      'and a plate not stored as plates are',
    );
    // 035's SQL functions let a line missing a field through (bool_and skips a NULL); 036's do not.
    for (const field of ['quantity', 'minutes', 'kind']) {
      await t.rejects(sql`update bookings set lines = lines #- ${`{0,${field}}`}::text[] where name = 'Quick'`.execute(handle.db), /bookings_lines_valid/, `a line without its ${field} is refused`);
    }
    await t.rejects(sql`update bookings set vehicles = vehicles #- '{0,vehicleType}' where name = 'Quick'`.execute(handle.db), /bookings_vehicles_valid/, 'so is a vehicle without its size');
  });
});
