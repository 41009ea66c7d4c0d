import { EntityManager, SelectQueryBuilder } from "typeorm";
import type { Queryable } from "../../../database/queryable";
import { LedgerEntry, LedgerKind, WorkerPolicy } from "./worker-policy.entity";
import { findOneBy, findWhere } from "../../../common/entity-reads";

/** The SQL of worker policies and the ledger behind their balances. */

export interface LedgerRow {
  organizationId: string;
  workerPolicyId: string;
  kind: LedgerKind;
  hours: number;
  effectiveDate: string;
  periodKey?: string | null;
  requestId?: string | null;
  shiftId?: string | null;
  recordedBy?: string | null;
  note?: string | null;
  recordedAt: Date;
}

/** Staff a policy's defaultSettings match (`p` the policy, `s` the staff member); never null. */
const MATCHES_DEFAULT = `COALESCE(s.deleted_at IS NULL AND (
     p.assigned_staff_type = 'All'
  OR (p.assigned_staff_type = 'Staff' AND s.id = ANY (p.assigned_staff_ids))
  OR (p.assigned_staff_type = 'Role' AND EXISTS (SELECT 1 FROM staff_roles sr WHERE sr.staff_id = s.id AND sr.role_id = ANY (p.assigned_staff_ids)))
  OR (p.assigned_staff_type = 'Location' AND EXISTS (SELECT 1 FROM staff_locations sl WHERE sl.staff_id = s.id AND sl.location_id = ANY (p.assigned_staff_ids)))
), false)`;

/**
 * Includes matching staff (from `today`) and excludes default rows that no longer match, for one
 * policy or one staff member (null for all); rows set by hand are left as they are.
 */
export async function syncDefaultAssignments(
  manager: EntityManager,
  organizationId: string,
  policyId: string | null,
  staffId: string | null,
  today: string,
): Promise<void> {
  const params = [organizationId, policyId, staffId, today];
  await manager.query(
    `INSERT INTO worker_policies (organization_id, policy_id, worker_id, is_included, assignment, accrues_from)
     SELECT p.organization_id, p.id, s.id, true, 'default', $4
     FROM time_off_policies p JOIN staff_members s ON s.organization_id = p.organization_id
     WHERE p.organization_id = $1 AND p.deleted_at IS NULL AND ($2::uuid IS NULL OR p.id = $2) AND ($3::uuid IS NULL OR s.id = $3) AND ${MATCHES_DEFAULT}
     ON CONFLICT (organization_id, policy_id, worker_id) DO UPDATE
       SET is_included = true, accrues_from = EXCLUDED.accrues_from, updated_at = now()
       WHERE worker_policies.assignment = 'default' AND NOT worker_policies.is_included`,
    params,
  );
  await manager.query(
    `UPDATE worker_policies w SET is_included = false, updated_at = now()
     FROM time_off_policies p, staff_members s
     WHERE w.organization_id = $1 AND ($2::uuid IS NULL OR w.policy_id = $2) AND ($3::uuid IS NULL OR w.worker_id = $3)
       AND p.organization_id = w.organization_id AND p.id = w.policy_id
       AND s.organization_id = w.organization_id AND s.id = w.worker_id
       AND w.assignment = 'default' AND w.is_included AND NOT ${MATCHES_DEFAULT}`,
    params.slice(0, 3),
  );
}

/** Sets an inclusion by hand; one newly included accrues from `today`. */
export async function upsertManualInclusion(
  manager: EntityManager,
  organizationId: string,
  policyId: string,
  staffId: string,
  isIncluded: boolean,
  today: string,
): Promise<void> {
  await manager.query(
    `INSERT INTO worker_policies (organization_id, policy_id, worker_id, is_included, assignment, accrues_from)
     VALUES ($1, $2, $3, $4, 'manual', $5)
     ON CONFLICT (organization_id, policy_id, worker_id) DO UPDATE
       SET is_included = EXCLUDED.is_included, assignment = 'manual', updated_at = now(),
           accrues_from = CASE WHEN worker_policies.is_included THEN worker_policies.accrues_from ELSE EXCLUDED.accrues_from END`,
    [organizationId, policyId, staffId, isIncluded, today],
  );
}

/** One adjustment row bringing the ledger's sum to `hoursBalance` (computed on exact numerics); none when equal. */
export async function insertAdjustmentTo(
  manager: EntityManager,
  organizationId: string,
  workerPolicyId: string,
  hoursBalance: string,
  effectiveDate: string,
  recordedBy: string | null,
  note: string,
  recordedAt: Date,
): Promise<void> {
  await manager.query(
    `INSERT INTO time_off_ledger (organization_id, worker_policy_id, kind, hours, effective_date, recorded_by, note, recorded_at)
     SELECT $1, $2, 'adjustment', $3::numeric - COALESCE(sum(l.hours), 0), $4, $5, $6, $7
     FROM time_off_ledger l WHERE l.organization_id = $1 AND l.worker_policy_id = $2
     HAVING $3::numeric <> COALESCE(sum(l.hours), 0)`,
    [organizationId, workerPolicyId, hoursBalance, effectiveDate, recordedBy, note, recordedAt],
  );
}

/** Ledger sum and pending request hours of each worker policy found (in no particular order). */
export function balanceRows(
  manager: EntityManager,
  organizationId: string,
  workerPolicyIds: readonly string[],
): Promise<{ id: string; balance: string; pending: string }[]> {
  return manager.query(
    `SELECT w.id,
            COALESCE((SELECT sum(l.hours) FROM time_off_ledger l WHERE l.worker_policy_id = w.id), 0) AS balance,
            COALESCE((SELECT sum(r.total_hours) FROM time_off_requests r
                      WHERE r.organization_id = w.organization_id AND r.policy_id = w.policy_id AND r.worker_id = w.worker_id AND r.status = 'pending'), 0) AS pending
     FROM worker_policies w WHERE w.organization_id = $1 AND w.id = ANY ($2::uuid[])`,
    [organizationId, workerPolicyIds],
  );
}

/** Appends rows to the ledger, skipping those whose period is already there; how many were added. */
export async function insertLedgerRows(manager: EntityManager, rows: LedgerRow[]): Promise<number> {
  const columns = [
    "organization_id",
    "worker_policy_id",
    "kind",
    "hours",
    "effective_date",
    "period_key",
    "request_id",
    "shift_id",
    "recorded_by",
    "note",
    "recorded_at",
  ];
  const values: unknown[] = [];
  const tuples = rows.map((r, i) => {
    values.push(
      r.organizationId,
      r.workerPolicyId,
      r.kind,
      r.hours.toFixed(6),
      r.effectiveDate,
      r.periodKey ?? null,
      r.requestId ?? null,
      r.shiftId ?? null,
      r.recordedBy ?? null,
      r.note ?? null,
      r.recordedAt,
    );
    return `(${columns.map((_, c) => `$${i * columns.length + c + 1}`).join(", ")})`;
  });
  const inserted: unknown[] = await manager.query(
    `INSERT INTO time_off_ledger (${columns.join(", ")}) VALUES ${tuples.join(", ")}
     ON CONFLICT (worker_policy_id, kind, period_key) DO NOTHING RETURNING id`,
    values,
  );
  return inserted.length;
}

/** Included workers who have not left, per policy found (in no particular order). */
export function assignedCountRows(db: Queryable, organizationId: string, policyIds: readonly string[]): Promise<{ policy_id: string; count: string }[]> {
  return db.query(
    `SELECT w.policy_id, count(*) AS count FROM worker_policies w
     JOIN staff_members s ON s.organization_id = w.organization_id AND s.id = w.worker_id
     WHERE w.organization_id = $1 AND w.policy_id = ANY ($2::uuid[]) AND w.is_included AND s.active AND s.deleted_at IS NULL
     GROUP BY w.policy_id`,
    [organizationId, policyIds],
  );
}

/** The worker policy of a staff member in a policy, locked until the transaction ends. */
export function lockWorkerPolicy(manager: EntityManager, organizationId: string, policyId: string, staffId: string): Promise<WorkerPolicy | null> {
  return findOneBy(manager, WorkerPolicy, { organizationId, policyId, staffId }, { lock: "update" });
}

export interface WorkerPolicyListFilter {
  policyId?: string;
  staffId?: string;
  /** The staff member who may see only their own. */
  own?: string | null;
}

/** Narrows a list of worker policies (`r`) to the filter's, of policies not removed. */
export function whereWorkerPoliciesListed(q: SelectQueryBuilder<WorkerPolicy>, filter: WorkerPolicyListFilter): void {
  if (filter.policyId) q.andWhere("r.policy_id = :policyId", { policyId: filter.policyId });
  if (filter.staffId) q.andWhere("r.worker_id = :staffId", { staffId: filter.staffId });
  if (filter.own) q.andWhere("r.worker_id = :own", { own: filter.own });
  q.andWhere("EXISTS (SELECT 1 FROM time_off_policies p WHERE p.organization_id = r.organization_id AND p.id = r.policy_id AND p.deleted_at IS NULL)");
}

/** A staff member's worker policies of policies not removed, by policy name. */
export function selectStaffMemberPolicies(db: Queryable, organizationId: string, staffId: string): Promise<WorkerPolicy[]> {
  return db
    .getRepository(WorkerPolicy)
    .createQueryBuilder("w")
    .innerJoin("time_off_policies", "p", "p.organization_id = w.organization_id AND p.id = w.policy_id AND p.deleted_at IS NULL")
    .where("w.organization_id = :org AND w.worker_id = :id", { org: organizationId, id: staffId })
    .orderBy("p.name")
    .addOrderBy("w.id")
    .getMany();
}

/** The ledger rows of one worker policy, to page through. */
export function ledgerQuery(db: Queryable, organizationId: string, workerPolicyId: string): SelectQueryBuilder<LedgerEntry> {
  return db
    .getRepository(LedgerEntry)
    .createQueryBuilder("r")
    .where("r.organization_id = :org AND r.worker_policy_id = :id", { org: organizationId, id: workerPolicyId });
}

/** The worker policies of the (policy, staff member) pairs given as two lists of the same length. */
export function selectWorkerPoliciesByPair(db: Queryable, organizationId: string, policyIds: string[], staffIds: string[]): Promise<WorkerPolicy[]> {
  return findWhere(db, WorkerPolicy, "organization_id = $1 AND (policy_id, worker_id) IN (SELECT * FROM unnest($2::uuid[], $3::uuid[]))", [
    organizationId,
    policyIds,
    staffIds,
  ]);
}
