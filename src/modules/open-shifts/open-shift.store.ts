import { EntityManager, SelectQueryBuilder } from "typeorm";
import { OpenShift, OpenShiftPreference } from "./open-shift.entity";
import { updateReturning } from "../../database/returning";
import { findWhere } from "../../common/entity-reads";

/** The SQL of open shifts: publishing them, taking a place, and who may take one. */

/**
 * Publishes a location's unpublished open shifts that start within the bounds, with their draft
 * preferences, inside the caller's transaction; answers their ids.
 */
export async function publishOpenShifts(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  bounds: { from: Date; to: Date },
  now: Date,
): Promise<string[]> {
  const rows = await updateReturning<{ id: string }>(
    manager,
    `UPDATE open_shifts SET published_at = $5, updated_at = $5
      WHERE organization_id = $1 AND location_id = $2 AND start_time >= $3 AND start_time < $4 AND published_at IS NULL
      RETURNING id`,
    [organizationId, locationId, bounds.from, bounds.to, now],
  );
  const ids = rows.map((r) => r.id).sort();
  if (ids.length) {
    await manager.query(
      "UPDATE open_shift_preferences SET is_draft = false, updated_at = $3 WHERE organization_id = $1 AND open_shift_id = ANY($2::uuid[]) AND is_draft",
      [organizationId, ids, now],
    );
  }
  return ids;
}

/** Takes one place of the open shift when one is left; the new accepted count, or none when it is full. */
export function takePlace(manager: EntityManager, organizationId: string, openShiftId: string, now: Date): Promise<{ accepted_count: number }[]> {
  return updateReturning<{ accepted_count: number }>(
    manager,
    `UPDATE open_shifts SET accepted_count = accepted_count + 1, updated_at = $3
      WHERE organization_id = $1 AND id = $2 AND accepted_count < staff_count_required
      RETURNING accepted_count`,
    [organizationId, openShiftId, now],
  );
}

/** A location's open shifts (alias `r`), only the published ones with `publishedOnly`, to narrow or page. */
export function locationOpenShifts(manager: EntityManager, organizationId: string, locationId: string, publishedOnly: boolean): SelectQueryBuilder<OpenShift> {
  const query = manager
    .getRepository(OpenShift)
    .createQueryBuilder("r")
    .where("r.organization_id = :org AND r.location_id = :loc", { org: organizationId, loc: locationId });
  if (publishedOnly) query.andWhere("r.published_at IS NOT NULL");
  return query;
}

/** An open shift of the location (only a published one with `publishedOnly`), locked until commit with `lock`. */
export async function selectOpenShift(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  id: string,
  publishedOnly: boolean,
  lock: boolean,
): Promise<OpenShift | null> {
  const published = publishedOnly ? " AND published_at IS NOT NULL" : "";
  const found = await findWhere(manager, OpenShift, `organization_id = $1 AND location_id = $2 AND id = $3${published}`, [organizationId, locationId, id], {
    lock: lock ? "update" : undefined,
  });
  return found[0] ?? null;
}

/** The preferences of many open shifts, oldest first. */
export function selectPreferences(manager: EntityManager, organizationId: string, openShiftIds: readonly string[]): Promise<OpenShiftPreference[]> {
  return findWhere(manager, OpenShiftPreference, "organization_id = $1 AND open_shift_id = ANY($2::uuid[])", [organizationId, [...openShiftIds]], {
    orderBy: "created_at, id",
  });
}

/** A published open shift of one place, in the caller's transaction: what a dropped entry becomes. */
export function insertPublishedOpenShift(
  manager: EntityManager,
  organizationId: string,
  shift: { locationId: string; roleId: string; startsAt: Date; endsAt: Date; breakTypeIds: string[]; note: string | null },
  now: Date,
): Promise<OpenShift> {
  const repo = manager.getRepository(OpenShift);
  return repo.save(repo.create({ organizationId, ...shift, staffCountRequired: 1, acceptedCount: 0, requireApproval: true, publishedAt: now }));
}
