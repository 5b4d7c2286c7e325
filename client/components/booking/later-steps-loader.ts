/**
 * Access to the lazily loaded steps 2 and 3. The browser loads them with loadLaterSteps(); the
 * server, which renders any step synchronously, provides them at start (client/pages/index.ts).
 */
import type { DetailsStep } from './DetailsStep.tsx';
import type { ScheduleStep, scheduleErrors } from './ScheduleStep.tsx';
import type { bookingSender } from './send-booking.ts';
import type { WaitlistJoined } from './Waitlist.tsx';
import type { WAITLIST_WIZARD_MESSAGES } from '#domain/waitlist-words.ts';

export interface LaterStepsModule {
  ScheduleStep: typeof ScheduleStep;
  scheduleErrors: typeof scheduleErrors;
  DetailsStep: typeof DetailsStep;
  bookingSender: typeof bookingSender;
  WaitlistJoined: typeof WaitlistJoined;
  WAITLIST_WIZARD_MESSAGES: typeof WAITLIST_WIZARD_MESSAGES;
}

let loaded: LaterStepsModule | undefined;

/** The steps, once loaded (always on the server). */
export function laterSteps(): LaterStepsModule | undefined {
  return loaded;
}

export function provideLaterSteps(module: LaterStepsModule): void {
  loaded = module;
}

export async function loadLaterSteps(): Promise<LaterStepsModule> {
  return (loaded ??= await import('./later-steps.ts'));
}
