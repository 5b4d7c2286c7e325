/** Building blocks the pages share: a titled section, cards, lists and the stats band. */
import type { ReactNode } from 'react';
import type { Stat, Testimonial } from '#domain/content.ts';
import { Icon, type IconName } from './Icon.tsx';
import './blocks.css';

export function Section({ id, title, tint, narrow, children }: { id: string; title: string; tint?: boolean; narrow?: boolean; children: ReactNode }) {
  return (
    <section id={id} className={tint ? 'section section-tint' : 'section'} aria-labelledby={`${id}-title`}>
      <div className={narrow ? 'container narrow' : 'container'}>
        <h2 id={`${id}-title`} className="section-title">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

export function FeatureCard({ icon, title, children, heading: Heading = 'h3' }: { icon: IconName; title: string; children: ReactNode; heading?: 'h2' | 'h3' }) {
  return (
    <li className="card feature">
      <span className="feature-icon">
        <Icon name={icon} />
      </span>
      <Heading>{title}</Heading>
      {children}
    </li>
  );
}

export function StatsBand({ stats }: { stats: readonly Stat[] }) {
  return (
    <section className="stats-band" aria-label="Our record">
      <dl className="container stats">
        {stats.map((stat) => (
          <div key={stat.label} className="stat">
            <dt>{stat.label}</dt>
            <dd>{stat.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function TestimonialCard({ story }: { story: Testimonial }) {
  return (
    <li className="card testimonial">
      <figure>
        <span className="stars" role="img" aria-label="Five stars">
          {Array.from({ length: 5 }, (_, i) => (
            <Icon key={i} name="star" size={16} />
          ))}
        </span>
        <blockquote>
          <p>{story.text}</p>
        </blockquote>
        <figcaption>
          <strong>{story.name}</strong>, {story.location}
        </figcaption>
      </figure>
    </li>
  );
}

