/** The pure availability and closure rules, and the slot start instants on Auckland's daylight-saving days. */
import t from 'tap';
import { OPEN_DAY, slotLabel, slotState, slotStates, weekdayOf, withSlotError } from '../src/domain/availability.ts';
import { slotStartsAt } from '../src/domain/booking-dates.ts';
import { TIME_SLOTS } from '../src/domain/booking-rules.ts';
import { validateClosure } from '../src/domain/closure-rules.ts';
import { MESSAGES } from '../src/domain/messages.ts';

t.test('a slot is full at capacity, closed by a closure or a closed day, and unavailable outside the window', async (t) => {
  const facts = { booked: { '09:00': 2, '10:00': 1, '11:00': 5 }, dayClosed: false, closedTimes: ['12:00'] };
  t.same(slotState('09:00', facts, 2), { time: '09:00', remaining: 0, available: false, reason: 'full' });
  t.same(slotState('10:00', facts, 2), { time: '10:00', remaining: 1, available: true, reason: null });
  t.same(slotState('11:00', facts, 2), { time: '11:00', remaining: 0, available: false, reason: 'full' }, 'never negative, even over capacity');
  t.same(slotState('12:00', facts, 2), { time: '12:00', remaining: 0, available: false, reason: 'closed' });
  t.same(slotState('13:00', facts, 2), { time: '13:00', remaining: 2, available: true, reason: null });
  t.ok(slotStates({ ...facts, dayClosed: true }, 2).every((s) => s.reason === 'closed'), 'a closed day closes every slot');
  t.ok(slotStates(OPEN_DAY, 2, false).every((s) => s.reason === 'outside-window' && s.remaining === 0));
  t.same(slotStates(OPEN_DAY, 3).map((s) => s.time), TIME_SLOTS);
});

t.test('the wizard says why in words and puts the message beside the time, after the date', async (t) => {
  const slots = slotStates({ booked: { '09:00': 2 }, dayClosed: false, closedTimes: ['10:00'] }, 2);
  t.same(slots.slice(0, 4).map(slotLabel), ['07:00', '08:00', '09:00 — Full', '10:00 — Closed']);
  t.same(withSlotError([], slots, '09:00'), [{ field: 'time', message: MESSAGES.slotFull }]);
  t.same(withSlotError([], slots, '10:00'), [{ field: 'time', message: MESSAGES.slotClosed }]);
  t.same(withSlotError([], slots, '11:00'), []);
  t.same(withSlotError([], null, '09:00'), [], 'times not known yet: the server decides');
  const dateError = { field: 'date', message: 'd' };
  const regionError = { field: 'region', message: 'r' };
  t.same(withSlotError([dateError, regionError], slots, '09:00'), [dateError, { field: 'time', message: MESSAGES.slotFull }, regionError]);
  t.same(withSlotError([{ field: 'time', message: 't' }], slots, '09:00'), [{ field: 'time', message: 't' }], 'one message per field');
  t.same(withSlotError([], slotStates(OPEN_DAY, 2, false), '09:00'), [], "a date outside the window has the date's own message");
});

t.test("weekdays and slot instants are Auckland's on the daylight-saving days", async (t) => {
  for (const date of ['2026-04-05', '2026-09-27', '2027-04-04']) t.equal(weekdayOf(date), 'sunday', date);
  t.equal(weekdayOf('2026-11-23'), 'monday');
  t.throws(() => weekdayOf('2026-02-30'));
  // Daylight saving ends at 03:00 on 2026-04-05 and 2027-04-04 and starts at 02:00 on 2026-09-27:
  // before the first slot, so every slot keeps its hour and only the offset changes.
  t.equal(slotStartsAt('2026-04-04', '20:00'), '2026-04-04T20:00:00+13:00');
  t.equal(slotStartsAt('2026-04-05', '07:00'), '2026-04-05T07:00:00+12:00');
  t.equal(slotStartsAt('2026-09-26', '20:00'), '2026-09-26T20:00:00+12:00');
  t.equal(slotStartsAt('2026-09-27', '07:00'), '2026-09-27T07:00:00+13:00');
  t.equal(slotStartsAt('2027-04-04', '07:00'), '2027-04-04T07:00:00+12:00');
  t.equal(Date.parse(slotStartsAt('2026-04-05', '07:00')) - Date.parse(slotStartsAt('2026-04-04', '20:00')), 12 * 3_600_000, '11 wall-clock hours plus the hour given back');
  t.equal(Date.parse(slotStartsAt('2026-09-27', '07:00')) - Date.parse(slotStartsAt('2026-09-26', '20:00')), 10 * 3_600_000, '11 wall-clock hours minus the hour skipped');
});

t.test('closure rules', async (t) => {
  const window = { min: '2026-11-23', max: '2027-11-23' };
  t.same(validateClosure({ date: '2026-11-23', time: null, reason: 'Public holiday' }, window), [], 'today may be closed');
  t.same(validateClosure({ date: '2027-11-23', time: '20:00', reason: 'x' }, window), []);
  t.same(
    validateClosure({ date: '2026-11-22', time: '06:00', reason: ' ' }, window).map((e) => e.field),
    ['date', 'time', 'reason'],
  );
  t.same(validateClosure({ date: '2027-11-24', time: null, reason: 'x'.repeat(200) }, window).map((e) => e.field), ['date']);
});
