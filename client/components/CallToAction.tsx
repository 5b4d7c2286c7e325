/** The closing "book now" band of the inner pages. */
import type { ReactNode } from 'react';
import './CallToAction.css';

export interface CallToActionProps {
  title: string;
  text: string;
  primary?: { href: string; label: string };
  secondary?: { href: string; label: ReactNode };
}

export function CallToAction({
  title,
  text,
  primary = { href: '/booking', label: 'Book Now' },
  secondary,
}: CallToActionProps) {
  return (
    <section className="offer" aria-labelledby="cta-title">
      <div className="container offer-inner">
        <h2 id="cta-title">{title}</h2>
        <p>{text}</p>
        <div className="actions">
          <a className="button button-accent button-large" href={primary.href}>
            {primary.label}
          </a>
          {secondary && (
            <a className="button button-ghost-light button-large" href={secondary.href}>
              {secondary.label}
            </a>
          )}
        </div>
      </div>
    </section>
  );
}
