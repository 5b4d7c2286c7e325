/** The service area's zones and the driving minutes staff set between them (migrations/034). */
import { sql, type Kysely } from 'kysely';
import type { Database } from './database.ts';
import { rangesOfMultirange, type ServiceZone } from '../domain/service-area.ts';

type Db = Kysely<Database>;

/** Every zone, active or not, in position order, with its postcodes as ranges. */
export async function listZones(db: Db): Promise<ServiceZone[]> {
  const rows = await db
    .selectFrom('service_zones')
    .select(['id', 'name', sql<string>`postcodes::text`.as('postcodes'), 'travel_fee_cents', 'minutes_from_centre', 'active', 'position'])
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    postcodes: rangesOfMultirange(r.postcodes),
    travelFeeCents: r.travel_fee_cents,
    minutesFromCentre: r.minutes_from_centre,
    active: r.active,
    position: r.position,
  }));
}

/** The driving minutes staff set between two zones: [zone, zone, minutes], the lesser id first. */
export async function listTravelOverrides(db: Db): Promise<[string, string, number][]> {
  const rows = await db.selectFrom('zone_travel').select(['zone_a', 'zone_b', 'minutes']).execute();
  return rows.map((r) => [r.zone_a, r.zone_b, r.minutes]);
}

/** A zone's name, for one booking's details; null for no zone. */
export async function zoneNameOf(db: Db, zoneId: string | null): Promise<string | null> {
  if (zoneId === null) return null;
  const row = await db.selectFrom('service_zones').select('name').where('id', '=', zoneId).executeTakeFirst();
  return row?.name ?? null;
}
