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

/*
 * The original's trust figures disagree with one another (spec section 1: 500+, 1000+ and 5000+
 * customers, 120 and 1250+ reviews, 15+ years in one place and 3+ years since 2020 in another);
 * each is shown as it was: the home page's stats band and review row, the About page's band.
 */
export const STATS: readonly Stat[] = [
  { value: '5000+', label: 'Happy customers' },
  { value: '4.9/5', label: 'Average rating' },
  { value: '98%', label: 'Satisfaction rate' },
  { value: '15+', label: 'Years of experience' },
];

export const ABOUT_STATS: readonly Stat[] = [
  { value: '1000+', label: 'Happy customers' },
  { value: '4.9/5', label: 'Average rating' },
  { value: '98%', label: 'Satisfaction rate' },
  { value: '3+', label: 'Years since 2020' },
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
  { value: '500+', label: 'Satisfied customers' },
];

export const OFFER = {
  title: `Limited offer: ${FIRST_SERVICE_DISCOUNT_PERCENT}% off your first service`,
  text: 'Book online today and see why Auckland drivers trust us with their cars.',
} as const;

/** Testimonials beyond the home page's three, for /testimonials (sample content, as in the original). */
export const MORE_TESTIMONIALS: readonly Testimonial[] = [
  { name: 'Tom W.', location: 'Ellerslie', text: 'Booked the Express Clean for the family wagon. On time, tidy and the kids’ mess is gone.' },
  { name: 'Aroha P.', location: 'Onehunga', text: 'Great communication from booking to finish. They even sent a message when they were on the way.' },
  { name: 'Michael L.', location: 'Penrose', text: 'We use them for our company utes every month. Consistent, reliable and fairly priced.' },
];

export interface ServiceCategory {
  /** Anchor on /services, so /services#exterior-washing lands on the card. */
  id: string;
  title: string;
  description: string;
  items: string[];
}

/** The four category cards of the services page (spec section 2). */
export const SERVICE_CATEGORIES: readonly ServiceCategory[] = [
  {
    id: 'exterior-washing',
    title: 'Exterior Washing',
    description: 'A careful hand wash that lifts road film without scratching the paint.',
    items: ['Nano or hi-foam hand wash', 'Wheels, rims and tyres cleaned and dressed', 'Door jambs and frames', 'Tar and bug removal', 'Gloss finish and spray wax'],
  },
  {
    id: 'interior-cleaning',
    title: 'Interior Cleaning',
    description: 'Deep vacuuming, shampoo and conditioning for a cabin that looks and smells new.',
    items: ['Deep vacuum of seats, carpets and boot', 'Upholstery and mat shampoo', 'Leather clean and conditioning', 'Dashboard and trim dressing', 'Deodorising and sanitising touch points'],
  },
  {
    id: 'paint-protection',
    title: 'Paint Protection',
    description: 'Protection that keeps the shine and makes every later wash easier.',
    items: ['Ceramic coating, 1 or 3 years', 'UV and paint protection', 'Post wax and shine spray', 'Headlight restoration', 'Engine bay clean'],
  },
  {
    id: 'window-tinting',
    title: 'Window Tinting',
    description: 'Quality film professionally fitted for comfort, privacy and protection.',
    items: ['UV and heat rejection', 'Privacy and glare reduction', 'Interior protection from fading', 'Several shade options', 'Professional installation'],
  },
];

export interface ServiceDetail {
  id: string;
  title: string;
  summary: string;
  paragraphs: string[];
  points: string[];
  /** The add-on (src/domain/add-ons.ts) this service is booked as: its Book Now opens the wizard with it chosen. */
  addOn?: string;
}

/**
 * Pages the original linked to but never built: the three home-page teasers and two specialist
 * services. (Each package's page is built from the catalogue itself.)
 */
export const SERVICE_DETAILS: readonly ServiceDetail[] = [
  {
    id: 'residential',
    title: 'Residential Car Valeting',
    summary: 'We come to your home with water, power and products, so your car is cleaned in your own driveway.',
    paragraphs: [
      'Book a time that suits you and we arrive in a fully equipped van. There is nothing to prepare: just leave the keys where we can reach them if you are busy.',
      'Every package is available at your door across Auckland, from a Quick Clean to a full Ultimate Clean.',
    ],
    points: ['No need to leave home', 'Our own water and power', 'Every package available', 'Same-day service when we have space'],
  },
  {
    id: 'commercial',
    title: 'Commercial & Fleet Valeting',
    summary: 'Regular valeting for company cars, utes and vans, at your workplace and on your schedule.',
    paragraphs: [
      'Clean vehicles make a good impression on your customers. We valet fleets on a schedule that keeps them on the road, including early mornings and weekends.',
      'Tell us about your fleet and we will suggest a plan; one invoice covers every vehicle.',
    ],
    points: ['Scheduled visits at your premises', 'Cars, utes and vans', 'One monthly invoice', 'Consistent standard on every vehicle'],
  },
  {
    id: 'deep-cleaning',
    title: 'Deep Cleaning & Detailing',
    summary: 'For cars that need more than a wash: shampoo, stain removal, leather care and paint protection.',
    paragraphs: [
      'Our deep-cleaning packages restore interiors that have seen years of family life, pets or work, and bring tired paint back to a deep gloss.',
      'Finish with ceramic coating and the shine lasts for years, not weeks.',
    ],
    points: ['Upholstery and mat shampoo', 'Leather clean and conditioning', 'Tar removal and paint protection', 'Ceramic coating for lasting protection'],
  },
  {
    id: 'headlight',
    title: 'Headlight Restoration',
    summary: 'Cloudy, yellowed headlights sanded, polished and sealed so they shine clear and bright again.',
    paragraphs: [
      'Oxidised headlights look tired and throw less light on the road at night. We restore the lenses in about an hour and seal them with a UV-resistant coat.',
      'Add headlight restoration to any interior or ceramic package, or to window tinting, when you book: one price per pair, whatever the car.',
    ],
    points: ['Clearer, brighter light at night', 'UV-resistant sealant', 'About one hour per pair', 'Added to a booking, one price per pair'],
    addOn: 'headlight-restoration',
  },
  {
    id: 'engine-bay',
    title: 'Engine Bay Cleaning',
    summary: 'A safe, careful degrease and dressing that makes the engine bay look cared for.',
    paragraphs: [
      'A clean engine bay makes leaks easy to spot and helps when you sell the car. We protect electrical parts, degrease with gentle products and dress the plastics.',
      'Add an engine bay clean to any package that washes the outside, or to a ceramic coating, when you book.',
    ],
    points: ['Electrics protected before cleaning', 'Gentle, eco-friendly degreaser', 'Plastics and hoses dressed', 'Added to a booking, about 30 minutes'],
    addOn: 'engine-bay',
  },
];

export function findServiceDetail(id: string): ServiceDetail | undefined {
  return SERVICE_DETAILS.find((detail) => detail.id === id);
}

export interface TeamMember {
  name: string;
  role: string;
  bio: string;
}

export const ABOUT = {
  story: [
    'We started in 2020 with one van, a pressure washer and a simple idea: car care should come to you, and be done properly.',
    'Word spread across Auckland. Today our team valets and details thousands of cars a year, at customers’ homes and workplaces and at our service centre in Mount Wellington.',
    'We still check every car ourselves before we hand back the keys.',
  ],
  values: [
    { title: 'Quality', description: 'Professional products, trained detailers and a checklist for every package.' },
    { title: 'Integrity', description: 'Fixed prices by vehicle size, honest advice and a free re-clean if we miss a spot.' },
    { title: 'Innovation', description: 'Waterless and water-wise methods, ceramic technology and online booking around the clock.' },
  ],
  team: [
    { name: 'Daniel Harris', role: 'Founder & CEO', bio: 'Started the business in 2020 after fifteen years in the motor trade.' },
    { name: 'Mere Walker', role: 'Service Manager', bio: 'Plans the vans and makes sure every booking runs on time.' },
    { name: 'Sam Patel', role: 'Lead Detailer', bio: 'Ceramic coating specialist who trains every new detailer.' },
  ] satisfies TeamMember[],
} as const;
