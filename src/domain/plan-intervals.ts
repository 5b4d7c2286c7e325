/**
 * A maintenance plan's intervals and their words (issue 43), without imports, so that the
 * dashboard's bundle takes them from here rather than keeping a copy (src/domain/plans.ts, which
 * re-exports them, brings date-fns).
 */

/** The intervals a plan may have, in weeks (the database's CHECK holds the same list). */
export const PLAN_INTERVALS = [2, 3, 4, 6, 8, 12] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];

export const isPlanInterval = (weeks: unknown): weeks is PlanInterval => (PLAN_INTERVALS as readonly unknown[]).includes(weeks);

/** 'every 4 weeks' (every 2 weeks: 'every fortnight'). */
export function intervalText(weeks: number): string {
  return weeks === 2 ? 'every fortnight' : `every ${weeks} weeks`;
}
