import { DataSource, EntityManager } from "typeorm";
import { TimeOffPolicy } from "./policy.entity";
import { findWhere } from "../../../common/entity-reads";

/** The SQL of time-off policies. */

/** The organization's active policies, or every policy with `allStatuses`, by name. */
export function selectPolicies(db: DataSource, organizationId: string, allStatuses: boolean): Promise<TimeOffPolicy[]> {
  return findWhere(db, TimeOffPolicy, `organization_id = $1${allStatuses ? "" : " AND status = 'Active'"}`, [organizationId], { orderBy: "name, id" });
}

/** Policies by id, removed ones included. */
export function selectPoliciesWithRemoved(db: DataSource, organizationId: string, ids: readonly string[]): Promise<TimeOffPolicy[]> {
  return findWhere(db, TimeOffPolicy, "organization_id = $1 AND id = ANY($2::uuid[])", [organizationId, ids], { withDeleted: true });
}

/** Ids of the staff (not deleted) whose `column` (a fixed column name, never input) equals `value`. */
export async function staffIdsWhere(manager: EntityManager, organizationId: string, column: string, value: string): Promise<string[]> {
  const rows: { id: string }[] = await manager.query(`SELECT id FROM staff_members WHERE organization_id = $1 AND ${column} = $2 AND deleted_at IS NULL`, [
    organizationId,
    value,
  ]);
  return rows.map((r) => r.id);
}

/** How many pending or approved requests use a policy, and the ids of the first `listed` of them. */
export async function requestsUsingPolicy(
  manager: EntityManager,
  organizationId: string,
  policyId: string,
  listed: number,
): Promise<{ count: string; ids: string[] | null }> {
  const [row]: { count: string; ids: string[] | null }[] = await manager.query(
    `SELECT count(*) AS count, (array_agg(id ORDER BY start_time, id))[1:${listed}] AS ids
     FROM time_off_requests WHERE organization_id = $1 AND policy_id = $2 AND status IN ('pending', 'approved')`,
    [organizationId, policyId],
  );
  return row;
}
