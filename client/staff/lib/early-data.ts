/**
 * A view's first request, sent when its tab is tapped: it travels while the view's code does
 * (the view is loaded on first opening), instead of after the code has come and the view has
 * rendered. The view takes the answer when it mounts; one that is older than a few seconds, or
 * was never taken, is not used, and the view asks itself.
 */
import { staffApi } from './staff-api.ts';

const FIRST_REQUESTS = {
  /** Today's schedule: the Today view's, and the day view's first day. */
  'today-schedule': () => staffApi.schedule(''),
  messages: () => staffApi.messages(),
  emails: () => staffApi.emails(),
};

export type EarlyRequest = keyof typeof FIRST_REQUESTS;
type Answer<K extends EarlyRequest> = ReturnType<(typeof FIRST_REQUESTS)[K]>;

/** Long enough for a view's code to come over a slow connection; short enough that the answer is still current. */
const FRESH_MS = 5_000;
const sent = new Map<EarlyRequest, { at: number; answer: Promise<unknown> }>();

/** Sends `request` now, for the view about to open. */
export function sendEarly(request: EarlyRequest): void {
  const answer = FIRST_REQUESTS[request]();
  // A failure is the taker's to handle (a 401 signs out); one never taken is dropped silently.
  answer.catch(() => undefined);
  sent.set(request, { at: Date.now(), answer });
}

/** The answer to `request` sent when the tab was tapped, if still fresh; else a new request. */
export function takeEarly<K extends EarlyRequest>(request: K): Answer<K> {
  const early = sent.get(request);
  sent.delete(request);
  return early && Date.now() - early.at < FRESH_MS ? (early.answer as Answer<K>) : (FIRST_REQUESTS[request]() as Answer<K>);
}
