/**
 * Who the business is and how to reach it. The values come from configuration (see src/config.ts,
 * which fills them from the environment with these defaults) and reach the pages as props, so the
 * browser bundle never hard-codes a phone number.
 */
export interface BusinessInfo {
  name: string;
  /** Main phone number, as shown. */
  phone: string;
  /** Second number shown on the contact page. */
  phoneSecondary: string;
  email: string;
  streetAddress: string;
  suburb: string;
  city: string;
  postcode: string;
  /** Chat link (WhatsApp) with a prefilled message. */
  chatUrl: string;
  facebookUrl: string;
  instagramUrl: string;
  /** Embedded map of the service centre. */
  mapEmbedUrl: string;
  /** Absolute origin of the public site, for canonical URLs and sitemaps. */
  publicUrl: string;
}

export const DEFAULT_BUSINESS: BusinessInfo = {
  name: 'Auckland Valet Co.',
  phone: '021 555 0123',
  phoneSecondary: '09 555 0199',
  email: 'support@aucklandvalet.co.nz',
  streetAddress: '300 Mount Wellington Highway',
  suburb: 'Mount Wellington',
  city: 'Auckland',
  postcode: '1060',
  chatUrl: 'https://wa.me/64215550123?text=Hi%2C%20I%27d%20like%20to%20book%20a%20car%20valet',
  facebookUrl: 'https://www.facebook.com/',
  instagramUrl: 'https://www.instagram.com/',
  mapEmbedUrl:
    'https://www.google.com/maps?q=Mount+Wellington+Highway,+Mount+Wellington,+Auckland+1060&output=embed',
  publicUrl: 'http://localhost:3000',
};

/** The one-line description in the footer of every page. */
export const ABOUT_SNIPPET =
  'Mobile and drop-off car valeting and detailing from Mount Wellington, serving all of Auckland since 2020.';

/** A tel: link for a phone number as shown. */
export function telHref(phone: string): string {
  const trimmed = phone.replace(/[^\d+]/g, '');
  return `tel:${trimmed.startsWith('0') ? `+64${trimmed.slice(1)}` : trimmed}`;
}

/** The three differing business-hours statements of spec section 9, each where the original showed it. */
export const HOURS = {
  marketingFooter: [
    'Monday - Friday: 8:00 AM - 6:00 PM',
    'Saturday: 9:00 AM - 5:00 PM',
    'Sunday: 10:00 AM - 4:00 PM',
    'Public Holidays: By Appointment',
  ],
  contactPage: 'Monday - Saturday: 7:00 AM - 9:00 PM',
  laterFooter: ['Monday - Sunday: 6:30 am - 8:30 pm', 'Public Holidays: By Appointment'],
  dropOff: ['Monday - Friday: 8:00 AM - 6:00 PM', 'Saturday: 9:00 AM - 5:00 PM'],
  dropOffGuidance: 'Please arrive 10 minutes before your appointment.',
} as const;
