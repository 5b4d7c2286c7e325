/**
 * The words of a maintenance plan's own e-mails (issue 43), composed at send time from the
 * snapshot their transaction queued (see src/mail/plan-mail.ts): the plan stopped or its interval
 * changed (one e-mail listing the visits cancelled, not one each), and a visit that found no time
 * near its date (the nearest free times, each chosen with one press on the plan's page).
 */
import type { Booking, PlanMailFacts } from '../db/database.ts';
import { appointmentText } from '../domain/booking-dates.ts';
import { intervalText } from '../domain/plans.ts';
import type { MailContext } from './mail-context.ts';
import type { MessageContent } from './message.ts';
import { contactClosing } from './templates.ts';

export type PlanMessageKind = 'plan-stopped' | 'plan-changed' | 'plan-needs-time';

export const PLAN_MESSAGE_KINDS: readonly PlanMessageKind[] = ['plan-stopped', 'plan-changed', 'plan-needs-time'];

export const isPlanMessageKind = (kind: string): kind is PlanMessageKind => (PLAN_MESSAGE_KINDS as readonly string[]).includes(kind);

/** The button to the plan's page. */
export const PLAN_PAGE_ACTION = 'Your regular plan';
export const CHOOSE_TIME_ACTION = 'Choose a time';

export function planSubject(kind: PlanMessageKind, facts: PlanMailFacts, context: Pick<MailContext, 'business'>): string {
  switch (kind) {
    case 'plan-stopped':
      return `Your regular plan is stopped – ${context.business.name}`;
    case 'plan-changed':
      return `Your regular plan now repeats ${intervalText(facts.intervalWeeks)} – ${context.business.name}`;
    case 'plan-needs-time':
      return `Please choose a time for your next valet – ${context.business.name}`;
  }
}

const cancelledSection = (facts: PlanMailFacts) => ({
  title: 'Visits cancelled',
  rows: (facts.cancelled ?? []).map((v): [string, string] => [v.reference, appointmentText(v.date, v.time)]),
});

export function planMessageContent(kind: PlanMessageKind, booking: Booking, facts: PlanMailFacts, context: MailContext, link: string | undefined): MessageContent {
  const hello = `Hi ${booking.name},`;
  const cancelled = facts.cancelled ?? [];
  const closing = contactClosing(context);
  switch (kind) {
    case 'plan-stopped':
      return {
        heading: 'Your regular plan is stopped',
        paragraphs: [
          hello,
          cancelled.length > 0
            ? `As asked, your plan's valet ${intervalText(facts.intervalWeeks)} is stopped, and its ${cancelled.length === 1 ? 'upcoming visit is' : `${cancelled.length} upcoming visits are`} cancelled.`
            : `As asked, your plan's valet ${intervalText(facts.intervalWeeks)} is stopped. No visits were booked ahead.`,
          'Any calendar entries for these visits can be deleted.',
        ],
        sections: cancelled.length > 0 ? [cancelledSection(facts)] : [],
        closing,
      };
    case 'plan-changed':
      return {
        heading: `Your regular plan now repeats ${intervalText(facts.intervalWeeks)}`,
        paragraphs: [
          hello,
          `Your next visit stays as it is; the visits after it now follow ${intervalText(facts.intervalWeeks)}, each confirmed in its own e-mail.`,
          ...(cancelled.length > 0 ? ['The visits booked at the old interval are cancelled; their calendar entries can be deleted.'] : []),
        ],
        sections: cancelled.length > 0 ? [cancelledSection(facts)] : [],
        ...(link ? { action: { label: PLAN_PAGE_ACTION, href: link, note: 'Skip a visit, pause, change or stop the plan there.' } } : {}),
        closing,
      };
    case 'plan-needs-time': {
      const due = facts.due;
      const offered = facts.offered ?? [];
      return {
        heading: 'Please choose a time for your next valet',
        paragraphs: [
          hello,
          due
            ? `Your regular plan's next visit was due on ${appointmentText(due.date, due.time)}, but every van or bay is taken then and on the days around it.`
            : "Your regular plan's next visit could not be booked near its date.",
          offered.length > 0
            ? `The nearest free ${offered.length === 1 ? 'time is' : 'times are'} below. Open "${CHOOSE_TIME_ACTION}" and press the one that suits you, or call us.`
            : 'There is no free time near it. Please call us and we will find one together.',
        ],
        sections: offered.length > 0 ? [{ title: 'Free times', rows: offered.map((s, i): [string, string] => [`Choice ${i + 1}`, appointmentText(s.date, s.time)]) }] : [],
        ...(link ? { action: { label: CHOOSE_TIME_ACTION, href: link, note: 'A time is yours once you press it, if nobody has taken it meanwhile.' } } : {}),
        closing,
      };
    }
  }
}
