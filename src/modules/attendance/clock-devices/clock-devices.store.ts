import { EntityManager } from "typeorm";
import { ClockDevice } from "./clock-devices.graphql";

interface DeviceRow {
  id: string;
  location_id: string;
  name: string;
  created_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = "id, location_id, name, created_at, revoked_at";

function present(row: DeviceRow): ClockDevice {
  return {
    id: row.id,
    locationId: row.location_id,
    name: row.name,
    createdAt: new Date(row.created_at),
    revokedAt: row.revoked_at && new Date(row.revoked_at),
  };
}

export async function insertDevice(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  name: string,
  secretHash: string,
  now: Date,
): Promise<ClockDevice> {
  const [row]: DeviceRow[] = await manager.query(
    `INSERT INTO clock_devices (organization_id, location_id, name, secret_hash, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [organizationId, locationId, name, secretHash, now],
  );
  return present(row);
}

export async function selectDevices(manager: EntityManager, organizationId: string, locationId: string): Promise<ClockDevice[]> {
  const rows: DeviceRow[] = await manager.query(
    `SELECT ${COLUMNS} FROM clock_devices WHERE organization_id = $1 AND location_id = $2 ORDER BY created_at, id`,
    [organizationId, locationId],
  );
  return rows.map(present);
}

/** Revokes the device (kept, so that a punch with its token is told it was revoked); false when unknown. */
export async function revokeDevice(manager: EntityManager, organizationId: string, locationId: string, id: string, now: Date): Promise<boolean> {
  const rows: unknown[] = await manager.query(
    `UPDATE clock_devices SET revoked_at = COALESCE(revoked_at, $4) WHERE organization_id = $1 AND location_id = $2 AND id = $3 RETURNING id`,
    [organizationId, locationId, id, now],
  );
  return rows.length > 0;
}

/** The device a token's hash names, with the location it is registered at. */
export async function deviceByHash(manager: EntityManager, organizationId: string, secretHash: string): Promise<ClockDevice | undefined> {
  const [row]: DeviceRow[] = await manager.query(`SELECT ${COLUMNS} FROM clock_devices WHERE organization_id = $1 AND secret_hash = $2`, [
    organizationId,
    secretHash,
  ]);
  return row && present(row);
}
