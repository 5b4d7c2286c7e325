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
  ScheduleDayDto,
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
  ScheduleDayDto,
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
    call<{ booking: BookingDto; history: StatusChangeDto[] }>(`/v1/bookings/${booking._id}/status`, {
      method: 'POST',
      body: JSON.stringify({ status, version: booking.version }),
    }),
  unreadMessages: () => call<{ unread: number }>('/v1/contact-messages?unread=true&limit=1'),
  messages: () => call<{ data: ContactMessageDto[]; unread: number; nextCursor: string | null }>('/v1/contact-messages?limit=50'),
  markMessage: (id: string, read: boolean) => call<ContactMessageDto>(`/v1/contact-messages/${id}/read`, { method: 'POST', body: JSON.stringify({ read }) }),
  closures: (from = '', to = '') =>
    call<{ from: string; to: string; data: ClosureListItem[] }>(`/v1/closures?${new URLSearchParams(Object.entries({ from, to }).filter(([, v]) => v))}`),
  close: (closure: ClosureRequest) =>
    call<ClosureDto & { affectedBookings: BookingDto[] }>('/v1/closures', { method: 'POST', body: JSON.stringify(closure) }),
  reopen: (id: string) => call<unknown>(`/v1/closures/${id}`, { method: 'DELETE' }),
  weeklyClosedDays: () => call<{ days: Weekday[] }>('/v1/schedule/weekly-closed-days'),
  setWeeklyClosedDays: (days: Weekday[]) =>
    call<{ days: Weekday[]; affectedBookings: BookingDto[] }>('/v1/schedule/weekly-closed-days', { method: 'PUT', body: JSON.stringify({ days }) }),
  /** One day of the schedule; without a date, today in Auckland (the answer says which). */
  schedule: (date: string) => call<ScheduleDayDto>(date ? `/v1/schedule?date=${encodeURIComponent(date)}` : '/v1/schedule'),
  scheduleWeek: (from: string) => call<ScheduleWeekDto>(`/v1/schedule/week?from=${encodeURIComponent(from)}`),
  /** "Release as spam": cancelled without e-mail to the customer, places freed; the rest come back as skipped. */
  release: (ids: string[], reason: string) => call<ReleaseResultDto>('/v1/bookings/release', { method: 'POST', body: JSON.stringify({ ids, reason }) }),
  move: (booking: BookingDto, target: { date: string; time: string; resourceId: string | null }) =>
    call<{ booking: BookingDto; history: StatusChangeDto[] }>(`/v1/bookings/${booking._id}/move`, {
      method: 'POST',
      body: JSON.stringify({ version: booking.version, ...target }),
    }),
  resources: () => call<{ data: ResourceDto[] }>('/v1/resources'),
  addResource: (resource: { name: string; kind: string }) => call<ResourceDto>('/v1/resources', { method: 'POST', body: JSON.stringify(resource) }),
  changeResource: (id: string, changes: { name?: string; active?: boolean; position?: number }) =>
    call<ResourceDto>(`/v1/resources/${id}`, { method: 'PATCH', body: JSON.stringify(changes) }),
  workingHours: () => call<WorkingHoursDto>('/v1/working-hours'),
  setWorkingHours: (kind: 'onsite' | 'dropoff', week: WeekHoursDto) =>
    call<{ hours: WeekHoursDto; outside: BookingDto[] }>(`/v1/working-hours/${kind}`, { method: 'PUT', body: JSON.stringify(week) }),
  setTravelBuffer: (minutes: number) => call<{ minutes: number }>('/v1/travel-buffer', { method: 'PUT', body: JSON.stringify({ minutes }) }),
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
