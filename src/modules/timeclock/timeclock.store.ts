import { EntityManager } from "typeorm";

/** The SQL of the time clock (shifts and breaks themselves are written through the timesheets store). */

/**
 * Whether the staff member exists (not deleted) in the organization; `lock` holds their row
 * until the transaction ends, so that their clock actions run one after another.
 */
export async function staffMemberExists(manager: EntityManager, organizationId: string, staffId: string, lock: boolean): Promise<boolean> {
  const rows: unknown[] = await manager.query(
    `SELECT id FROM staff_members WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL${lock ? " FOR NO KEY UPDATE" : ""}`,
    [organizationId, staffId],
  );
  return rows.length > 0;
}
