/**
 * Issue 44, the accounting export: GET /v1/takings/xero.csv answers the jobs completed in a range
 * as Xero's sales invoice import file: the template's header, one row per invoice line (the job's
 * lines, the discount, a change at completion), GST-inclusive amounts that add up to what was
 * charged, the tax invoice's number, the 15% GST tax type and the account code setting.
 */
import { parse } from 'csv-parse/sync';
import t from 'tap';
import { todayInAuckland } from '../src/domain/booking-dates.ts';
import { XERO_COLUMNS, xeroDate } from '../src/domain/xero.ts';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { inDays, originalClientPayload, testNow } from './support/payloads.ts';

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend, env: { GST_NUMBER: '123-456-789', XERO_ACCOUNT_CODE: '210' } });
  const cookie = await login(app);
  const staff = (method: 'GET' | 'POST', url: string, payload?: object) => app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const today = todayInAuckland(testNow);

  t.test("a two-line job with its discount and a change at completion: Xero's header and one row per line, adding up to what was charged", async (t) => {
    const booked = await app.inject({
      method: 'POST',
      url: '/v1/create-booking',
      payload: { ...originalClientPayload({ date: inDays(5), time: '09:00', email: 'xero@example.co.nz', name: 'Aroha Smith' }), addOns: ['pet-hair'] },
    });
    t.equal(booked.statusCode, 201, booked.body);
    const { id, reference, quote } = booked.json();
    t.equal(quote.lines.length, 2, 'the package and the add-on');
    t.equal((await staff('POST', `/v1/bookings/${id}/status`, { status: 'confirmed', version: 1 })).statusCode, 200);
    const charged = quote.totalCents + 1000;
    const done = await staff('POST', `/v1/bookings/${id}/completion`, { version: 2, amountCents: charged, reason: 'Extra mud', paid: true, paymentMethod: 'card' });
    t.equal(done.statusCode, 200, done.body);
    const invoiceNumber = done.json().receipt.invoiceNumber as number;

    const res = await staff('GET', `/v1/takings/xero.csv?from=${today}&to=${today}`);
    t.equal(res.statusCode, 200, res.body);
    t.match(res.headers['content-type'], /^text\/csv/);
    t.match(res.headers['content-disposition'], /attachment; filename="xero-invoices-/);
    const [header, ...rows] = parse(res.body) as string[][];
    t.same(header, [...XERO_COLUMNS], "the template's columns, in its order");
    const at = (row: string[], column: (typeof XERO_COLUMNS)[number]) => row[XERO_COLUMNS.indexOf(column)]!;
    t.same(
      rows.map((row) => [at(row, '*Description'), at(row, '*Quantity'), at(row, '*UnitAmount')]),
      [
        ['Deluxe Clean, Medium Car', '1', '199'],
        ['Pet hair removal', '1', '45'],
        ['First-service discount 15%', '1', String(-quote.discountCents / 100)],
        ['Change at completion: Extra mud', '1', '10'],
      ],
      'the lines as the receipt shows them, the discount and the change negative or positive',
    );
    const total = rows.reduce((sum, row) => sum + Math.round(Number(at(row, '*UnitAmount')) * 100) * Number(at(row, '*Quantity')), 0);
    t.equal(total, charged, 'the rows add up to what was charged');
    for (const row of rows) {
      t.match(
        Object.fromEntries(XERO_COLUMNS.map((c) => [c, at(row, c)])),
        {
          '*ContactName': 'Aroha Smith',
          EmailAddress: 'xero@example.co.nz',
          POAddressLine1: '7 Ellerslie-Panmure Highway',
          POCity: 'Auckland',
          POPostalCode: '1060',
          POCountry: 'New Zealand',
          '*InvoiceNumber': `INV-${String(invoiceNumber).padStart(4, '0')}`,
          Reference: reference,
          '*InvoiceDate': xeroDate(testNow),
          '*DueDate': xeroDate(testNow),
          '*AccountCode': '210',
          '*TaxType': '15% GST on Income',
          Currency: 'NZD',
        },
      );
    }
    t.match(at(rows[0]!, '*InvoiceDate'), /^\d{2}\/\d{2}\/\d{4}$/, 'DD/MM/YYYY');
  });

  t.test('a range refused as the takings refuse it, and staff only', async (t) => {
    t.equal((await staff('GET', `/v1/takings/xero.csv?from=${today}&to=2020-01-01`)).statusCode, 400);
    t.equal((await app.inject(`/v1/takings/xero.csv?from=${today}&to=${today}`)).statusCode, 401);
    const empty = await staff('GET', `/v1/takings/xero.csv?from=2020-01-01&to=2020-01-02`);
    t.equal(empty.statusCode, 200);
    t.same(parse(empty.body), [[...XERO_COLUMNS]], 'no jobs: the header alone');
  });
});
