/** The Weather day panel's calls (issue 21), in its own module so they load with the panel, not with the dashboard. */
import type { WeatherAskResultDto, WeatherDaysListDto } from '#api/weather-schemas.ts';
import { call } from './staff-api.ts';

export type { WeatherAskResultDto, WeatherBookingDto, WeatherDayDto, WeatherDaysListDto } from '#api/weather-schemas.ts';

export const weatherApi = {
  list: (date: string) => call<WeatherDaysListDto>(`/v1/weather-days?${new URLSearchParams({ date })}`),
  ask: (date: string, serviceType: 'onsite' | 'dropoff') => call<WeatherAskResultDto>('/v1/weather-days', { method: 'POST', body: JSON.stringify({ date, serviceType }) }),
};
