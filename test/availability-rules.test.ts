/**
 * The pure rules behind availability: durations from the catalogue, whether a job fits at a start
 * (a van or bay held for the whole job and its buffer, inside the kind's hours, no closure), how
 * a start is worded for customers, the closure rules, and the slot start instants on Auckland's
 * daylight-saving days.
 */
import t from 'tap';
import { slotLabel, unavailableMessage, weekdayOf, withSlotError, type SlotState } from '../src/domain/availability.ts';
import { aucklandInstant, slotStartsAt } from '../src/domain/booking-dates.ts';
import { PACKAGES, durationFor, durationText } from '../src/domain/catalogue.ts';
import { SHORTEST_DURATION_MINUTES } from '../src/services/scheduling.service.ts';
import { validateClosure } from '../src/domain/closure-rules.ts';
import { MESSAGES, SLOT_MESSAGES } from '../src/domain/messages.ts';
import { combineFits, fitJob, freeLanes, type KindDay, type ResourceLane } from '../src/domain/scheduling.ts';

const MINUTE = 60_000;
const DATE = '2026-12-02'; // a Wednesday
const at = (time: string) => aucklandInstant(DATE, time);
const held = (start: string, end: string) => ({ start: at(start), end: at(end) });

t.test('every package has a duration for every size (and Ceramic Coating for every term), worded for people', async (t) => {
  t.equal(durationFor('Deluxe Clean', 'mid', ''), 210);
  t.equal(durationFor('Quick Clean', 'sm', ''), 60);
  t.equal(durationFor('Ultimate Clean', 'suv', ''), 360);
  t.equal(durationFor('Ceramic Coating', 'sm', 'coat1'), 360);
  t.equal(durationFor('Ceramic Coating', 'suv', 'coat2'), 480);
  t.equal(durationFor('Ceramic Coating', 'mid', ''), undefined, 'a coating needs its term');
  t.equal(durationFor('Deluxe Clean', 'van', ''), undefined);
  t.equal(durationFor('Valet', 'sm', ''), undefined);
  for (const pkg of PACKAGES) {
    for (const size of ['sm', 'mid', 'suv']) {
      for (const coating of pkg.coatingDurations ? ['coat1', 'coat2'] : ['']) {
        const minutes = durationFor(pkg.name, size, coating);
        t.ok(minutes !== undefined && minutes >= 60 && minutes <= 480 && minutes % 15 === 0, `${pkg.name} ${size} ${coating}: ${minutes} minutes`);
      }
    }
  }
  t.equal(SHORTEST_DURATION_MINUTES, 60, 'a small Quick Clean');
  t.equal(durationText(180), 'about 3 hours');
  t.equal(durationText(75), 'about 1¼ hours');
  t.equal(durationText(210), 'about 3½ hours');
  t.equal(durationText(105), 'about 1¾ hours');
  t.equal(durationText(60), 'about 1 hour');
  t.equal(durationText(45), 'about 45 minutes');
});

t.test('a job holds a resource for its whole duration and its buffer: a Deluxe Clean of a medium car at 10:00 holds a van until 14:00', async (t) => {
  const job = (time: string, minutes = 210, buffer = 30) => ({ start: at(time), durationMs: minutes * MINUTE, bufferMs: buffer * MINUTE });
  const vans = (busy1: { start: number; end: number }[] = [], busy2: { start: number; end: number }[] = []): ResourceLane[] => [
    { id: 'van-1', position: 1, busy: busy1 },
    { id: 'van-2', position: 2, busy: busy2 },
  ];
  const onsite = (lanes: ResourceLane[], extra: Partial<KindDay> = {}): KindDay => ({ hours: held('07:00', '21:00'), dayClosed: false, kindClosures: [], lanes, ...extra });
  const first = held('10:00', '14:00'); // 10:00 + 210 minutes = 13:30, + 30 minutes' travel

  const empty = fitJob(job('10:00'), onsite(vans()));
  t.equal(empty.reason, null);
  t.same(empty.free.map((lane) => lane.id), ['van-1', 'van-2'], 'both vans free, the first in order on a tie');

  const oneTaken = onsite(vans([first]));
  t.same(fitJob(job('10:00'), oneTaken).free.map((lane) => lane.id), ['van-2'], 'one van left at 10:00');
  const bothTaken = onsite(vans([first], [first]));
  for (const time of ['07:00', '08:00', '09:00', '10:00', '11:00', '12:00', '13:00']) {
    t.same(fitJob(job(time), bothTaken), { free: [], tooFar: [], reason: 'full' }, `${time} overlaps 10:00-14:00 on both vans`);
  }
  t.equal(fitJob(job('14:00'), bothTaken).reason, null, '14:00 starts as the van comes free: intervals are [start, end)');
  t.equal(fitJob(job('09:00', 60), bothTaken).reason, 'full', 'a one-hour job at 09:00 holds its van until 10:30, into the job at 10:00…');
  t.equal(fitJob(job('08:00', 60), bothTaken).reason, null, '…but one at 08:00 is back by 09:30');
  t.equal(fitJob(job('09:00', 60, 0), bothTaken).reason, null, 'without a buffer (a bay), 09:00-10:00 fits before it');

  t.equal(fitJob(job('06:00', 60), onsite(vans())).reason, 'outside-hours', 'before opening');
  t.equal(fitJob(job('21:00', 60), onsite(vans())).reason, 'outside-hours', 'at closing');
  t.equal(fitJob(job('20:00', 60), onsite(vans())).reason, null, 'a one-hour job at 20:00 ends at closing; its buffer may run past it');
  t.equal(fitJob(job('20:00', 480), onsite(vans())).reason, 'ends-after-closing', 'a Ceramic Coating at 20:00 would end at 04:00');
  t.equal(fitJob(job('10:00'), onsite(vans(), { hours: null })).reason, 'outside-hours', 'a kind that does not work that day');
  t.equal(fitJob(job('10:00'), onsite(vans(), { dayClosed: true })).reason, 'closed');
  t.equal(fitJob(job('10:00'), onsite(vans(), { kindClosures: [held('13:00', '14:00')] })).reason, 'closed', 'a closed hour inside the job closes the start');
  t.equal(fitJob(job('10:00'), onsite(vans(), { kindClosures: [held('14:00', '15:00')] })).reason, null, 'one right after the held interval does not');
  t.equal(fitJob(job('10:00'), onsite([])).reason, 'closed', 'no active van');
  t.same(
    fitJob(job('10:00'), onsite(vans([held('12:00', '16:00')]))).free.map((lane) => lane.id),
    ['van-2'],
    "a resource's own closure (Van 1 in the workshop 12:00-16:00) holds it like a job",
  );
});

t.test('the engine gives the van that leaves the least idle time, so long free stretches stay whole', async (t) => {
  const lanes: ResourceLane[] = [
    { id: 'van-1', position: 1, busy: [] },
    { id: 'van-2', position: 2, busy: [held('07:00', '10:00')] },
  ];
  t.same(
    freeLanes(held('10:00', '12:00'), lanes, held('07:00', '21:00')).free.map((lane) => lane.id),
    ['van-2', 'van-1'],
    'a job right after another goes on that van, leaving Van 1 free all day',
  );
  t.same(freeLanes(held('09:00', '12:00'), lanes, held('07:00', '21:00')).free.map((lane) => lane.id), ['van-1'], 'a busy van is never offered');
});

t.test('a start asked about for either kind: the kind that can take it wins, else the reason nearest to bookable', async (t) => {
  const lane = { id: 'x', position: 1, busy: [] };
  t.same(combineFits([{ free: [], tooFar: [], reason: 'full' }, { free: [lane], tooFar: [], reason: null }]), { free: [lane], tooFar: [], reason: null });
  t.same(combineFits([{ free: [], tooFar: [], reason: 'outside-hours' }, { free: [], tooFar: [], reason: 'full' }]).reason, 'full');
  t.same(combineFits([{ free: [], tooFar: [], reason: 'closed' }, { free: [], tooFar: [], reason: 'ends-after-closing' }]).reason, 'ends-after-closing');
  t.same(combineFits([{ free: [], tooFar: [lane], reason: 'travel' }, { free: [], tooFar: [], reason: 'full' }]).reason, 'travel', 'a van free but too far is nearer to bookable than full');
});

t.test('the wizard says why in words, with the end of each time, and puts the message beside the time, after the date', async (t) => {
  const slot = (time: string, end: string, reason: SlotState['reason'] = null): SlotState => ({ time, end, remaining: reason ? 0 : 1, available: reason === null, reason });
  const slots = [
    slot('07:00', '10:30', 'outside-hours'),
    slot('09:00', '12:30', 'full'),
    slot('10:00', '13:30', 'closed'),
    slot('11:00', '14:30'),
    slot('15:00', '18:30', 'ends-after-closing'),
  ];
  t.same(slots.map(slotLabel), [
    '07:00 – 10:30 — Outside opening hours',
    '09:00 – 12:30 — Full',
    '10:00 – 13:30 — Closed',
    '11:00 – 14:30',
    '15:00 – 18:30 — Ends after closing',
  ]);
  t.equal(slotLabel(slot('09:00', '10:00', 'outside-window')), '09:00 – 10:00 — Unavailable');
  t.equal(unavailableMessage('full'), MESSAGES.slotFull);
  t.equal(unavailableMessage('closed'), MESSAGES.slotClosed);
  t.equal(unavailableMessage('outside-hours'), SLOT_MESSAGES.outsideHours);
  t.equal(unavailableMessage('ends-after-closing'), SLOT_MESSAGES.endsAfterClosing);
  t.equal(unavailableMessage('outside-window'), MESSAGES.datePast);

  t.same(withSlotError([], slots, '09:00'), [{ field: 'time', message: MESSAGES.slotFull }]);
  t.same(withSlotError([], slots, '10:00'), [{ field: 'time', message: MESSAGES.slotClosed }]);
  t.same(withSlotError([], slots, '07:00'), [{ field: 'time', message: SLOT_MESSAGES.outsideHours }]);
  t.same(withSlotError([], slots, '15:00'), [{ field: 'time', message: SLOT_MESSAGES.endsAfterClosing }]);
  t.same(withSlotError([], slots, '11:00'), []);
  t.same(withSlotError([], null, '09:00'), [], 'times not known yet: the server decides');
  const dateError = { field: 'date', message: 'd' };
  const regionError = { field: 'region', message: 'r' };
  t.same(withSlotError([dateError, regionError], slots, '09:00'), [dateError, { field: 'time', message: MESSAGES.slotFull }, regionError]);
  t.same(withSlotError([{ field: 'time', message: 't' }], slots, '09:00'), [{ field: 'time', message: 't' }], 'one message per field');
  t.same(withSlotError([], [slot('09:00', '10:00', 'outside-window')], '09:00'), [], "a date outside the window has the date's own message");
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
  t.equal(aucklandInstant('2026-04-05', '07:00'), Date.parse('2026-04-05T07:00:00+12:00'));
});

t.test('closure rules', async (t) => {
  const window = { min: '2026-11-23', max: '2027-11-23' };
  const closure = (fields: Partial<Parameters<typeof validateClosure>[0]>) => ({ date: '2026-11-23', from: null, to: null, kind: null, resourceId: null, reason: 'Public holiday', ...fields });
  t.same(validateClosure(closure({}), window), [], 'today may be closed, all day, for both kinds');
  t.same(validateClosure(closure({ date: '2027-11-23', from: '20:00', to: '21:00', reason: 'x' }), window), [], 'one hour');
  t.same(validateClosure(closure({ from: '12:00', to: '16:00', resourceId: 'van-2', reason: 'Van 2 in the workshop' }), window), [], 'one van for a range of hours');
  t.same(validateClosure(closure({ from: '00:00', to: '24:00', kind: 'dropoff' }), window), [], 'every bay, to midnight');
  t.same(
    validateClosure(closure({ date: '2026-11-22', from: '06:30', to: '07:00', reason: ' ' }), window).map((e) => e.field),
    ['date', 'from', 'reason'],
  );
  t.same(validateClosure(closure({ date: '2027-11-24', reason: 'x'.repeat(200) }), window).map((e) => e.field), ['date'], '200 characters are allowed');
  t.same(validateClosure(closure({ reason: 'x'.repeat(201) }), window).map((e) => e.field), ['reason']);
  t.same(validateClosure(closure({ from: '12:00' }), window), [{ field: 'to', message: 'Please give both the start and the end of the closed hours, or neither for the whole day' }]);
  t.same(validateClosure(closure({ from: '12:00', to: '12:00' }), window).map((e) => e.field), ['to'], 'an empty range');
  t.same(validateClosure(closure({ from: '12:00', to: '25:00' }), window).map((e) => e.field), ['to']);
  t.same(validateClosure(closure({ kind: 'van' }), window).map((e) => e.field), ['kind']);
  t.same(validateClosure(closure({ kind: 'onsite', resourceId: 'van-1' }), window).map((e) => e.field), ['resourceId'], 'a van or a kind, not both');
});
