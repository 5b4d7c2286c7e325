/**
 * Issue 43 in Chromium: the customer a place was offered to opens the link of the offer's e-mail
 * at 390 px (a phone) and 1280 px, reads what is held and until when, and confirms it (1280) or
 * says no thanks (390); axe finds nothing on either page. SCREENSHOTS=<dir> keeps a picture of
 * the offer at each width.
 */
import t from 'tap';
import { baseUrl, buildTestApp } from '../helper.ts';
import { axeViolations, launchBrowser, openPage, waitForHydration } from '../support/browser.ts';
import { nextWeekday, originalClientPayload } from '../support/payloads.ts';
import { manageLinkFor } from '../../src/db/manage-link.repository.ts';
import { WAITLIST_MESSAGES } from '../../src/domain/waitlist.ts';

t.test('a waitlist offer answered in Chromium', async (t) => {
  const app = await buildTestApp(t, { listen: true, env: { BOOKING_SLOT_CAPACITY: '1' } });
  const browser = await launchBrowser(t);

  for (const [width, weekday, take] of [
    [390, 2, false],
    [1280, 4, true],
  ] as const) {
    t.test(`${take ? 'confirm' : 'no thanks'} at ${width} px`, async (t) => {
      // A free date: the minute's sweep offers its first morning start to the entry.
      const date = nextWeekday(weekday, 4);
      const { time: _time, ...body } = originalClientPayload({ date, email: `offered-${width}@example.co.nz` });
      t.equal((await app.inject({ method: 'POST', url: '/v1/waitlist', payload: { ...body, part: 'morning' } })).statusCode, 201);
      const [offer] = await app.offerFreedPlaces([date]);
      const link = (await manageLinkFor(app.db, offer!.booking.id, baseUrl(app)))!;
      const { page } = await openPage(browser, width);

      await page.goto(link);
      await waitForHydration(page);
      const region = page.getByRole('region', { name: WAITLIST_MESSAGES.offerHeading });
      t.match(await region.innerText(), /is held for you until .* 2026, /, 'what is held, and until when');
      t.match(await page.locator('.manage-facts').innerText(), /Offered to you from the waitlist/);
      t.same(await axeViolations(page), [], 'no axe violation on the offer');
      if (process.env.SCREENSHOTS) await page.locator('section.manage').screenshot({ path: `${process.env.SCREENSHOTS}/waitlist-offer-${width}.png` });

      await region.getByRole('button', { name: take ? 'Confirm this time' : 'No thanks' }).click();
      await page.waitForURL(new RegExp(`done=${take ? 'taken' : 'declined'}$`));
      await page.getByText(take ? WAITLIST_MESSAGES.confirmed : WAITLIST_MESSAGES.declined).waitFor();
      await waitForHydration(page);
      const booking = await app.db.selectFrom('bookings').select('status').where('id', '=', offer!.booking.id).executeTakeFirstOrThrow();
      t.equal(booking.status, take ? 'pending' : 'cancelled');
      t.equal(await page.getByRole('region', { name: WAITLIST_MESSAGES.offerHeading }).count(), 0, 'the offer is answered');
      t.same(await axeViolations(page), [], 'no axe violation after the answer');
    });
  }
});
