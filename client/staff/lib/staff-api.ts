/** The dashboard's calls to the staff API. Each throws ApiError on a non-2xx answer. */
import type { Weekday } from '#domain/schedule.ts';
import type {
  BookingDto,
  ClosureDto,
  ContactMessageDto,
  DayHoursDto,
  OutboxEmailDetailDto,
  OutboxEmailDto,
  ReleaseResultDto,
  ResourceDto,
  RouteStopDto,
  ScheduleDayDto,
  ScheduleGapDto,
  ScheduleLaneDto,
  ScheduleWeekDto,
  StatusChangeDto,
  WeekHoursDto,
  WorkingHoursDto,
} from '#api/schemas.ts';

// The API's own shapes (types only: TypeBox stays out of the bundle), for the dashboard's components.
export type {
  BookingDto,
  ClosureDto,
  ContactMessageDto,
  DayHoursDto,
  OutboxEmailDetailDto,
  OutboxEmailDto,
  ResourceDto,
  RouteStopDto,
  ScheduleDayDto,
  ScheduleGapDto,
  ScheduleLaneDto,
  ScheduleWeekDto,
  StatusChangeDto,
  WeekHoursDto,
  WorkingHoursDto,
};

/** A closure as the Schedule view sends it: a whole date (from and to null), or a from-to range; both kinds, one kind or one van or bay. */
export interface ClosureRequest {
  date: string;
  from: string | null;
  to: string | null;
  kind: 'onsite' | 'dropoff' | null;
  resourceId: string | null;
  reason: string;
}

export interface ClosureListItem extends ClosureDto {
  activeBookings: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** One JSON call to the staff API (exported for the lazily loaded parts' own calls, so they stay out of the eager bundle). */
export async function call<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, headers: { accept: 'application/json', ...(init?.body ? { 'content-type': 'application/json' } : {}) } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, typeof body.message === 'string' ? body.message : `Request failed (${response.status})`, body);
  return body as T;
}

/** A JSON write to the staff API: the body sent as JSON with the method given. */
export function send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body: unknown): Promise<T> {
  return call<T>(url, { method, body: JSON.stringify(body) });
}

export interface BookingFilters {
  q: string;
  service: string;
  date: string;
  status: string;
}

/** The Status filter's two states of BOOKING_CONFIRMATION=email, sent as `confirmation`. */
export const CONFIRMATION_FILTERS = { awaiting: 'awaiting e-mail confirmation', lapsed: 'lapsed (never confirmed)' } as const;

export function filterQuery(filters: BookingFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (!value) continue;
    if (key === 'status' && value in CONFIRMATION_FILTERS) params.set('confirmation', value);
    else params.set(key, value);
  }
  return params;
}

export const staffApi = {
  bookings(filters: BookingFilters, cursor: string | null) {
    const params = filterQuery(filters);
    if (cursor) params.set('cursor', cursor);
    return call<{ data: BookingDto[]; nextCursor: string | null }>(`/v1/bookings?${params}`);
  },
  services: () => call<{ data: string[] }>('/v1/bookings/services'),
  booking: (id: string) => call<{ booking: BookingDto; history: StatusChangeDto[] }>(`/v1/bookings/${id}`),
  changeStatus: (booking: BookingDto, status: string) =>
    send<{ booking: BookingDto; history: StatusChangeDto[] }>('POST', `/v1/bookings/${booking._id}/status`, { status, version: booking.version }),
  unreadMessages: () => call<{ unread: number }>('/v1/contact-messages?unread=true&limit=1'),
  messages: () => call<{ data: ContactMessageDto[]; unread: number; nextCursor: string | null }>('/v1/contact-messages?limit=50'),
  markMessage: (id: string, read: boolean) => send<ContactMessageDto>('POST', `/v1/contact-messages/${id}/read`, { read }),
  closures: (from = '', to = '') =>
    call<{ from: string; to: string; data: ClosureListItem[] }>(`/v1/closures?${new URLSearchParams(Object.entries({ from, to }).filter(([, v]) => v))}`),
  close: (closure: ClosureRequest) =>
    send<ClosureDto & { affectedBookings: BookingDto[] }>('POST', '/v1/closures', closure),
  reopen: (id: string) => call<unknown>(`/v1/closures/${id}`, { method: 'DELETE' }),
  weeklyClosedDays: () => call<{ days: Weekday[] }>('/v1/schedule/weekly-closed-days'),
  setWeeklyClosedDays: (days: Weekday[]) =>
    send<{ days: Weekday[]; affectedBookings: BookingDto[] }>('PUT', '/v1/schedule/weekly-closed-days', { days }),
  /** One day of the schedule; without a date, today in Auckland (the answer says which). */
  schedule: (date: string) => call<ScheduleDayDto>(date ? `/v1/schedule?date=${encodeURIComponent(date)}` : '/v1/schedule'),
  scheduleWeek: (from: string) => call<ScheduleWeekDto>(`/v1/schedule/week?from=${encodeURIComponent(from)}`),
  /** "Release as spam": cancelled without e-mail to the customer, places freed; the rest come back as skipped. */
  release: (ids: string[], reason: string) => send<ReleaseResultDto>('POST', '/v1/bookings/release', { ids, reason }),
  move: (booking: BookingDto, target: { date: string; time: string; resourceId: string | null }) =>
    send<{ booking: BookingDto; history: StatusChangeDto[] }>('POST', `/v1/bookings/${booking._id}/move`, { version: booking.version, ...target }),
  resources: () => call<{ data: ResourceDto[] }>('/v1/resources'),
  addResource: (resource: { name: string; kind: string }) => send<ResourceDto>('POST', '/v1/resources', resource),
  changeResource: (id: string, changes: { name?: string; active?: boolean; position?: number }) =>
    send<ResourceDto>('PATCH', `/v1/resources/${id}`, changes),
  workingHours: () => call<WorkingHoursDto>('/v1/working-hours'),
  setWorkingHours: (kind: 'onsite' | 'dropoff', week: WeekHoursDto) =>
    send<{ hours: WeekHoursDto; outside: BookingDto[] }>('PUT', `/v1/working-hours/${kind}`, week),
  setMinGap: (minutes: number) => send<{ minutes: number }>('PUT', '/v1/min-gap', { minutes }),
  emails: (options: { bookingId?: string; cursor?: string | null } = {}) => {
    const params = new URLSearchParams({ limit: '50' });
    if (options.bookingId) params.set('bookingId', options.bookingId);
    if (options.cursor) params.set('cursor', options.cursor);
    return call<{ data: OutboxEmailDto[]; nextCursor: string | null }>(`/v1/emails?${params}`);
  },
  email: (id: string) => call<OutboxEmailDetailDto>(`/v1/emails/${id}`),
  resendEmail: (id: string) => call<OutboxEmailDto>(`/v1/emails/${id}/resend`, { method: 'POST', body: '{}' }),
  login: (password: string) => fetch('/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password }) }),
};
