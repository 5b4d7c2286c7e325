/** "How often" for a regular plan (issue 43): the intervals offered, worded as the e-mails word them. Posts `intervalWeeks`. */
import type { PlanIntervalChoice } from '../page-state.ts';
import './Field.css';

export function IntervalSelect({ id, intervals, value }: { id: string; intervals: PlanIntervalChoice[]; value?: number }) {
  return (
    <div className="field interval-field">
      <label htmlFor={id}>How often</label>
      <select id={id} name="intervalWeeks" defaultValue={value ?? 4} required>
        {intervals.map((choice) => (
          <option key={choice.weeks} value={choice.weeks}>
            {choice.label.charAt(0).toUpperCase() + choice.label.slice(1)}
          </option>
        ))}
      </select>
    </div>
  );
}
