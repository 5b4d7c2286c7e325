/** Labelled facts as a two-column list (a booking on its manage page, a receipt): one look for both. */
import type { ReactNode } from 'react';
import './FactList.css';

export function FactList({ className, children }: { className?: string; children: ReactNode }) {
  return <dl className={`fact-list ${className ?? ''}`.trim()}>{children}</dl>;
}

/** One fact; `total` sets it in bold (the amount to pay), `alert` in red (cancelled, unpaid). */
export function Fact({ label, value, total = false, alert = false }: { label: string; value: string; total?: boolean; alert?: boolean }) {
  const classes = [total ? 'fact-total' : '', alert ? 'fact-alert' : ''].filter(Boolean).join(' ');
  return (
    <div className={classes || undefined}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
