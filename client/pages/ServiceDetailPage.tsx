/**
 * /services/{id}: one page per package (from the catalogue) and per service the original linked
 * to without building (the home-page teasers, headlight restoration, engine bay cleaning).
 */
import { PACKAGES, PRICING_VEHICLE_LABELS, COATING_PRICING_LABELS, COATING_TYPES, lowestPrice } from '#domain/catalogue.ts';
import { findServiceDetail } from '#domain/content.ts';
import { CallToAction } from '../components/CallToAction.tsx';
import { CheckList } from '../components/CheckList.tsx';
import { PageHero } from '../components/PageHero.tsx';
import { PriceGrid } from '../components/PriceGrid.tsx';
import type { PageProps } from '../page-props.ts';
import './ServiceDetailPage.css';

function Breadcrumbs({ current }: { current: string }) {
  return (
    <nav className="container breadcrumbs" aria-label="Breadcrumb">
      <ol>
        <li>
          <a href="/">Home</a>
        </li>
        <li>
          <a href="/services">Services</a>
        </li>
        <li aria-current="page">{current}</li>
      </ol>
    </nav>
  );
}

export default function ServiceDetailPage({ path }: PageProps) {
  const id = path.slice('/services/'.length);
  const pkg = PACKAGES.find((p) => p.id === id);
  if (pkg) {
    return (
      <>
        <Breadcrumbs current={pkg.name} />
        <PageHero eyebrow={pkg.tagline} title={pkg.name}>
          <p>{pkg.description}</p>
        </PageHero>
        <section className="section" aria-labelledby="includes-title">
          <div className="container detail-grid">
            <div>
              <h2 id="includes-title">What's included</h2>
              <CheckList items={pkg.features} />
            </div>
            <div className="card">
              <h2>Prices</h2>
              {pkg.coatingPrices ? (
                COATING_TYPES.map((coating) => (
                  <div key={coating}>
                    <h3>{COATING_PRICING_LABELS[coating]}</h3>
                    <PriceGrid prices={pkg.coatingPrices![coating]} labels={{ sm: 'Hatchback', mid: 'Sedan', suv: 'SUV' }} caption={COATING_PRICING_LABELS[coating]} />
                  </div>
                ))
              ) : (
                <PriceGrid prices={pkg.prices} labels={PRICING_VEHICLE_LABELS} caption={`${pkg.name} prices`} />
              )}
              <a className="button button-accent" href={`/booking?package=${pkg.id}`}>
                Book {pkg.name} from ${lowestPrice(pkg)}
              </a>
            </div>
          </div>
        </section>
        <CallToAction title="Not sure which package?" text="Compare every package side by side, or ask us for advice." primary={{ href: '/pricing', label: 'Compare packages' }} secondary={{ href: '/contact', label: 'Contact us' }} />
      </>
    );
  }
  const detail = findServiceDetail(id)!;
  return (
    <>
      <Breadcrumbs current={detail.title} />
      <PageHero eyebrow="Our services" title={detail.title}>
        <p>{detail.summary}</p>
      </PageHero>
      <section className="section" aria-labelledby="detail-title">
        <div className="container detail-grid">
          <div className="prose">
            <h2 id="detail-title">How it works</h2>
            {detail.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
          <div className="card">
            <h2>At a glance</h2>
            <CheckList items={detail.points} />
          </div>
        </div>
      </section>
      <CallToAction
        title="Book your service today"
        text="Pick a package and a time that suits you, or ask us for a quote."
        primary={{ href: detail.addOn ? `/booking?addOn=${detail.addOn}` : '/booking', label: 'Book Now' }}
        secondary={{ href: '/contact', label: 'Ask for a quote' }}
      />
    </>
  );
}
