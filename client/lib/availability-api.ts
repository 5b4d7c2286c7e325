/** The booking wizard's availability calls, a module of its own so only the wizard's later steps load it. */
import type { DayAvailability, DaySummary } from '#domain/availability.ts';
import type { VehicleChoice } from '#domain/job.ts';
import type { AreaAnswer } from '#domain/service-area.ts';

/** The job the times are asked for: the choices (empty ones are left out), with the postcode on site. */
export interface JobChoice {
  service: string;
  vehicleType: string;
  coatingType: string;
  serviceType: string;
  postalCode?: string;
}

/** A job of one to four vehicles with their add-ons (issue 41), as the booking wizard asks for it. */
export interface VehiclesJob {
  vehicles: readonly Pick<VehicleChoice, 'service' | 'vehicleType' | 'coatingType' | 'addOns'>[];
  serviceType: string;
  postalCode?: string;
}

/**
 * The query string naming a job, in a fixed order (also the key the wizard compares answers by).
 * A parameter empty for every vehicle is left out, so one vehicle without add-ons is asked for as
 * before issue 41; several repeat each parameter in vehicle order, empty ones keeping their place.
 */
export function jobParams(job: JobChoice | VehiclesJob): string {
  const vehicles = 'vehicles' in job ? job.vehicles : [{ ...job, addOns: [] }];
  const lists: [string, string[]][] = [
    ['service', vehicles.map((v) => v.service)],
    ['vehicleType', vehicles.map((v) => v.vehicleType)],
    ['coatingType', vehicles.map((v) => v.coatingType)],
    ['addOns', vehicles.map((v) => v.addOns.join(','))],
    ['serviceType', [job.serviceType]],
    ['postalCode', [job.postalCode ?? '']],
  ];
  return lists
    .filter(([, values]) => values.some(Boolean))
    .flatMap(([key, values]) => values.map((value) => `${key}=${encodeURIComponent(value)}`))
    .join('&');
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

/** A date's start times for the job, as they stand (GET /v1/availability). */
export function getAvailability(date: string, job: JobChoice | VehiclesJob): Promise<DayAvailability> {
  return getJson(`/v1/availability?date=${encodeURIComponent(date)}&${jobParams(job)}`);
}

/** Each date's number of starts at which the job fits, from `from` to `to` (GET /v1/availability/days, at most 62 days). */
export async function getAvailableDays(from: string, to: string, job: JobChoice | VehiclesJob): Promise<DaySummary[]> {
  return (await getJson<{ days: DaySummary[] }>(`/v1/availability/days?from=${from}&to=${to}&${jobParams(job)}`)).days;
}

/** Whether the vans come to a postcode, and its zone's travel fee (GET /v1/service-area). */
export async function getServiceArea(postalCode: string): Promise<AreaAnswer> {
  return { postalCode, ...(await getJson<Omit<AreaAnswer, 'postalCode'>>(`/v1/service-area?postalCode=${encodeURIComponent(postalCode)}`)) };
}

/** The calendar date `days` after a YYYY-MM-DD date (no time of day, so no time zone). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A date for a short list: 'Thu 26 Nov'. */
export function shortDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return `${WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()]} ${day} ${MONTHS[month - 1]}`;
}
