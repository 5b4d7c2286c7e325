/** The waitlist's calls (issue 43), in their own module so they load with the Day view, not with the dashboard. */
import type { WaitlistEntryDto, WaitlistListDto, WaitlistOfferMadeDto } from '#api/waitlist-schemas.ts';
import { call, send } from './staff-api.ts';

export type { WaitlistEntryDto, WaitlistListDto, WaitlistOfferMadeDto };

export const waitlistApi = {
  list: (date: string) => call<WaitlistListDto>(`/v1/waitlist?${new URLSearchParams({ date })}`),
  offer: (entry: WaitlistEntryDto, time: string) => send<WaitlistOfferMadeDto>('POST', `/v1/waitlist/${entry.id}/offer`, { time }),
};
