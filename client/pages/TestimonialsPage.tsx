/** /testimonials: the customer stories the home page links to. */
import { MORE_TESTIMONIALS, REVIEW_BADGES, TESTIMONIALS } from '#domain/content.ts';
import { CallToAction } from '../components/CallToAction.tsx';
import { TestimonialCard } from '../components/blocks.tsx';
import { PageHero } from '../components/PageHero.tsx';

export default function TestimonialsPage() {
  return (
    <>
      <PageHero eyebrow="Customer stories" title="What our customers say">
        <p>
          {REVIEW_BADGES.map((badge) => `${badge.value} ${badge.label}`).join(' · ')}
        </p>
      </PageHero>
      <section className="section" aria-label="Reviews">
        <div className="container">
          <ul className="card-grid three">
            {[...TESTIMONIALS, ...MORE_TESTIMONIALS].map((story) => (
              <TestimonialCard key={story.name} story={story} />
            ))}
          </ul>
        </div>
      </section>
      <CallToAction title="Join thousands of happy drivers" text="Book online in a minute and see the difference for yourself." />
    </>
  );
}
