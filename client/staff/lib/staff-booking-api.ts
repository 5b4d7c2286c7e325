/**
 * The calls of the staff booking form and the edit dialog (issue 21). A module of its own, loaded
 * only with those lazily loaded components, so the dashboard's eager bundle does not grow.
 */
import type { DayAvailability } from '#domain/availability.ts';
import type { VehicleChoice } from '#domain/job.ts';
import type { JobQuote } from '#domain/pricing.ts';
import type { BookingChangeDto, BookingDto, ResourceDto, StatusChangeDto } from '#api/schemas.ts';
import { ApiError, call, send } from './staff-api.ts';

export type { BookingChangeDto };

export interface EditAnswer {
  booking: BookingDto;
  history: StatusChangeDto[];
  changes: BookingChangeDto[];
  quote: JobQuote;
  customerNotified: boolean;
  dryRun: boolean;
}

export const staffBookingApi = {
  resources: () => call<{ data: ResourceDto[] }>('/v1/resources').then((answer) => answer.data),
  /** Start times as staff may book them (today from the next whole hour); a booking being edited does not stand in its own way. */
  availability: (date: string, jobParams: string, bookingId?: string) =>
    call<DayAvailability>(`/v1/availability/staff?date=${encodeURIComponent(date)}&${jobParams}${bookingId ? `&bookingId=${encodeURIComponent(bookingId)}` : ''}`),
  /** The job's quote, line by line with its minutes (issue 41). */
  quote: (choice: { vehicles: VehicleChoice[]; email: string }) => send<JobQuote>('POST', '/v1/quote', choice),
  /** A staff booking; the key makes a double tap or a retry one booking. */
  create: async (body: Record<string, unknown>, key: string) => {
    const response = await fetch('/v1/bookings', { method: 'POST', body: JSON.stringify(body), headers: { accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': key } });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new ApiError(response.status, typeof answer.message === 'string' ? answer.message : `Request failed (${response.status})`, answer);
    return answer as { message: string; booking: BookingDto; quote: JobQuote };
  },
  details: (id: string) => call<{ booking: BookingDto; history: StatusChangeDto[] }>(`/v1/bookings/${encodeURIComponent(id)}`),
  edit: (id: string, body: Record<string, unknown>) => send<EditAnswer>('PATCH', `/v1/bookings/${encodeURIComponent(id)}`, body),
};
