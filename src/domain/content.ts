/**
 * The marketing content of the public pages (spec sections 1 and 2): hard-coded in the original,
 * kept here in one place so that every page, the SSR render and the browser bundle agree.
 * The trust figures are the original's own, inconsistent as they are (spec section 1).
 */
import { FIRST_SERVICE_DISCOUNT_PERCENT, STARTING_PRICE } from './catalogue.ts';

export interface ServiceTeaser {
  id: string;
  title: string;
  description: string;
  icon: 'home' | 'building' | 'sparkle';
}

export interface Feature {
  title: string;
  description: string;
  icon: 'clock' | 'tag' | 'calendar' | 'leaf' | 'shield' | 'star';
}

export interface ProcessStep {
  title: string;
  description: string;
}

export interface Testimonial {
  name: string;
  location: string;
  text: string;
}

export interface Stat {
  value: string;
  label: string;
}

export const HERO = {
  eyebrow: 'Mobile & drop-off car valeting in Auckland',
  title: 'A showroom shine, wherever your car is parked',
  lead: 'Professional car valeting and detailing at your home or workplace, or at our Mount Wellington service centre. Same-day service available.',
  startingFrom: `Starting from $${STARTING_PRICE}`,
} as const;

export const FEATURES: readonly Feature[] = [
  { icon: 'clock', title: 'Same-Day Service', description: 'Need it today? Same-day appointments are available across Auckland.' },
  { icon: 'tag', title: `${FIRST_SERVICE_DISCOUNT_PERCENT}% Off Your First Service`, description: 'New customers save on their first valet. Limited time offer.' },
  { icon: 'calendar', title: '24/7 Online Booking', description: 'Book in a minute, day or night, with no account needed.' },
  { icon: 'leaf', title: 'Eco-Friendly Products', description: 'Biodegradable cleaners and water-wise methods that are kind to your paint and the planet.' },
  { icon: 'shield', title: 'Satisfaction Guarantee', description: 'Not happy with a spot we missed? We come back and re-clean it free.' },
  { icon: 'star', title: `Prices From $${STARTING_PRICE}`, description: 'Clear, fixed prices by vehicle size. No surprises on the day.' },
];

export const STATS: readonly Stat[] = [
  { value: '5000+', label: 'Happy customers' },
  { value: '4.9/5', label: 'Average rating' },
  { value: '98%', label: 'Satisfaction rate' },
  { value: '15+', label: 'Years of experience' },
];

export const SERVICE_TEASERS: readonly ServiceTeaser[] = [
  { id: 'residential', icon: 'home', title: 'Residential', description: 'We come to your driveway with everything we need. Your car is cleaned while you get on with your day.' },
  { id: 'commercial', icon: 'building', title: 'Commercial', description: 'Fleet and workplace valeting on a schedule that suits your business, from utes to company cars.' },
  { id: 'deep-cleaning', icon: 'sparkle', title: 'Deep Cleaning', description: 'Shampoo, leather care, paint protection and ceramic coating for cars that need more than a wash.' },
];

export const PROCESS_STEPS: readonly ProcessStep[] = [
  { title: 'Book Online', description: 'Choose your package, date, time and whether we come to you or you drop off.' },
  { title: 'Confirmation', description: 'We confirm your booking and let you know when to expect us.' },
  { title: 'Professional Cleaning', description: 'Our trained detailers clean your car with professional, eco-friendly products.' },
  { title: 'Satisfaction', description: 'Check the result with us. If anything is missed, we re-clean it free.' },
];

export const TESTIMONIALS: readonly Testimonial[] = [
  { name: 'Sarah M.', location: 'Remuera', text: 'They came to my work car park and the car looked better than the day I bought it. Booking took two minutes.' },
  { name: 'James T.', location: 'Mount Wellington', text: 'Dropped my SUV off before work and picked it up spotless. The interior shampoo got out stains I had given up on.' },
  { name: 'Priya K.', location: 'Howick', text: 'Friendly, on time and careful with the paint. The ceramic coating still beads water months later.' },
];

export const REVIEW_BADGES: readonly Stat[] = [
  { value: '4.9/5', label: 'Google, 120 reviews' },
  { value: '1250+', label: 'Five-star reviews' },
];

export const OFFER = {
  title: `Limited offer: ${FIRST_SERVICE_DISCOUNT_PERCENT}% off your first service`,
  text: 'Book online today and see why Auckland drivers trust us with their cars.',
} as const;

export const ABOUT_SNIPPET =
  'Mobile and drop-off car valeting and detailing from Mount Wellington, serving all of Auckland since 2020.';
