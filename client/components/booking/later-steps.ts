/**
 * Steps 2 and 3 of the wizard, a chunk of their own: the booking page hydrates with step 1 alone
 * and fetches this right after (see later-steps-loader.ts), which keeps the page within its
 * JavaScript budget. The server links the steps' stylesheets with the page
 * (src/render/assets.ts), since it may render them. The waitlist's parts (issue 43) come with them.
 */

export { DetailsStep } from './DetailsStep.tsx';
export { ScheduleStep, scheduleErrors } from './ScheduleStep.tsx';
export { bookingSender } from './send-booking.ts';
export { WaitlistJoined } from './Waitlist.tsx';
export { WAITLIST_WIZARD_MESSAGES } from '#domain/waitlist-words.ts';
