/**
 * The page table, shared by the server (which routes and renders) and the browser (which loads
 * the page's own chunk to hydrate it). Adding a page is one entry here and its file in pages/.
 */
import type { BusinessInfo } from '#domain/business.ts';
import { PACKAGES } from '#domain/catalogue.ts';
import { SERVICE_DETAILS } from '#domain/content.ts';
import { FIND_BOOKING_PATH, INSIGHTS_PAGE_PATH } from '#domain/site-paths.ts';
import { INVITATION_PAGE_PATH } from '#domain/staff-members.ts';
import { NOT_FOUND_PATH } from './page-props.ts';

/**
 * The page table's path of the manage page. Its real addresses are /booking/manage/{token}; the
 * server renders them as this page, so the token never becomes a canonical or cached path.
 */
export const MANAGE_PAGE_PATH = '/booking/manage';

/**
 * The page table's path of a maintenance plan's page (issue 43); its real addresses are
 * /booking/manage/{token}/plan, under the manage link of any booking of the plan.
 */
export const PLAN_PAGE_PATH = '/booking/plan';

/** The page table's path of a booking's receipt; its real addresses are /booking/receipt/{token} (issue 21). */
export const RECEIPT_PAGE_PATH = '/booking/receipt';

/** The file in client/pages/ that renders the page. */
export type PageModule =
  | 'HomePage'
  | 'AboutPage'
  | 'ServicesPage'
  | 'ServiceDetailPage'
  | 'PricingPage'
  | 'ContactPage'
  | 'BookingPage'
  | 'LegalPage'
  | 'TestimonialsPage'
  | 'SitemapPage'
  | 'DashboardPage'
  | 'ManagePage'
  | 'PlanPage'
  | 'ReceiptPage'
  | 'FindBookingPage'
  | 'InvitationPage'
  | 'InsightsPage'
  | 'NotFoundPage';

export interface PageDefinition {
  path: string;
  module: PageModule;
  /** Link text in the HTML sitemap and breadcrumbs. */
  label: string;
  title(business: BusinessInfo): string;
  description: string;
  /** Whether search engines should index the page (and sitemap.xml list it). */
  index: boolean;
  group: 'main' | 'services' | 'legal' | 'none';
}

const page = (path: string, module: PageModule, label: string, title: string, description: string, group: PageDefinition['group'] = 'main'): PageDefinition => ({
  path,
  module,
  label,
  title: (b) => `${title} | ${b.name}`,
  description,
  index: true,
  group,
});

export const PAGES: readonly PageDefinition[] = [
  {
    ...page('/', 'HomePage', 'Home', '', 'Mobile and drop-off car valeting and detailing in Auckland. Same-day service, eco-friendly products, prices from $69. Book online 24/7.'),
    title: (b) => `${b.name} | Mobile Car Valeting & Detailing in Auckland`,
  },
  page('/services', 'ServicesPage', 'Services', 'Car Valeting & Detailing Services', 'Exterior washing, interior cleaning, paint protection, ceramic coating and window tinting, at your place or at our Mount Wellington service centre.'),
  page('/pricing', 'PricingPage', 'Pricing', 'Pricing', 'Fixed car valeting and detailing prices by vehicle size, from $69. Compare our packages, from Quick Clean to Ceramic Coating.'),
  page('/booking', 'BookingPage', 'Book Online', 'Book Online', 'Book a car valet or detail online in three steps: choose a package, pick a date and time, and tell us where to find you.'),
  page('/about', 'AboutPage', 'About Us', 'About Us', 'Meet the Auckland car valeting team: our story since 2020, our values and the people who look after your car.'),
  page('/contact', 'ContactPage', 'Contact', 'Contact Us', 'Call, e-mail or visit our Mount Wellington service centre, or send us a message. We reply quickly.'),
  page('/testimonials', 'TestimonialsPage', 'Testimonials', 'Customer Reviews', 'What Auckland drivers say about our mobile car valeting and detailing.'),
  ...PACKAGES.map((pkg) =>
    page(`/services/${pkg.id}`, 'ServiceDetailPage', pkg.name, `${pkg.name} from $${Math.min(...Object.values(pkg.prices))}`, `${pkg.tagline}: ${pkg.description}`, 'services'),
  ),
  ...SERVICE_DETAILS.map((detail) => page(`/services/${detail.id}`, 'ServiceDetailPage', detail.title, detail.title, detail.summary, 'services')),
  page('/privacy-policy', 'LegalPage', 'Privacy Policy', 'Privacy Policy', 'How we collect, use and protect your personal, booking, vehicle and payment information.', 'legal'),
  page('/terms', 'LegalPage', 'Terms of Service', 'Terms of Service', 'Our booking, cancellation, payment and pricing terms.', 'legal'),
  page('/sitemap', 'SitemapPage', 'Sitemap', 'Sitemap', 'Every page of our website in one list.', 'legal'),
  { ...page('/dashboard', 'DashboardPage', 'Dashboard', 'Booking Dashboard', 'Staff bookings dashboard.', 'none'), index: false },
  // The owner's figures (issue 44), at /dashboard/insights?range=…: never indexed, never listed.
  { ...page(INSIGHTS_PAGE_PATH, 'InsightsPage', 'Insights', 'Insights', "The owner's figures: revenue, work, utilisation, customers, losses, lead time.", 'none'), index: false },
  // A new member of staff's invitation, at /dashboard/invitation/{token}: never indexed, never listed.
  { ...page(INVITATION_PAGE_PATH, 'InvitationPage', 'Staff invitation', 'Set Your Password', 'Set the password of your staff sign-in.', 'none'), index: false },
  // Each booking's own page, at /booking/manage/{token}: never indexed, never listed.
  // A public form that holds nothing personal: indexed, so that a customer who searches for it finds it.
  page(FIND_BOOKING_PATH, 'FindBookingPage', 'Find my booking', 'Find My Booking', 'Lost the e-mail with your booking? Enter your e-mail address and we will send you the links to your upcoming bookings.'),
  { ...page(MANAGE_PAGE_PATH, 'ManagePage', 'Manage your booking', 'Manage Your Booking', 'See, cancel or move your booking.', 'none'), index: false },
  // A regular plan's page, at /booking/manage/{token}/plan: never indexed, never listed.
  { ...page(PLAN_PAGE_PATH, 'PlanPage', 'Your regular plan', 'Your Regular Plan', 'See your regular valet plan: skip a visit, pause, change or stop it.', 'none'), index: false },
  // A completed booking's receipt, at /booking/receipt/{token}: never indexed, never listed.
  { ...page(RECEIPT_PAGE_PATH, 'ReceiptPage', 'Receipt', 'Receipt', 'Your receipt.', 'none'), index: false },
];

export const NOT_FOUND_PAGE: PageDefinition = {
  path: NOT_FOUND_PATH,
  module: 'NotFoundPage',
  label: 'Page not found',
  title: (b) => `Page not found | ${b.name}`,
  description: 'The page you were looking for does not exist.',
  index: false,
  group: 'none',
};

const BY_PATH = new Map(PAGES.map((p) => [p.path, p]));

export function findPage(path: string): PageDefinition | undefined {
  return BY_PATH.get(path);
}

export function pageFor(path: string): PageDefinition {
  return findPage(path) ?? NOT_FOUND_PAGE;
}
