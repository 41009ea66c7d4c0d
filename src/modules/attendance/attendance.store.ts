import { EntityManager } from "typeorm";

/** A location of the organization with its time zone; undefined when it names none. */
export async function selectLocationZone(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
): Promise<{ id: string; timezone: string } | undefined> {
  const [row] = await manager.query("SELECT id, timezone FROM locations WHERE organization_id = $1 AND id = $2", [organizationId, locationId]);
  return row;
}
