/** The three progress indicators and 'Step N of 3'. */
import type { WizardStep } from '../../page-state.ts';
import { Icon } from '../Icon.tsx';
import './WizardProgress.css';

export const STEP_TITLES = ['Select Service', 'Choose Date & Time', 'Your Details'] as const;

export function WizardProgress({ step }: { step: WizardStep }) {
  return (
    <div className="wizard-progress">
      <ol>
        {STEP_TITLES.map((title, index) => {
          const number = index + 1;
          const state = number < step ? 'done' : number === step ? 'current' : 'todo';
          return (
            <li key={title} className={`progress-${state}`} aria-current={state === 'current' ? 'step' : undefined}>
              <span className="progress-dot" aria-hidden="true">
                {state === 'done' ? <Icon name="check" size={16} /> : number}
              </span>
              <span className="progress-title">
                {title}
                {state === 'done' && <span className="visually-hidden"> (done)</span>}
              </span>
            </li>
          );
        })}
      </ol>
      <p className="step-count">Step {step} of 3</p>
    </div>
  );
}
