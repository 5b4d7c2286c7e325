/** /privacy-policy and /terms (spec sections 2 and 9): the text, the last update, a contact block and the ways on. */
import { telHref } from '#domain/business.ts';
import { PRIVACY_POLICY, TERMS_OF_SERVICE } from '#domain/legal.ts';
import { PageHero } from '../components/PageHero.tsx';
import type { PageProps } from '../page-props.ts';
import './LegalPage.css';

export default function LegalPage({ path, business }: PageProps) {
  const doc = path === '/terms' ? TERMS_OF_SERVICE : PRIVACY_POLICY;
  return (
    <>
      <PageHero title={doc.title}>
        <p>{doc.intro}</p>
      </PageHero>
      <section className="section">
        <div className="container narrow prose">
          {doc.sections.map((section) => (
            <section key={section.heading} aria-labelledby={slug(section.heading)}>
              <h2 id={slug(section.heading)}>{section.heading}</h2>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </section>
          ))}
          <section className="card contact-block" aria-labelledby="legal-contact">
            <h2 id="legal-contact">Contact us</h2>
            <address>
              {business.name}
              <br />
              {business.streetAddress}, {business.suburb}, {business.city} {business.postcode}
              <br />
              <a href={`mailto:${business.email}`}>{business.email}</a>
              <br />
              <a href={telHref(business.phone)}>{business.phone}</a>
            </address>
          </section>
          <p className="last-updated">{`Last updated: ${doc.lastUpdated}`}</p>
          <div className="actions">
            <a className="button button-accent" href="/booking">
              Book a Service
            </a>
            <a className="button button-ghost" href="/contact">
              Contact Us
            </a>
            <a className="text-link" href="/">
              Back to Home
            </a>
          </div>
        </div>
      </section>
    </>
  );
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
