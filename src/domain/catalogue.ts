/**
 * The service catalogue: the seven packages of spec section 3, their prices in NZ dollars by
 * vehicle size, and the ceramic coating terms. Server, SSR pages and the browser bundle all read
 * prices from here, so a price shown is always the price booked.
 */

export const VEHICLE_TYPES = ['sm', 'mid', 'suv'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];

/** Labels used on the booking page; the pricing page calls `suv` "SUV/Van". */
export const VEHICLE_LABELS: Record<VehicleType, string> = {
  sm: 'Small Car',
  mid: 'Medium Car',
  suv: 'SUV/UTE',
};
export const PRICING_VEHICLE_LABELS: Record<VehicleType, string> = {
  sm: 'Small Car',
  mid: 'Medium Car',
  suv: 'SUV/Van',
};
export const DEFAULT_VEHICLE_TYPE: VehicleType = 'sm';

/** Ceramic Coating is sized by body style on the booking page; each maps to a vehicle type. */
export const CERAMIC_SIZES = [
  { key: 'Hatchback', vehicleType: 'sm' },
  { key: 'Sedan', vehicleType: 'mid' },
  { key: 'Suv', vehicleType: 'suv' },
] as const satisfies ReadonlyArray<{ key: string; vehicleType: VehicleType }>;
export type CeramicSize = (typeof CERAMIC_SIZES)[number]['key'];

export const COATING_TYPES = ['coat1', 'coat2'] as const;
export type CoatingType = (typeof COATING_TYPES)[number];
export const COATING_LABELS: Record<CoatingType, string> = {
  coat1: '1 Year Coating',
  coat2: '3 Year Coating',
};
export const COATING_PRICING_LABELS: Record<CoatingType, string> = {
  coat1: '1 Year Protection',
  coat2: '3 Year Protection',
};
/** The coating flagged 'BEST VALUE' on the booking page. */
export const BEST_VALUE_COATING: CoatingType = 'coat2';
export const DEFAULT_COATING: CoatingType = 'coat1';

export type Prices = Record<VehicleType, number>;
/** Minutes of work by vehicle size. */
export type Durations = Record<VehicleType, number>;

export interface ServicePackage {
  /** URL slug used by /services/{id} and the pricing page anchors. */
  id: string;
  /** The name is what a booking stores in `service`, as the original client sent it. */
  name: string;
  tagline: string;
  description: string;
  prices: Prices;
  features: string[];
  isPopular: boolean;
  /** How long the work takes by vehicle size, in minutes: what the job holds its van or bay for. */
  durations: Durations;
  /** Only Ceramic Coating: price by coating term and vehicle type. */
  coatingPrices?: Record<CoatingType, Prices>;
  /** Only Ceramic Coating: duration by coating term and vehicle type (a longer term is more layers). */
  coatingDurations?: Record<CoatingType, Durations>;
}

export const CERAMIC_COATING = 'Ceramic Coating';

export const PACKAGES: readonly ServicePackage[] = [
  {
    id: 'quick-clean',
    name: 'Quick Clean',
    tagline: 'Essential Cleaning',
    description: 'A fast, thorough refresh inside and out for cars that are cleaned regularly.',
    prices: { sm: 69, mid: 79, suv: 99 },
    features: [
      'Nano hand wash',
      'Deep vacuum',
      'Wipe down inside',
      'Door jambs cleaned',
      'Glass cleaned inside and out',
      'Tyre shine and alloy clean',
      'Deodorised',
    ],
    isPopular: false,
    durations: { sm: 60, mid: 75, suv: 90 },
  },
  {
    id: 'express-clean',
    name: 'Express Clean',
    tagline: 'Complete Cleaning',
    description: 'A complete wash and interior clean with a gloss finish and sanitised touch points.',
    prices: { sm: 89, mid: 109, suv: 125 },
    features: [
      'Hi-foam hand wash',
      'Gloss finish',
      'Door frames cleaned and sanitised',
      'Interior vacuum and wipe',
      'Door jambs cleaned',
      'Windows cleaned and sanitised',
      'Tyres and rims cleaned',
      'Deodorised',
    ],
    isPopular: false,
    durations: { sm: 90, mid: 105, suv: 120 },
  },
  {
    id: 'deluxe-interior',
    name: 'Deluxe interior only',
    tagline: 'Premium Interior Treatment',
    description: 'A deep interior treatment that lifts stains and brings upholstery and leather back to life.',
    prices: { sm: 119, mid: 149, suv: 179 },
    features: [
      'Deep vacuum',
      'Interior dressing',
      'Upholstery and mat shampoo',
      'Leather clean and conditioning',
    ],
    isPopular: false,
    durations: { sm: 120, mid: 150, suv: 180 },
  },
  {
    id: 'deluxe-clean',
    name: 'Deluxe Clean',
    tagline: 'Premium Full Service',
    description: 'Our deluxe interior clean plus a hi-foam hand wash and gloss finish outside.',
    prices: { sm: 169, mid: 199, suv: 249 },
    features: [
      'Deluxe interior clean',
      'Hi-foam hand wash',
      'Gloss finish',
      'Tyre and rim dressing',
    ],
    isPopular: true,
    durations: { sm: 180, mid: 210, suv: 240 },
  },
  {
    id: 'ultimate-clean',
    name: 'Ultimate Clean',
    tagline: 'The Complete Package',
    description: 'Everything we do in one visit: shampoo, shine, wax and paint protection.',
    prices: { sm: 279, mid: 319, suv: 379 },
    features: [
      'Upholstery and mat shampoo',
      'Exterior shine spray and post wax',
      'UV and paint protection',
      'Leather clean and conditioning',
      'Deodorised',
      'Tar removed',
    ],
    isPopular: false,
    durations: { sm: 240, mid: 300, suv: 360 },
  },
  {
    id: 'ceramic-coating',
    name: CERAMIC_COATING,
    tagline: 'Long-lasting Protection',
    description: 'A hard-wearing ceramic layer that repels water and dirt and keeps the paint glossy for years.',
    prices: { sm: 399, mid: 599, suv: 699 },
    features: [
      '1 year coating: hydrophobic ceramic protection',
      '3 year coating: professional-grade ceramic protection',
      '5 year coating: our longest-lasting protection, quoted on request',
    ],
    isPopular: false,
    durations: { sm: 360, mid: 360, suv: 360 },
    coatingPrices: {
      coat1: { sm: 399, mid: 599, suv: 699 },
      coat2: { sm: 699, mid: 899, suv: 999 },
    },
    coatingDurations: {
      coat1: { sm: 360, mid: 360, suv: 360 },
      coat2: { sm: 480, mid: 480, suv: 480 },
    },
  },
  {
    id: 'window-tinting',
    name: 'Window Tinting',
    tagline: 'Premium Tinting Service',
    description: 'Professionally installed window film for comfort, privacy and protection.',
    prices: { sm: 149, mid: 179, suv: 209 },
    features: [
      'UV and heat rejection',
      'Privacy and glare reduction',
      'Interior protection',
      'Professional installation with several shade options',
    ],
    isPopular: false,
    durations: { sm: 120, mid: 150, suv: 180 },
  },
];

export const PACKAGE_NAMES: readonly string[] = PACKAGES.map((p) => p.name);

export function findPackage(name: string): ServicePackage | undefined {
  return PACKAGES.find((p) => p.name === name);
}

export function lowestPrice(pkg: ServicePackage): number {
  return Math.min(...Object.values(pkg.prices));
}

/** The starting price advertised across the site ('Starting from $69'). */
export const STARTING_PRICE = Math.min(...PACKAGES.map(lowestPrice));
export const FIRST_SERVICE_DISCOUNT_PERCENT = 15;

/** Price of a booking, or undefined when the combination is not in the catalogue. */
export function priceFor(
  serviceName: string,
  vehicleType: string,
  coatingType: string,
): number | undefined {
  const pkg = findPackage(serviceName);
  if (!pkg || !isVehicleType(vehicleType)) return undefined;
  if (pkg.coatingPrices) {
    return isCoatingType(coatingType) ? pkg.coatingPrices[coatingType][vehicleType] : undefined;
  }
  return pkg.prices[vehicleType];
}

/**
 * How long a job takes in minutes (the one table the engine, the pages, the e-mails and the
 * invitation read), or undefined when the combination is not in the catalogue. From the FAQ's
 * ranges: Quick Clean 1-2 hours, Ultimate Clean and Ceramic Coating 4-8 hours.
 */
export function durationFor(serviceName: string, vehicleType: string, coatingType: string): number | undefined {
  const pkg = findPackage(serviceName);
  if (!pkg || !isVehicleType(vehicleType)) return undefined;
  if (pkg.coatingDurations) {
    return isCoatingType(coatingType) ? pkg.coatingDurations[coatingType][vehicleType] : undefined;
  }
  return pkg.durations[vehicleType];
}

/**
 * A duration for people, to the quarter hour: 'about 1 hour', 'about 1¼ hours', 'about 3 hours',
 * 'about 45 minutes'.
 */
export function durationText(minutes: number): string {
  if (minutes < 60) return `about ${minutes} minutes`;
  const hours = Math.floor(minutes / 60);
  const quarter = ['', '¼', '½', '¾'][Math.round((minutes % 60) / 15) % 4];
  return `about ${hours}${quarter} hour${hours === 1 && !quarter ? '' : 's'}`;
}

export function isVehicleType(value: string): value is VehicleType {
  return (VEHICLE_TYPES as readonly string[]).includes(value);
}

export function isCoatingType(value: string): value is CoatingType {
  return (COATING_TYPES as readonly string[]).includes(value);
}

/** A booking's package for people: the service, and the coating chosen with it. */
export function packageForPeople(booking: { service: string; coating_type: string }): string {
  return isCoatingType(booking.coating_type) ? `${booking.service} (${COATING_LABELS[booking.coating_type]})` : booking.service;
}

/** A booking's vehicle for people: the ceramic size chosen, else the vehicle type's label. */
export function vehicleForPeople(booking: { vehicle_type: string; selected_vehicle_type: string }): string {
  const ceramic = CERAMIC_SIZES.find((s) => s.key === booking.selected_vehicle_type);
  if (ceramic) return ceramic.key === 'Suv' ? 'SUV' : ceramic.key;
  return isVehicleType(booking.vehicle_type) ? VEHICLE_LABELS[booking.vehicle_type] : booking.vehicle_type;
}
