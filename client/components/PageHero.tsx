/** The title band at the top of every inner page. */
import type { ReactNode } from 'react';
import './PageHero.css';

export function PageHero({ eyebrow, title, children }: { eyebrow?: string; title: string; children?: ReactNode }) {
  return (
    <section className="page-hero" aria-labelledby="page-title">
      <div className="container narrow">
        {eyebrow && <p className="eyebrow">{eyebrow}</p>}
        <h1 id="page-title">{title}</h1>
        {children && <div className="lead">{children}</div>}
      </div>
    </section>
  );
}
