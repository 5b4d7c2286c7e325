/**
 * The dashboard's calls about maintenance plans (issue 43), and the words it shows for them.
 * Imported only by parts loaded when first opened (the Plans view, the booking details, a
 * customer's page), so the dashboard's eager bundle does not carry them.
 */
import type { PlanDetailsDto, PlanDto, PlanListDto, PlanStartDto, PlanVisitDto } from '#api/plan-schemas.ts';
import { PLAN_INTERVALS, intervalText } from '#domain/plan-intervals.ts';
import { call, send } from './staff-api.ts';

export type { PlanDetailsDto, PlanDto, PlanStartDto, PlanVisitDto };

export { PLAN_INTERVALS };

/** 'Every 4 weeks' (2: 'Every fortnight'): intervalText, capitalised. */
export const intervalLabel = (weeks: number) => {
  const text = intervalText(weeks);
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/** 'wednesday' → 'Wednesdays'. */
export const weekdaysLabel = (weekday: string) => `${weekday.charAt(0).toUpperCase()}${weekday.slice(1)}s`;

export type PlanStatusFilter = '' | PlanDto['status'];

export const plansApi = {
  list(filter: { status?: PlanStatusFilter; customerId?: string; bookingId?: string } = {}) {
    const params = new URLSearchParams(Object.entries(filter).filter(([, value]) => value) as [string, string][]);
    return call<PlanListDto>(`/v1/plans?${params}`);
  },
  one: (id: string) => call<PlanDetailsDto>(`/v1/plans/${id}`),
  start: (bookingId: string, intervalWeeks: number) => send<PlanDetailsDto>('POST', `/v1/bookings/${bookingId}/plan`, { intervalWeeks }),
  act: (plan: PlanDetailsDto, action: 'pause' | 'resume' | 'stop') => send<PlanDetailsDto>('POST', `/v1/plans/${plan.id}/${action}`, { version: plan.version }),
  changeInterval: (plan: PlanDetailsDto, intervalWeeks: number) => send<PlanDetailsDto>('PATCH', `/v1/plans/${plan.id}`, { intervalWeeks, version: plan.version }),
  skip: (plan: PlanDetailsDto, visit: PlanVisitDto) => send<PlanDetailsDto>('POST', `/v1/plans/${plan.id}/visits/${visit.dueDate}/skip`, { version: plan.version }),
  book: (plan: PlanDetailsDto, visit: PlanVisitDto, start: PlanStartDto) =>
    send<PlanDetailsDto>('POST', `/v1/plans/${plan.id}/visits/${visit.dueDate}/book`, { ...start, version: plan.version }),
};
