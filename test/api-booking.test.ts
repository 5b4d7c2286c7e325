import t from 'tap';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { inDays, nextWeekday, originalClientPayload, today } from './support/payloads.ts';

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { BOOKING_SLOT_CAPACITY: '2' } });
  const count = async () => Number((await app.db.selectFrom('bookings').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const book = (payload: unknown) => app.inject({ method: 'POST', url: '/v1/create-booking', payload: payload as object });

  t.test('the original client payload is accepted and stored exactly', async (t) => {
    const res = await book(originalClientPayload({ notes: 'Gate code 1234', landmark: 'Blue fence', saveAddress: true }));
    t.equal(res.statusCode, 201);
    const body = res.json();
    t.match(body, { message: /booking has been received/, id: /^[0-9a-f-]{36}$/, reference: /^[2-9A-HJKMNP-Z]{8}$/ });
    const firstServiceQuote = { currency: 'NZD', listPriceCents: 19900, discountCents: 2985, travelFeeCents: 0, totalCents: 16915, discount: { kind: 'first-service', percent: 15 } };
    const job = { lines: [{ description: 'Deluxe Clean, Medium Car', quantity: 1, unitCents: 19900, totalCents: 19900, minutes: 210 }], durationMinutes: 210 };
    t.same(body.quote, { ...firstServiceQuote, ...job }, 'the first booking of this e-mail has the first-service discount, and its one line');
    t.match(body.booking, { _id: body.id, reference: body.reference, quote: firstServiceQuote, status: 'pending', date: inDays(3), time: '10:00' });
    const row = await app.db.selectFrom('bookings').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    t.match(row, {
      service: 'Deluxe Clean',
      vehicle_type: 'mid',
      selected_vehicle_type: 'mid',
      date: inDays(3),
      time: '10:00',
      service_type: 'onsite',
      house_number: '7',
      region: 'Auckland',
      landmark: 'Blue fence',
      save_address: true,
      notes: 'Gate code 1234',
      status: 'pending',
      reference: body.reference,
      list_price_cents: 19900,
      discount_cents: 2985,
      total_cents: 16915,
      discount_kind: 'first-service',
      discount_percent: 15,
    });
  });

  t.test('drop-off needs no address; ceramic coating needs a coating type and prices by it', async (t) => {
    const dropoff = await book(
      originalClientPayload({ serviceType: 'dropoff', date: nextWeekday(3), houseNumber: '', streetAddress: '', suburb: '', city: '', postalCode: '', region: '', time: '11:00' }),
    );
    t.equal(dropoff.statusCode, 201);
    t.equal(dropoff.json().booking.serviceType, 'dropoff');

    const ceramic = await book(originalClientPayload({ service: 'Ceramic Coating', coatingType: 'coat2', selectedVehicleType: 'Suv', vehicleType: 'suv', time: '12:00' }));
    t.equal(ceramic.statusCode, 201);
    t.match(ceramic.json().booking, { coatingType: 'coat2', vehicleType: 'suv', quote: { listPriceCents: 99900, discountCents: 0, totalCents: 99900, discount: null } });

    const noCoating = await book(originalClientPayload({ service: 'Ceramic Coating', coatingType: '', time: '12:00' }));
    t.equal(noCoating.statusCode, 400);
    t.same(noCoating.json().errors, [{ field: 'coatingType', message: 'Please select a coating type (1 Year or 3 Year)' }]);

    const coatingElsewhere = await book(originalClientPayload({ coatingType: 'coat1' }));
    t.equal(coatingElsewhere.statusCode, 400);
    t.equal(coatingElsewhere.json().errors[0].field, 'coatingType');
  });

  t.test('every rule is enforced by the server with the spec messages', async (t) => {
    const before = await count();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ service: '' }, 'service', 'Please select a service package'],
      [{ service: 'Cerimic Coating' }, 'service', 'Please select one of our service packages'],
      [{ vehicleType: '' }, 'vehicleType', 'Please select your vehicle size'],
      [{ vehicleType: 'bus' }, 'vehicleType', 'Please select your vehicle size'],
      [{ date: '' }, 'date', 'Please select a date'],
      [{ date: today }, 'date', 'Please select a future date for your appointment.'],
      [{ date: inDays(-2) }, 'date', 'Please select a future date for your appointment.'],
      [{ date: '22/11/2026' }, 'date', 'Please select a valid date'],
      [{ date: inDays(500) }, 'date', 'Please select a date within the next 12 months'],
      [{ time: '' }, 'time', 'Please select a time'],
      [{ time: '21:00' }, 'time', 'Please select a time between 07:00 and 20:00, on the hour'],
      [{ serviceType: 'in-shop' }, 'serviceType', 'Please choose on-site or drop-off service'],
      [{ houseNumber: '' }, 'houseNumber', 'Please enter your house/unit number'],
      [{ streetAddress: '' }, 'streetAddress', 'Please enter your street address'],
      [{ suburb: '' }, 'suburb', 'Please enter your suburb'],
      [{ city: '' }, 'city', 'Please enter your city'],
      [{ postalCode: '' }, 'postalCode', 'Please enter your postal code'],
      [{ region: '' }, 'region', 'Please select your region'],
      [{ region: 'Sydney' }, 'region', 'Please select your region'],
      [{ name: '' }, 'name', 'Please enter your full name'],
      [{ email: '' }, 'email', 'Please enter your email'],
      [{ email: 'mere@' }, 'email', 'Please enter a valid email address'],
      [{ phone: '' }, 'phone', 'Please enter your phone number'],
      [{ phone: '12' }, 'phone', 'Please enter a valid phone number'],
      [{ phone: '021#5559876' }, 'phone', 'Please enter a valid phone number'],
      [{ selectedVehicleType: 'Limo' }, 'selectedVehicleType', 'Please select a vehicle size from the list'],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await book(originalClientPayload(overrides));
      t.equal(res.statusCode, 400, `${field}: ${message}`);
      t.same(res.json(), { message, errors: [{ field, message }] });
    }
    t.equal(await count(), before, 'no row written');
  });

  t.test('types are not coerced and unknown keys are refused', async (t) => {
    const before = await count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ saveAddress: 'true' }, 'saveAddress'],
      [{ phone: 215559876 }, 'phone'],
      [{ time: ['10:00'] }, 'time'],
      [{ date: null }, 'date'],
      [{ price: 1 }, 'price'],
      [{ status: 'confirmed' }, 'status'],
    ];
    for (const [overrides, field] of cases) {
      const res = await book(originalClientPayload(overrides));
      t.equal(res.statusCode, 400, JSON.stringify(overrides));
      t.equal(res.json().errors[0].field, field);
    }
    t.equal(await count(), before);
  });

  t.test('a full slot answers 409 and the booking is not stored', async (t) => {
    const slot = { date: inDays(5), time: '15:00' };
    t.equal((await book(originalClientPayload(slot))).statusCode, 201);
    t.equal((await book(originalClientPayload({ ...slot, name: 'Second Customer' }))).statusCode, 201);
    const before = await count();
    const full = await book(originalClientPayload({ ...slot, name: 'Third Customer' }));
    t.equal(full.statusCode, 409);
    t.match(full.json(), { message: /fully booked/, errors: [{ field: 'time' }] });
    t.equal(await count(), before);
    const overlapping = await book(originalClientPayload({ ...slot, time: '16:00', name: 'Fourth Customer' }));
    t.equal(overlapping.statusCode, 409, 'an hour later both vans are still on their 3½-hour jobs');
    // Deluxe Clean for a medium car: 15:00 to 18:30, and the van's 30 minutes of travel to 19:00.
    const after = await book(originalClientPayload({ ...slot, time: '19:00', service: 'Quick Clean', vehicleType: 'sm', selectedVehicleType: 'sm', name: 'Fifth Customer' }));
    t.equal(after.statusCode, 201, 'a van is free again once its job and its travel are over');
  });

  t.test('concurrent requests cannot overfill a slot', async (t) => {
    const slot = { date: inDays(6), time: '08:00' };
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => book(originalClientPayload({ ...slot, name: `Racer ${i}` }))));
    t.same(results.map((r) => r.statusCode).sort(), [201, 201, 409, 409, 409, 409]);
  });

  t.test('getall-booking is staff only and returns the dashboard fields newest first', async (t) => {
    const anonymous = await app.inject({ method: 'GET', url: '/v1/getall-booking' });
    t.equal(anonymous.statusCode, 401);
    t.match(anonymous.json(), { message: String, errors: [] });

    const cookie = await login(app);
    const res = await app.inject({ method: 'GET', url: '/v1/getall-booking', headers: { cookie } });
    t.equal(res.statusCode, 200);
    const { data } = res.json();
    t.equal(data.length, await count());
    for (const key of ['_id', 'name', 'email', 'phone', 'service', 'date', 'time', 'status', 'vehicleType', 'serviceType', 'houseNumber', 'streetAddress', 'suburb', 'city', 'postalCode', 'region', 'landmark', 'notes']) {
      t.ok(key in data[0], `has ${key}`);
    }
    const created = data.map((b: { createdAt: string }) => b.createdAt);
    t.same(created, [...created].sort().reverse(), 'newest first');
    t.equal(data.at(-1).landmark, 'Blue fence', 'the first booking is last');
  });
});
