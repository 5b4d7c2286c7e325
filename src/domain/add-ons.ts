/**
 * Add-ons (issue 41): extra work a customer adds to a vehicle's package, each with its price and
 * its minutes by vehicle size, so the quote and the van's day both count it. One table, like the
 * packages (src/domain/catalogue.ts), read by the pages, the wizard, the server and the API.
 *
 * The suggested prices and minutes are kept, with two choices of ours: the SUV prices and minutes
 * are higher for the work that scales with the car (pet hair, clay bar and sealant, water spots:
 * more surface), and the packages each fits follow what the package already does (an interior
 * add-on fits the packages that clean inside, an exterior one those that wash outside).
 */
import type { VehicleType } from './catalogue.ts';

export interface AddOn {
  /** Stable id, as the API takes it: 'pet-hair'. */
  id: string;
  name: string;
  description: string;
  /** Price in cents (GST inclusive) by vehicle size. */
  prices: Record<VehicleType, number>;
  /** Minutes of work by vehicle size: added to the job's time on the van or bay. */
  minutes: Record<VehicleType, number>;
  /** The packages (by name) it can be added to. */
  fits: readonly string[];
  /** The most one vehicle may take. */
  max: number;
}

const INTERIOR = ['Quick Clean', 'Express Clean', 'Deluxe interior only', 'Deluxe Clean', 'Ultimate Clean'];
const EXTERIOR = ['Quick Clean', 'Express Clean', 'Deluxe Clean', 'Ultimate Clean'];

export const ADD_ONS: readonly AddOn[] = [
  {
    id: 'pet-hair',
    name: 'Pet hair removal',
    description: 'Dog and cat hair lifted from seats, carpets and the boot.',
    prices: { sm: 4500, mid: 4500, suv: 5500 },
    minutes: { sm: 30, mid: 30, suv: 45 },
    fits: INTERIOR,
    max: 1,
  },
  {
    id: 'clay-bar-sealant',
    name: 'Clay bar and sealant',
    description: 'Bonded grime clayed off the paint, then a sealant for months of shine.',
    prices: { sm: 7900, mid: 7900, suv: 9900 },
    minutes: { sm: 45, mid: 45, suv: 60 },
    fits: EXTERIOR,
    max: 1,
  },
  {
    id: 'odour-treatment',
    name: 'Odour treatment',
    description: 'Smoke, food and damp smells neutralised, not masked.',
    prices: { sm: 5900, mid: 5900, suv: 5900 },
    minutes: { sm: 30, mid: 30, suv: 30 },
    fits: INTERIOR,
    max: 1,
  },
  {
    id: 'engine-bay',
    name: 'Engine bay clean',
    description: 'Degreased, rinsed with care and dressed.',
    prices: { sm: 4900, mid: 4900, suv: 4900 },
    minutes: { sm: 30, mid: 30, suv: 30 },
    fits: [...EXTERIOR, 'Deluxe interior only', 'Ceramic Coating'],
    max: 1,
  },
  {
    id: 'headlight-restoration',
    name: 'Headlight restoration (pair)',
    description: 'Yellowed, hazy headlights sanded, polished and UV sealed.',
    prices: { sm: 8900, mid: 8900, suv: 8900 },
    minutes: { sm: 60, mid: 60, suv: 60 },
    fits: [...INTERIOR, 'Ceramic Coating', 'Window Tinting'],
    max: 1,
  },
  {
    id: 'water-spot-removal',
    name: 'Water-spot removal',
    description: 'Hard-water marks taken off the glass and paint.',
    prices: { sm: 6900, mid: 6900, suv: 8900 },
    minutes: { sm: 45, mid: 45, suv: 60 },
    fits: [...EXTERIOR, 'Ceramic Coating'],
    max: 1,
  },
];

export const ADD_ON_IDS: readonly string[] = ADD_ONS.map((a) => a.id);

export function findAddOn(id: string): AddOn | undefined {
  return ADD_ONS.find((a) => a.id === id);
}

/** The add-ons a package can take, in catalogue order. */
export function addOnsFor(packageName: string): AddOn[] {
  return ADD_ONS.filter((a) => a.fits.includes(packageName));
}
