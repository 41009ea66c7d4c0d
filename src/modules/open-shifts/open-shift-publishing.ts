import { EntityManager } from "typeorm";
import { updateReturning } from "../../database/returning";

/**
 * Publishes a location's unpublished open shifts that start within the bounds, with their draft
 * preferences, inside the caller's transaction; answers their ids.
 */
export async function publishOpenShifts(manager: EntityManager, organizationId: string, locationId: string, bounds: { from: Date; to: Date }, now: Date): Promise<string[]> {
  const rows = await updateReturning<{ id: string }>(
    manager,
    `UPDATE open_shifts SET published_at = $5, updated_at = $5
      WHERE organization_id = $1 AND location_id = $2 AND start_time >= $3 AND start_time < $4 AND published_at IS NULL
      RETURNING id`,
    [organizationId, locationId, bounds.from, bounds.to, now],
  );
  const ids = rows.map((r) => r.id).sort();
  if (ids.length) {
    await manager.query("UPDATE open_shift_preferences SET is_draft = false, updated_at = $3 WHERE organization_id = $1 AND open_shift_id = ANY($2::uuid[]) AND is_draft", [organizationId, ids, now]);
  }
  return ids;
}
