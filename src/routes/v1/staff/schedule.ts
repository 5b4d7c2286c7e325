/**
 * GET /v1/schedule?date= and GET /v1/schedule/week?from=: the staff's day timeline (one lane per
 * van or bay with its jobs and closures, and for a van the gaps between its jobs with the drive
 * each needs and its route of the day; the closures of whole kinds, and the jobs that hold no van
 * or bay) and a week of each resource's booked hours.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { scheduleDay, scheduleWeek, UNASSIGNED_LIMIT } from '../../../services/staff-schedule.service.ts';
import { ScheduleDaySchema, ScheduleWeekSchema } from '#api/schemas.ts';
import { staffErrorResponses, toBookingDto, toClosureDto, toResourceDto } from '../schemas.ts';
import { todayInAuckland } from '../../../domain/booking-dates.ts';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/schedule',
    {
      schema: {
        operationId: 'getSchedule',
        summary: 'One day of the schedule: a lane per van or bay, and the jobs that need one',
        description: `\`unassigned\` lists at most ${UNASSIGNED_LIMIT} jobs, from today on, whatever the date asked.`,
        tags: ['staff'],
        querystring: Type.Object({ date: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD (default: today in Auckland)' })) }, { additionalProperties: false }),
        response: { 200: ScheduleDaySchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const day = await scheduleDay(app.db, request.query.date ?? todayInAuckland(app.now()), app.now());
      return {
        date: day.date,
        hours: day.hours,
        weeklyClosed: day.weeklyClosed,
        lanes: day.lanes.map((lane) => ({
          resource: toResourceDto(lane.resource),
          jobs: lane.jobs.map(toBookingDto),
          closures: lane.closures.map(toClosureDto),
          gaps: lane.gaps,
          route: lane.route,
        })),
        closures: day.closures.map(toClosureDto),
        unassigned: day.unassigned.map(toBookingDto),
      };
    },
  );

  app.get(
    '/schedule/week',
    {
      schema: {
        operationId: 'getScheduleWeek',
        summary: "Seven days from a date: each van's and bay's jobs and booked hours per day",
        tags: ['staff'],
        querystring: Type.Object({ from: Type.Optional(Type.String({ format: 'date', description: 'The first day, YYYY-MM-DD (default: today in Auckland)' })) }, { additionalProperties: false }),
        response: { 200: ScheduleWeekSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const week = await scheduleWeek(app.db, request.query.from ?? todayInAuckland(app.now()));
      return { ...week, rows: week.rows.map((row) => ({ resource: toResourceDto(row.resource), days: row.days })) };
    },
  );
};

export default route;
