/**
 * Pricing (spec section 2): the vehicle type selector, the package cards with the headline price
 * for the chosen size, the FAQ and a call to action.
 *
 * The selector is a plain radio group and the headline price follows it through CSS (`:has`), so
 * it works the same before hydration and with JavaScript off. The FAQ is an exclusive <details>
 * group (`name`): one item open at a time, opening another closes it, clicking the open one
 * closes it, all without script.
 */
import {
  COATING_PRICING_LABELS,
  COATING_TYPES,
  DEFAULT_VEHICLE_TYPE,
  PACKAGES,
  PRICING_VEHICLE_LABELS,
  VEHICLE_TYPES,
  durationText,
  type ServicePackage,
} from '#domain/catalogue.ts';
import { FAQ } from '#domain/faq.ts';
import { CallToAction } from '../components/CallToAction.tsx';
import { Section } from '../components/blocks.tsx';
import { CheckList } from '../components/CheckList.tsx';
import { Icon, type IconName } from '../components/Icon.tsx';
import { PageHero } from '../components/PageHero.tsx';
import { PriceGrid } from '../components/PriceGrid.tsx';
import './PricingPage.css';

function iconFor(pkg: ServicePackage): IconName {
  if (pkg.coatingPrices) return 'shield';
  if (pkg.name.includes('Ultimate')) return 'star';
  if (pkg.name.includes('Deluxe')) return 'sparkle';
  return 'car';
}

/** The price and how long the job takes for each vehicle size; CSS shows those of the size chosen above. */
function HeadlinePrice({ pkg }: { pkg: ServicePackage }) {
  return (
    <div className="headline-price">
      {VEHICLE_TYPES.map((size) =>
        pkg.coatingPrices && pkg.coatingDurations ? (
          <p key={size} className={`price price-${size}`}>
            <span className="amount">${pkg.coatingPrices.coat1[size]}</span> <span className="unit">{COATING_PRICING_LABELS.coat1}</span>
            <span className="secondary-price">
              ${pkg.coatingPrices.coat2[size]} {COATING_PRICING_LABELS.coat2}
            </span>
            <span className="duration">
              <Icon name="clock" size={16} /> {`Takes ${durationText(pkg.coatingDurations.coat1[size])} (1 year), ${durationText(pkg.coatingDurations.coat2[size])} (3 years)`}
            </span>
          </p>
        ) : (
          <p key={size} className={`price price-${size}`}>
            <span className="amount">${pkg.prices[size]}</span> <span className="unit">per service</span>
            <span className="duration">
              <Icon name="clock" size={16} /> {`Takes ${durationText(pkg.durations[size])}`}
            </span>
          </p>
        ),
      )}
    </div>
  );
}

function PackageCard({ pkg }: { pkg: ServicePackage }) {
  const titleId = `package-${pkg.id}`;
  return (
    <li className={pkg.isPopular ? 'card package-card popular' : 'card package-card'} aria-labelledby={titleId}>
      {pkg.isPopular && <p className="badge">Most Popular</p>}
      <span className="feature-icon">
        <Icon name={iconFor(pkg)} />
      </span>
      <h3 id={titleId}>{pkg.name}</h3>
      <p className="tagline">{pkg.tagline}</p>
      <p>{pkg.description}</p>
      <HeadlinePrice pkg={pkg} />
      {pkg.coatingPrices ? (
        COATING_TYPES.map((coating) => (
          <PriceGrid key={coating} prices={pkg.coatingPrices![coating]} labels={PRICING_VEHICLE_LABELS} caption={`${pkg.name}, ${COATING_PRICING_LABELS[coating]}`} />
        ))
      ) : (
        <PriceGrid prices={pkg.prices} labels={PRICING_VEHICLE_LABELS} caption={`${pkg.name} prices by vehicle`} />
      )}
      <CheckList items={pkg.features} />
      <a className={pkg.isPopular ? 'button button-accent' : 'button button-primary'} href={`/booking?package=${pkg.id}`}>
        Book Now<span className="visually-hidden">: {pkg.name}</span>
      </a>
    </li>
  );
}

export default function PricingPage() {
  return (
    <div className="pricing">
      <PageHero eyebrow="Pricing" title="Simple, fixed prices">
        <p>Choose your vehicle size to see what each package costs. No hidden extras.</p>
      </PageHero>

      <section className="section" aria-labelledby="packages-title">
        <div className="container">
          <h2 id="packages-title" className="visually-hidden">
            Packages
          </h2>
          <fieldset className="vehicle-selector">
            <legend>Vehicle type</legend>
            <div className="segmented">
              {VEHICLE_TYPES.map((size) => (
                <span key={size}>
                  <input type="radio" id={`vehicle-${size}`} name="vehicle" value={size} defaultChecked={size === DEFAULT_VEHICLE_TYPE} />
                  <label htmlFor={`vehicle-${size}`}>{PRICING_VEHICLE_LABELS[size]}</label>
                </span>
              ))}
            </div>
          </fieldset>
          <ul className="card-grid three packages">
            {PACKAGES.map((pkg) => (
              <PackageCard key={pkg.id} pkg={pkg} />
            ))}
          </ul>
        </div>
      </section>

      <Section id="faq" title="Frequently Asked Questions" tint narrow>
        <div className="faq">
          {FAQ.map((item) => (
            <details key={item.question} name="faq" className="faq-item">
              <summary>
                {item.question}
                <Icon name="chevron" size={20} />
              </summary>
              <p>{item.answer}</p>
            </details>
          ))}
        </div>
      </Section>

      <CallToAction
        title="Ready to book?"
        text="Pick your package and a time that suits you. We come to you or you drop off."
        primary={{ href: '/booking', label: 'Book an Appointment' }}
        secondary={{ href: '/contact', label: 'Contact Us' }}
      />
    </div>
  );
}
