import { EntityManager } from "typeorm";
import type { Queryable } from "../../../database/queryable";
import { LimitSettings } from "../policies/policy.entity";

/** The SQL of accruals: who accrues, the shifts not yet counted, the balance before a date. */

/** A worker policy that accrues, as read (and locked) for one run. */
export interface Accruing {
  id: string;
  staff_id: string;
  accrues_from: string;
  accruing_since: string;
  limit_settings: LimitSettings;
  full_day_duration: string;
  carryover_limit: string | null;
  last_fixed: string | null;
}

/** Every organization, or the one with `organizationId` (none when there is no such). */
export function organizationsToAccrue(db: Queryable, organizationId: string | "all"): Promise<{ id: string; timezone: string }[]> {
  return organizationId === "all"
    ? db.query(`SELECT id, timezone FROM organizations ORDER BY id`)
    : db.query(`SELECT id, timezone FROM organizations WHERE id::text = $1`, [organizationId.toLowerCase()]);
}

/** Ids of the included worker policies of active policies in the organization. */
export function accruingWorkerPolicyIds(db: Queryable, organizationId: string): Promise<{ id: string }[]> {
  return db.query(
    `SELECT w.id FROM worker_policies w
     JOIN time_off_policies p ON p.organization_id = w.organization_id AND p.id = w.policy_id
     WHERE w.organization_id = $1 AND w.is_included AND p.status = 'Active' AND p.deleted_at IS NULL ORDER BY w.id`,
    [organizationId],
  );
}

/** The worker policy, locked until commit, where it still accrues (included, active policy, staff member still there). */
export async function lockAccruing(manager: EntityManager, organizationId: string, workerPolicyId: string): Promise<Accruing | undefined> {
  const [wp]: Accruing[] = await manager.query(
    `SELECT w.id, w.worker_id AS staff_id, w.accrues_from, p.accruing_since, p.limit_settings, p.full_day_duration, p.carryover_limit,
            (SELECT max(l.effective_date) FROM time_off_ledger l
             WHERE l.worker_policy_id = w.id AND l.kind IN ('grant', 'accrual') AND l.shift_id IS NULL) AS last_fixed
     FROM worker_policies w
     JOIN time_off_policies p ON p.organization_id = w.organization_id AND p.id = w.policy_id
     JOIN staff_members s ON s.organization_id = w.organization_id AND s.id = w.worker_id
     WHERE w.organization_id = $1 AND w.id = $2 AND w.is_included AND p.status = 'Active' AND p.deleted_at IS NULL AND p.accruing_since IS NOT NULL
       AND s.active AND s.deleted_at IS NULL
     FOR UPDATE OF w`,
    [organizationId, workerPolicyId],
  );
  return wp;
}

/** Closed shifts of the worker ending in [from, to) and by `now`, not yet counted for the worker policy. */
export function shiftsToAccrue(
  manager: EntityManager,
  organizationId: string,
  wp: Accruing,
  from: Date,
  to: Date,
  now: Date,
): Promise<{ id: string; end_time: Date; start_ms: string; end_ms: string; unpaid_break_ms: string }[]> {
  return manager.query(
    // The times and the unpaid break total kept with the shift: payable minutes are counted from them by the timesheets' rule.
    `SELECT s.id, s.end_time, epoch_ms(s.start_time) AS start_ms, epoch_ms(s.end_time) AS end_ms, s.unpaid_break_ms
     FROM shifts s
     WHERE s.organization_id = $1 AND s.employee_id = $2 AND s.deleted_at IS NULL AND s.end_time IS NOT NULL
       AND s.end_time >= $3 AND s.end_time < $4 AND s.end_time <= $5
       AND NOT EXISTS (SELECT 1 FROM time_off_ledger l WHERE l.worker_policy_id = $6 AND l.kind = 'accrual' AND l.shift_id = s.id)
     ORDER BY s.end_time, s.id`,
    [organizationId, wp.staff_id, from, to, now, wp.id],
  );
}

/** The ledger's sum before `date`. */
export async function balanceBefore(manager: EntityManager, workerPolicyId: string, date: string): Promise<string> {
  const [{ balance }]: { balance: string }[] = await manager.query(
    `SELECT COALESCE(sum(hours), 0) AS balance FROM time_off_ledger WHERE worker_policy_id = $1 AND effective_date < $2`,
    [workerPolicyId, date],
  );
  return balance;
}
