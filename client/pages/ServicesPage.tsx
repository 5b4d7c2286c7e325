/**
 * Services (spec section 2): the four category cards, the packages and the specialist services.
 * Sections carry the ids the original linked to (#categories-details, #full-detail, each
 * category), and the browser scrolls to the one named in the URL hash on its own, as the page is
 * rendered on the server.
 */
import { PACKAGES, lowestPrice } from '#domain/catalogue.ts';
import { SERVICE_CATEGORIES, SERVICE_DETAILS } from '#domain/content.ts';
import { CallToAction } from '../components/CallToAction.tsx';
import { Section } from '../components/blocks.tsx';
import { CheckList } from '../components/CheckList.tsx';
import { Icon } from '../components/Icon.tsx';
import { PageHero } from '../components/PageHero.tsx';
import './ServicesPage.css';

const SPECIALIST = SERVICE_DETAILS.filter((detail) => detail.id === 'headlight' || detail.id === 'engine-bay');

export default function ServicesPage() {
  return (
    <>
      <PageHero eyebrow="Our services" title="Car valeting and detailing, done properly">
        <p>From a quick wash to ceramic coating, at your home, your workplace or our Mount Wellington service centre.</p>
      </PageHero>

      <Section id="categories-details" title="What We Do">
        <ul className="card-grid two">
          {SERVICE_CATEGORIES.map((category) => (
            <li key={category.id} id={category.id} className="card category">
              <h3>{category.title}</h3>
              <p>{category.description}</p>
              <CheckList items={category.items} />
            </li>
          ))}
        </ul>
      </Section>

      <Section id="full-detail" title="Full Detail Packages" tint>
        <ul className="card-grid three">
          {PACKAGES.map((pkg) => (
            <li key={pkg.id} className="card package-teaser">
              <p className="eyebrow">{pkg.tagline}</p>
              <h3>{pkg.name}</h3>
              <p>{pkg.description}</p>
              <p className="from-price">
                From <strong>${lowestPrice(pkg)}</strong>
              </p>
              <a className="text-link" href={`/services/${pkg.id}`}>
                Details<span className="visually-hidden"> of {pkg.name}</span> <Icon name="arrow" size={18} />
              </a>
            </li>
          ))}
        </ul>
        <p className="center">
          <a className="button button-primary" href="/pricing">
            Compare all prices
          </a>
        </p>
      </Section>

      <Section id="specialist" title="Specialist Services">
        <ul className="card-grid two">
          {SPECIALIST.map((detail) => (
            <li key={detail.id} className="card">
              <h3>{detail.title}</h3>
              <p>{detail.summary}</p>
              <a className="text-link" href={`/services/${detail.id}`}>
                Learn more<span className="visually-hidden"> about {detail.title.toLowerCase()}</span> <Icon name="arrow" size={18} />
              </a>
            </li>
          ))}
        </ul>
      </Section>

      <CallToAction title="Book your service today" text="Choose a package, pick a time and we will take care of the rest." />
    </>
  );
}
