import { EntityManager } from "typeorm";
import { ClockEnforcement, ClockRules } from "./clock-rules.graphql";

interface ClockRulesRow {
  geofence_latitude: number | null;
  geofence_longitude: number | null;
  geofence_radius_meters: number | null;
  allowed_networks: string[];
  require_device: boolean;
  early_clock_in_minutes: number | null;
  require_schedule: boolean;
  enforcement: ClockEnforcement;
  updated_at: Date;
}

/** The location's rules; undefined while it has none. */
export async function selectClockRules(manager: EntityManager, organizationId: string, locationId: string): Promise<ClockRules | undefined> {
  const [row]: ClockRulesRow[] = await manager.query("SELECT * FROM clock_rules WHERE organization_id = $1 AND location_id = $2", [organizationId, locationId]);
  if (!row) return undefined;
  return {
    locationId,
    geofence:
      row.geofence_latitude === null
        ? null
        : { latitude: Number(row.geofence_latitude), longitude: Number(row.geofence_longitude), radiusMeters: Number(row.geofence_radius_meters) },
    allowedNetworks: row.allowed_networks,
    requireDevice: row.require_device,
    earlyClockInMinutes: row.early_clock_in_minutes,
    requireSchedule: row.require_schedule,
    enforcement: row.enforcement,
    updatedAt: new Date(row.updated_at),
  };
}

export async function saveClockRules(manager: EntityManager, organizationId: string, rules: Omit<ClockRules, "updatedAt">, now: Date): Promise<void> {
  await manager.query(
    `INSERT INTO clock_rules AS r (organization_id, location_id, geofence_latitude, geofence_longitude, geofence_radius_meters, allowed_networks,
                                   require_device, early_clock_in_minutes, require_schedule, enforcement, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6::text[], $7, $8, $9, $10, $11)
     ON CONFLICT (organization_id, location_id) DO UPDATE SET
       geofence_latitude = EXCLUDED.geofence_latitude, geofence_longitude = EXCLUDED.geofence_longitude,
       geofence_radius_meters = EXCLUDED.geofence_radius_meters, allowed_networks = EXCLUDED.allowed_networks,
       require_device = EXCLUDED.require_device, early_clock_in_minutes = EXCLUDED.early_clock_in_minutes,
       require_schedule = EXCLUDED.require_schedule, enforcement = EXCLUDED.enforcement, updated_at = EXCLUDED.updated_at`,
    [
      organizationId,
      rules.locationId,
      rules.geofence?.latitude ?? null,
      rules.geofence?.longitude ?? null,
      rules.geofence?.radiusMeters ?? null,
      rules.allowedNetworks,
      rules.requireDevice,
      rules.earlyClockInMinutes,
      rules.requireSchedule,
      rules.enforcement,
      now,
    ],
  );
}

/** A published entry a punch at `at` belongs to: the worker's entry running then, or starting within 12 hours, nearest start first. */
export interface MatchedEntry {
  id: string;
  start: Date;
  end: Date;
}

export async function selectEntryAt(manager: EntityManager, organizationId: string, staffId: string, at: Date): Promise<MatchedEntry | undefined> {
  const [row]: { id: string; start_time: Date; end_time: Date }[] = await manager.query(
    `SELECT id, start_time, end_time FROM schedule_entries
      WHERE organization_id = $1 AND worker_id = $2 AND deleted_at IS NULL
        AND start_time - interval '12 hours' <= $3 AND end_time > $3
      ORDER BY abs(extract(epoch FROM start_time - $3::timestamptz)), id LIMIT 1`,
    [organizationId, staffId, at],
  );
  return row && { id: row.id, start: new Date(row.start_time), end: new Date(row.end_time) };
}
