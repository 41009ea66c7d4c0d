import { EntityManager } from "typeorm";
import { ClockEnforcement, ClockRules } from "./clock-rules.graphql";

export interface ClockRulesRow {
  geofence_latitude: number | null;
  geofence_longitude: number | null;
  geofence_radius_meters: number | null;
  allowed_networks: string[];
  require_device: boolean;
  early_clock_in_minutes: number | null;
  require_schedule: boolean;
  enforcement: ClockEnforcement;
  updated_at: Date | string;
}

/** The location's rules; undefined while it has none. */
export async function selectClockRules(manager: EntityManager, organizationId: string, locationId: string): Promise<ClockRules | undefined> {
  const [row]: ClockRulesRow[] = await manager.query("SELECT * FROM clock_rules WHERE organization_id = $1 AND location_id = $2", [organizationId, locationId]);
  return row && clockRulesOf(row, locationId);
}

/** A `clock_rules` row as the rules, from its columns or from its `to_jsonb` (numbers and times as JSON gives them). */
export function clockRulesOf(row: ClockRulesRow, locationId: string): ClockRules {
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
