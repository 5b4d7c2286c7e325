/**
 * JSON-LD for search engines: the business (an AutoWash, a kind of LocalBusiness) with its address,
 * hours and price range, and its services with offers taken from the catalogue, so the prices
 * search engines show are the prices booked.
 */
import type { BusinessInfo } from '../domain/business.ts';
import { PACKAGES, type ServicePackage } from '../domain/catalogue.ts';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];

function allPrices(pkg: ServicePackage): number[] {
  return pkg.coatingPrices ? Object.values(pkg.coatingPrices).flatMap((prices) => Object.values(prices)) : Object.values(pkg.prices);
}

/** The hours of the marketing pages' footer (HOURS.marketingFooter), the statement shown most widely. */
function openingHours() {
  return [
    { '@type': 'OpeningHoursSpecification', dayOfWeek: DAYS, opens: '08:00', closes: '18:00' },
    { '@type': 'OpeningHoursSpecification', dayOfWeek: 'Saturday', opens: '09:00', closes: '17:00' },
    { '@type': 'OpeningHoursSpecification', dayOfWeek: 'Sunday', opens: '10:00', closes: '16:00' },
  ];
}

export function businessStructuredData(business: BusinessInfo): Record<string, unknown> {
  const prices = PACKAGES.flatMap(allPrices);
  return {
    '@context': 'https://schema.org',
    '@type': 'AutoWash',
    '@id': `${business.publicUrl}/#business`,
    name: business.name,
    url: `${business.publicUrl}/`,
    telephone: business.phone,
    email: business.email,
    priceRange: `$${Math.min(...prices)} - $${Math.max(...prices)}`,
    currenciesAccepted: 'NZD',
    paymentAccepted: 'Cash, Bank transfer, EFTPOS, Credit card',
    areaServed: { '@type': 'City', name: 'Auckland' },
    address: {
      '@type': 'PostalAddress',
      streetAddress: business.streetAddress,
      addressLocality: business.suburb,
      addressRegion: business.city,
      postalCode: business.postcode,
      addressCountry: 'NZ',
    },
    openingHoursSpecification: openingHours(),
    sameAs: [business.facebookUrl, business.instagramUrl],
    hasOfferCatalog: {
      '@type': 'OfferCatalog',
      name: 'Car valeting and detailing packages',
      itemListElement: PACKAGES.map((pkg) => {
        const pkgPrices = allPrices(pkg);
        return {
          '@type': 'Offer',
          url: `${business.publicUrl}/services/${pkg.id}`,
          itemOffered: { '@type': 'Service', name: pkg.name, description: pkg.description, provider: { '@id': `${business.publicUrl}/#business` } },
          priceSpecification: {
            '@type': 'PriceSpecification',
            priceCurrency: 'NZD',
            minPrice: Math.min(...pkgPrices),
            maxPrice: Math.max(...pkgPrices),
          },
        };
      }),
    },
  };
}

/** JSON for a `<script type="application/ld+json">` block that no value can close early. */
export function jsonLd(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
