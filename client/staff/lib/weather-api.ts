/** The Weather day panel's calls (issue 21), in its own module so they load with the panel, not with the dashboard. */
import type { WeatherAskResultDto, WeatherDaysListDto } from '#api/weather-schemas.ts';
import { call, send } from './staff-api.ts';

export type { WeatherAskResultDto, WeatherBookingDto, WeatherDayDto, WeatherDaysListDto } from '#api/weather-schemas.ts';

export const weatherApi = {
  list: (date: string) => call<WeatherDaysListDto>(`/v1/weather-days?${new URLSearchParams({ date })}`),
  ask: (date: string, serviceType: 'onsite' | 'dropoff') => send<WeatherAskResultDto>('POST', '/v1/weather-days', { date, serviceType }),
};
