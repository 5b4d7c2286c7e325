/**
 * Weather days' data shapes (issue 21): TypeBox schemas for the /v1/weather-days routes and their
 * static types for the dashboard (which imports types only).
 */
import { Type, type Static } from 'typebox';
import { BookingSchema } from './schemas.ts';

export const WeatherServiceTypeSchema = Type.Union([Type.Literal('onsite'), Type.Literal('dropoff')], { description: 'The kind of job asked: onsite (default) or dropoff' });

export const WeatherBookingSchema = Type.Object({
  booking: BookingSchema,
  answer: Type.Union([Type.Literal('awaiting'), Type.Literal('moved'), Type.Literal('cancelled')], {
    description: 'awaiting: no new time chosen yet; moved: the customer (or staff) chose a new time; cancelled: released since',
  }),
  moveUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Until when the customer may move it online whatever the notice period and the cap of moves; null once moved',
  }),
});
export type WeatherBookingDto = Static<typeof WeatherBookingSchema>;

export const WeatherDaySchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  date: Type.String({ description: 'YYYY-MM-DD, in Auckland' }),
  serviceType: WeatherServiceTypeSchema,
  askedBy: Type.String({ description: 'The staff member who first asked' }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type WeatherDayDto = Static<typeof WeatherDaySchema>;

export const WeatherAskResultSchema = Type.Object({
  weatherDay: WeatherDaySchema,
  asked: Type.Array(WeatherBookingSchema, { description: 'The bookings asked by this request (none asked twice: a repeat asks only bookings not asked yet), by start' }),
});
export type WeatherAskResultDto = Static<typeof WeatherAskResultSchema>;

export const WeatherDaysListSchema = Type.Object({
  weatherDays: Type.Array(Type.Object({ weatherDay: WeatherDaySchema, bookings: Type.Array(WeatherBookingSchema, { description: 'Every booking it asked, by start' }) })),
});
export type WeatherDaysListDto = Static<typeof WeatherDaysListSchema>;
