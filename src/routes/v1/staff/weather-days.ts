/**
 * POST /v1/weather-days: staff ask every customer of one kind of job on a date to choose a new
 * time (an apology e-mail with their manage link; the manage page then allows a move inside the
 * notice period for WEATHER_MOVE_DAYS). GET /v1/weather-days?date=: the weather days of a date
 * with the bookings they asked, and whether each has chosen a new time.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { WeatherAskResultSchema, WeatherDaysListSchema, WeatherServiceTypeSchema, type WeatherBookingDto, type WeatherDayDto } from '#api/weather-schemas.ts';
import type { Booking, WeatherDay } from '../../../db/database.ts';
import { weatherAnswer } from '../../../domain/weather-day.ts';
import { askCustomersToReschedule, weatherDaysOfDate } from '../../../services/weather-day.service.ts';
import { staffErrorResponses, toBookingDto } from '../schemas.ts';

function toWeatherDayDto(day: WeatherDay): WeatherDayDto {
  return { id: day.id, date: day.date, serviceType: day.service_type === 'dropoff' ? 'dropoff' : 'onsite', askedBy: day.asked_by, createdAt: day.created_at.toISOString() };
}

function toWeatherBookingDto(booking: Booking): WeatherBookingDto {
  return { booking: toBookingDto(booking), answer: weatherAnswer(booking), moveUntil: booking.weather_move_until?.toISOString() ?? null };
}

const DateString = Type.String({ format: 'date', description: 'YYYY-MM-DD (Auckland)' });

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/weather-days',
    {
      schema: {
        operationId: 'askWeatherDay',
        summary: 'Ask the customers of one kind of job on a date to choose a new time (weather day)',
        description:
          'Every pending or confirmed booking of that kind on that date, not asked yet and not started, is flagged "awaiting a new time" for 7 days (its customer may then move it online inside the notice period and past the cap of moves), its history says so, and its customer is e-mailed an apology with their manage link, all in one transaction. Nothing is cancelled. Asking again for the same date and kind asks only the bookings not asked yet.',
        tags: ['staff'],
        body: Type.Object(
          { date: Type.String({ format: 'date', description: 'YYYY-MM-DD (Auckland), today to 12 months ahead' }), serviceType: Type.Optional(WeatherServiceTypeSchema) },
          { additionalProperties: false },
        ),
        response: { 201: WeatherAskResultSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const { date, serviceType = 'onsite' } = request.body;
      const { day, asked } = await askCustomersToReschedule(app.db, { date, serviceType, by: request.staff?.name ?? 'Staff' }, { now: app.now(), mail: app.mail });
      request.log.info({ weatherDayId: day.id, date, serviceType, asked: asked.length }, 'weather day: customers asked to choose a new time');
      return reply.code(201).send({ weatherDay: toWeatherDayDto(day), asked: asked.map(toWeatherBookingDto) });
    },
  );

  app.get(
    '/weather-days',
    {
      schema: {
        operationId: 'listWeatherDays',
        summary: 'The weather days of a date, with the bookings they asked and their answers',
        tags: ['staff'],
        querystring: Type.Object({ date: DateString }, { additionalProperties: false }),
        response: { 200: WeatherDaysListSchema, ...staffErrorResponses },
      },
    },
    async (request) => ({
      weatherDays: (await weatherDaysOfDate(app.db, request.query.date)).map(({ day, bookings }) => ({ weatherDay: toWeatherDayDto(day), bookings: bookings.map(toWeatherBookingDto) })),
    }),
  );
};

export default route;
