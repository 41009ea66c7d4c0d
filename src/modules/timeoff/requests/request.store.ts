import { EntityManager } from "typeorm";
import type { Queryable } from "../../../database/queryable";
import { updateReturning } from "../../../database/returning";
import { spanOverlaps } from "../../../database/spans";

/**
 * Moves a request from status `from` to `to`, setting the columns of `set` (fixed names, never
 * input) with it; false when the request no longer had status `from`.
 */
export async function moveRequestStatus(
  manager: EntityManager,
  organizationId: string,
  requestId: string,
  from: string,
  to: string,
  set: Record<string, unknown>,
): Promise<boolean> {
  const columns = Object.keys(set);
  const assignments = columns.map((c, i) => `${c} = $${i + 5}`).join(", ");
  const rows = await updateReturning<{ id: string }>(
    manager,
    `UPDATE time_off_requests SET status = $3, updated_at = now()${assignments ? `, ${assignments}` : ""}
       WHERE organization_id = $1 AND id = $2 AND status = $4 RETURNING id`,
    [organizationId, requestId, to, from, ...columns.map((c) => set[c])],
  );
  return rows.length > 0;
}

/** Approved time off of some staff members overlapping [from, until), by start. */
export async function selectApprovedTimeOff(
  manager: Queryable,
  organizationId: string,
  /** Null: everyone of the organization. */
  staffIds: readonly string[] | null,
  from: Date,
  until: Date,
): Promise<{ id: string; staffId: string; start: Date; end: Date }[]> {
  if (staffIds?.length === 0) return [];
  const rows: { id: string; staff_id: string; start_time: Date; end_time: Date }[] = await manager.query(
    `SELECT id, worker_id AS staff_id, start_time, end_time FROM time_off_requests
      WHERE organization_id = $1 AND ($2::uuid[] IS NULL OR worker_id = ANY($2::uuid[])) AND status = 'approved' AND ${spanOverlaps("start_time", "end_time", "$3", "$4")}
      ORDER BY start_time, id`,
    [organizationId, staffIds && [...staffIds], from, until],
  );
  return rows.map((r) => ({ id: r.id, staffId: r.staff_id, start: new Date(r.start_time), end: new Date(r.end_time) }));
}
