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

export interface ZoneRow {
  name: string;
  /** int4multirange text (multirangeOf). */
  postcodes: string;
  travelFeeCents: number;
  minutesFromCentre: number;
}

/** Stores a zone at the end of the order; its id. */
export async function insertZone(db: Db, zone: ZoneRow): Promise<string> {
  const row = await db
    .insertInto('service_zones')
    .values({
      name: zone.name,
      postcodes: zone.postcodes,
      travel_fee_cents: zone.travelFeeCents,
      minutes_from_centre: zone.minutesFromCentre,
      position: sql<number>`(select coalesce(max(position) + 1, 0) from service_zones)`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateZone(db: Db, id: string, changes: Partial<ZoneRow & { active: boolean }>): Promise<void> {
  await db
    .updateTable('service_zones')
    .set({
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.postcodes === undefined ? {} : { postcodes: changes.postcodes }),
      ...(changes.travelFeeCents === undefined ? {} : { travel_fee_cents: changes.travelFeeCents }),
      ...(changes.minutesFromCentre === undefined ? {} : { minutes_from_centre: changes.minutesFromCentre }),
      ...(changes.active === undefined ? {} : { active: changes.active }),
    })
    .where('id', '=', id)
    .execute();
}

/** The names of the active zones (other than `exceptId`) that hold any of the postcodes, in order. */
export async function activeZonesSharing(db: Db, postcodes: string, exceptId?: string): Promise<string[]> {
  let query = db
    .selectFrom('service_zones')
    .select('name')
    .where('active', '=', true)
    .where(sql<boolean>`postcodes && ${postcodes}::int4multirange`);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const rows = await query.orderBy('position').orderBy('created_at').execute();
  return rows.map((r) => r.name);
}

/** Sets the driving minutes of a pair of zones (a, b in either order). */
export async function putTravel(db: Db, a: string, b: string, minutes: number): Promise<void> {
  const [zoneA, zoneB] = a <= b ? [a, b] : [b, a];
  await db
    .insertInto('zone_travel')
    .values({ zone_a: zoneA, zone_b: zoneB, minutes })
    .onConflict((oc) => oc.columns(['zone_a', 'zone_b']).doUpdateSet({ minutes }))
    .execute();
}

/** Back to the default for a pair: forgets the staff's minutes. */
export async function deleteTravel(db: Db, a: string, b: string): Promise<void> {
  const [zoneA, zoneB] = a <= b ? [a, b] : [b, a];
  await db.deleteFrom('zone_travel').where('zone_a', '=', zoneA).where('zone_b', '=', zoneB).execute();
}

/** An upcoming on-site job on a van, as the list of days to re-plan reads it. */
export interface PlacedVanJob {
  id: string;
  reference: string;
  date: string;
  time: string;
  starts_at: Date;
  ends_at: Date;
  zone_id: string | null;
  resource_id: string;
  resource_name: string;
}

/** The pending and confirmed on-site jobs holding a van from `fromDate` on, by van and start. */
export async function placedVanJobsFrom(db: Db, fromDate: string): Promise<PlacedVanJob[]> {
  const rows = await db
    .selectFrom('bookings as b')
    .innerJoin('resources as r', 'r.id', 'b.resource_id')
    .select(['b.id', 'b.reference', 'b.date', 'b.time', 'b.starts_at', 'b.ends_at', 'b.zone_id', 'r.id as resource_id', 'r.name as resource_name'])
    .where('b.service_type', '=', 'onsite')
    .where('b.status', 'in', ['pending', 'confirmed'])
    .where('b.date', '>=', fromDate)
    .orderBy('b.date')
    .orderBy('r.position')
    .orderBy('r.id')
    .orderBy('b.starts_at')
    .execute();
  return rows;
}
