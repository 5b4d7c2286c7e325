/** Home (spec section 2): hero, why choose us, services, how it works, customer stories, offer. */
import { telHref } from '#domain/business.ts';
import {
  FEATURES,
  HERO,
  OFFER,
  PROCESS_STEPS,
  REVIEW_BADGES,
  SERVICE_TEASERS,
  STATS,
  TESTIMONIALS,
} from '#domain/content.ts';
import { CallToAction } from '../components/CallToAction.tsx';
import { FeatureCard, Section, StatsBand, TestimonialCard } from '../components/blocks.tsx';
import { Icon } from '../components/Icon.tsx';
import type { PageProps } from '../page-props.ts';
import type { HomeState } from '../page-state.ts';
import './HomePage.css';

export default function HomePage({ business, state }: PageProps<HomeState>) {
  return (
    <>
      {state?.notice && (
        <div className="container">
          <p className="notice notice-success" role="status">
            <Icon name="check" /> {state.notice}
          </p>
        </div>
      )}
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

      <Section id="why" title="Why Choose Us">
        <ul className="card-grid three">
          {FEATURES.map((feature) => (
            <FeatureCard key={feature.title} icon={feature.icon} title={feature.title}>
              <p>{feature.description}</p>
            </FeatureCard>
          ))}
        </ul>
      </Section>

      <StatsBand stats={STATS} />

      <Section id="our-services" title="Our Services" tint>
        <ul className="card-grid three">
          {SERVICE_TEASERS.map((teaser) => (
            <FeatureCard key={teaser.id} icon={teaser.icon} title={teaser.title}>
              <p>{teaser.description}</p>
              <a className="text-link" href={`/services/${teaser.id}`}>
                Learn more<span className="visually-hidden"> about {teaser.title.toLowerCase()} valeting</span>
                <Icon name="arrow" size={18} />
              </a>
            </FeatureCard>
          ))}
        </ul>
      </Section>

      <Section id="how-it-works" title="How It Works">
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
      </Section>

      <Section id="stories" title="Customer Stories" tint>
        <ul className="card-grid three">
          {TESTIMONIALS.map((story) => (
            <TestimonialCard key={story.name} story={story} />
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
      </Section>

      <CallToAction
        title={OFFER.title}
        text={OFFER.text}
        primary={{ href: '/booking', label: 'Book Your Cleaning' }}
        secondary={{ href: telHref(business.phone), label: <><Icon name="phone" size={20} /> Call Us Now</> }}
      />
    </>
  );
}
