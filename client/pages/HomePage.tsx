/** Home (spec section 2): hero, why choose us, services, how it works, customer stories, offer. */
import { telHref } from '../../src/domain/business.ts';
import {
  FEATURES,
  HERO,
  OFFER,
  PROCESS_STEPS,
  REVIEW_BADGES,
  SERVICE_TEASERS,
  STATS,
  TESTIMONIALS,
} from '../../src/domain/content.ts';
import { Icon } from '../components/Icon.tsx';
import type { PageProps } from '../page-props.ts';

export function HomePage({ business }: PageProps) {
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero-grid">
          <div className="hero-copy">
            <p className="eyebrow">{HERO.eyebrow}</p>
            <h1 id="hero-title">{HERO.title}</h1>
            <p className="lead">{HERO.lead}</p>
            <div className="actions">
              <a className="button button-accent button-large" href="/booking">
                Book Now
              </a>
              <a className="button button-ghost button-large" href="/services">
                Our Services
              </a>
            </div>
          </div>
          <aside className="price-card" aria-label="Prices">
            <p className="price-card-label">{HERO.startingFrom}</p>
            <p className="price-card-text">Fixed prices by vehicle size, at your place or ours.</p>
            <a className="button button-primary" href="/pricing">
              View Pricing
            </a>
          </aside>
        </div>
      </section>

      <section className="section" aria-labelledby="why-title">
        <div className="container">
          <h2 id="why-title" className="section-title">
            Why Choose Us
          </h2>
          <ul className="card-grid three">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="card feature">
                <span className="feature-icon">
                  <Icon name={feature.icon} />
                </span>
                <h3>{feature.title}</h3>
                <p>{feature.description}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="stats-band" aria-label="Our record">
        <dl className="container stats">
          {STATS.map((stat) => (
            <div key={stat.label} className="stat">
              <dt>{stat.label}</dt>
              <dd>{stat.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="section section-tint" aria-labelledby="services-title">
        <div className="container">
          <h2 id="services-title" className="section-title">
            Our Services
          </h2>
          <ul className="card-grid three">
            {SERVICE_TEASERS.map((teaser) => (
              <li key={teaser.id} className="card teaser">
                <span className="feature-icon">
                  <Icon name={teaser.icon} />
                </span>
                <h3>{teaser.title}</h3>
                <p>{teaser.description}</p>
                <a className="text-link" href={`/services/${teaser.id}`}>
                  Learn more<span className="visually-hidden"> about {teaser.title.toLowerCase()} valeting</span>
                  <Icon name="arrow" size={18} />
                </a>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section" aria-labelledby="how-title">
        <div className="container">
          <h2 id="how-title" className="section-title">
            How It Works
          </h2>
          <ol className="steps">
            {PROCESS_STEPS.map((step, index) => (
              <li key={step.title} className="step">
                <span className="step-number" aria-hidden="true">
                  {index + 1}
                </span>
                <h3>{step.title}</h3>
                <p>{step.description}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section section-tint" aria-labelledby="stories-title">
        <div className="container">
          <h2 id="stories-title" className="section-title">
            Customer Stories
          </h2>
          <ul className="card-grid three">
            {TESTIMONIALS.map((story) => (
              <li key={story.name} className="card testimonial">
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
            ))}
          </ul>
          <div className="review-row">
            <ul className="review-badges">
              {REVIEW_BADGES.map((badge) => (
                <li key={badge.label}>
                  <strong>{badge.value}</strong> {badge.label}
                </li>
              ))}
            </ul>
            <a className="text-link" href="/testimonials">
              Read more reviews <Icon name="arrow" size={18} />
            </a>
          </div>
        </div>
      </section>

      <section className="offer" aria-labelledby="offer-title">
        <div className="container offer-inner">
          <h2 id="offer-title">{OFFER.title}</h2>
          <p>{OFFER.text}</p>
          <div className="actions">
            <a className="button button-accent button-large" href="/booking">
              Book Your Cleaning
            </a>
            <a className="button button-ghost-light button-large" href={telHref(business.phone)}>
              <Icon name="phone" size={20} /> Call Us Now
            </a>
          </div>
        </div>
      </section>
    </>
  );
}
